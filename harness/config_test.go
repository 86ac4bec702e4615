package harness

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// writeConfig writes files (name -> content) into a temporary folder and
// returns the path of the first one, the config.
func writeConfig(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for i := 0; i+1 < len(files); i += 2 {
		p := filepath.Join(dir, files[i])
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(files[i+1]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, files[0])
}

const goodConfig = `name: prompt-ab
description: two prompts on the default story
variants:
  - name: plain
    memory: window
    window: 5
    temperature: 0.7
  - name: careful
    memory: hybrid
    system_prompt_file: prompts/careful.txt
    tools: [play_action, memory, valid_actions]
    verb_repair: false
  - name: floor
    policy: explorer
games: [lantern]
trials: 3
base_seed: 10
max_steps: 40
limits: {tokens: 5000, cost: 0.25, time: 90s}
parallel: 6
rate_limit: 2.5
retries: 2
cache: {dir: cache}
`

func TestLoadConfig(t *testing.T) {
	path := writeConfig(t, "exp.yaml", goodConfig, "prompts/careful.txt", "Open every container.")
	cfg, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Name != "prompt-ab" || len(cfg.Variants) != 3 || cfg.Parallel != 6 || cfg.RateLimit != 2.5 || cfg.Retries != 2 {
		t.Errorf("decoded %+v", cfg)
	}
	if cfg.Limits != (Limits{Tokens: 5000, Cost: 0.25, Time: 90 * time.Second}) {
		t.Errorf("limits = %+v", cfg.Limits)
	}
	if got := cfg.SeedList(); len(got) != 3 || got[0] != 10 || got[2] != 12 {
		t.Errorf("seeds = %v, want 10 11 12", got)
	}
	eps := cfg.Episodes()
	if len(eps) != 9 {
		t.Fatalf("%d episodes, want 3 variants x 1 game x 3 seeds", len(eps))
	}
	seen := map[int64]bool{}
	for _, e := range eps {
		if e.LLMSeed != LLMSeed(10, e.Variant, e.Game, e.Seed) || e.LLMSeed < 0 {
			t.Errorf("%s: llm seed %d", e.Key(), e.LLMSeed)
		}
		if seen[e.LLMSeed] {
			t.Errorf("%s: llm seed %d given twice", e.Key(), e.LLMSeed)
		}
		seen[e.LLMSeed] = true
	}

	careful, _ := cfg.Variant("careful")
	ac, err := cfg.AgentConfig(careful, 77)
	if err != nil {
		t.Fatal(err)
	}
	if ac.System != "Open every container." || ac.Memory != "hybrid" || ac.VerbRepair || len(ac.Tools) != 3 || *ac.Seed != 77 {
		t.Errorf("careful's agent config: %+v", ac)
	}
	if ac.Limits.MaxSteps != 40 || ac.Limits.MaxTokens != 5000 || ac.Limits.MaxCost != 0.25 || ac.Limits.MaxWall != 90*time.Second {
		t.Errorf("limits: %+v", ac.Limits)
	}
	plain, _ := cfg.Variant("plain")
	if pc := plain.AgentConfig(); pc.Window != 5 || *pc.Temperature != 0.7 || !pc.VerbRepair || len(pc.Tools) != 4 {
		t.Errorf("plain's agent config: %+v", pc)
	}
	floor, _ := cfg.Variant("floor")
	if fc := floor.AgentConfig(); fc.Tools != nil {
		t.Errorf("a baseline gets every game tool, not %v", fc.Tools)
	}
}

func TestConfigHash(t *testing.T) {
	path := writeConfig(t, "exp.yaml", goodConfig, "prompts/careful.txt", "Open every container.")
	load := func() *Config {
		cfg, err := LoadConfig(path)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	a := load()
	h := a.Hash()
	if len(h) != 64 || h != load().Hash() {
		t.Fatalf("hash %q is not a stable SHA-256", h)
	}
	b := load()
	b.Parallel, b.RateLimit, b.Retries, b.Cache = 1, 0, 0, CacheConfig{}
	if b.Hash() != h {
		t.Error("parallelism, rate limit, retries and cache changed the hash; they do not change the episodes")
	}
	c := load()
	c.Trials, c.Seeds = 0, []int64{10, 11, 12}
	if c.Hash() != h {
		t.Error("seeds 10,11,12 and trials 3 from 10 are the same experiment but hash differently")
	}
	d := load()
	d.MaxSteps = 41
	if d.Hash() == h {
		t.Error("a different step limit kept the hash")
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(path), "prompts", "careful.txt"), []byte("Never open anything."), 0o644); err != nil {
		t.Fatal(err)
	}
	if load().Hash() == h {
		t.Error("editing the prompt file kept the hash")
	}
}

// errorAt checks that err names file:line:col, the field and what is wrong.
func errorAt(t *testing.T, err error, path string, line, col int, field, msg string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want %s at %d:%d", field, line, col)
	}
	want := regexp.QuoteMeta(path) + ":" + strconv.Itoa(line) + ":" + strconv.Itoa(col) +
		`: field ` + regexp.QuoteMeta(field) + `: .*` + msg
	if !regexp.MustCompile(want).MatchString(err.Error()) {
		t.Errorf("error:\n%v\nwant a line matching %s", err, want)
	}
}

func TestConfigErrorsNamePlaceAndField(t *testing.T) {
	t.Run("misspelt field", func(t *testing.T) {
		path := writeConfig(t, "typo.yaml", "name: x\nvariants:\n  - name: a\n    modle: gpt-4o\ngames: [lantern]\n")
		_, err := LoadConfig(path)
		errorAt(t, err, path, 4, 5, "modle", "unknown field")
	})
	t.Run("wrong type", func(t *testing.T) {
		path := writeConfig(t, "type.yaml", "name: x\nvariants: [{name: a}]\ngames: [lantern]\nmax_steps: lots\n")
		_, err := LoadConfig(path)
		errorAt(t, err, path, 4, 12, "max_steps", `"lots" is not an integer`)
	})
	t.Run("wrong type in a variant", func(t *testing.T) {
		path := writeConfig(t, "temp.yaml", "name: x\nvariants:\n  - name: a\n    temperature: hot\ngames: [lantern]\n")
		_, err := LoadConfig(path)
		errorAt(t, err, path, 4, 18, "temperature", `"hot" is not a number`)
	})
	t.Run("duration", func(t *testing.T) {
		path := writeConfig(t, "time.yaml", "name: x\nvariants: [{name: a}]\ngames: [lantern]\nlimits:\n  time: soon\n")
		_, err := LoadConfig(path)
		errorAt(t, err, path, 5, 9, "time", `is not a duration`)
	})
	t.Run("list expected", func(t *testing.T) {
		path := writeConfig(t, "list.yaml", "name: x\nvariants: [{name: a}]\ngames: lantern\n")
		_, err := LoadConfig(path)
		if err == nil || !strings.Contains(err.Error(), path+":3:") || !strings.Contains(err.Error(), "games") {
			t.Errorf("error %v; want the line of games named", err)
		}
	})
}

func TestConfigValidate(t *testing.T) {
	notStory := "a text file, not a story"
	cases := []struct {
		name, yaml    string
		line, col     int
		field, detail string
	}{
		{"no variants", "name: x\nvariants: []\ngames: [lantern]\n", 2, 11, "variants", "no variants"},
		{"duplicate variant", "name: x\nvariants:\n  - name: a\n  - name: a\ngames: [lantern]\n", 4, 11, "variants[1].name", `duplicate variant name "a"`},
		{"unknown policy", "name: x\nvariants:\n  - name: a\n    policy: genius\ngames: [lantern]\n", 4, 13, "variants[0].policy", `unknown policy "genius" \(valid: llm, random, walkthrough, explorer, commands\)`},
		{"unknown memory", "name: x\nvariants:\n  - name: a\n    memory: elephant\ngames: [lantern]\n", 4, 13, "variants[0].memory", `unknown memory strategy "elephant"`},
		{"unknown tool", "name: x\nvariants:\n  - name: a\n    tools: [play_action, teleport]\ngames: [lantern]\n", 4, 26, "variants[0].tools[1]", `unknown game tool "teleport"`},
		{"unknown drop_params", "name: x\nvariants:\n  - name: a\n    drop_params: [seed, temprature]\ngames: [lantern]\n", 4, 25, "variants[0].drop_params[1]", `unknown parameter "temprature": grue can leave out temperature, seed, max_tokens`},
		{"drop_params twice", "name: x\nvariants:\n  - name: a\n    drop_params:\n      - seed\n      - seed\ngames: [lantern]\n", 6, 9, "variants[0].drop_params[1]", `"seed" is listed twice`},
		{"unknown game", "name: x\nvariants: [{name: a}]\ngames: [lantern, no-such-game]\n", 3, 18, "games[1]", `no-such-game`},
		{"not a story", "name: x\nvariants: [{name: a}]\ngames: [notes.z5]\n", 3, 9, "games[0]", `notes.z5`},
		{"bad name", "name: x\nvariants:\n  - name: my variant\ngames: [lantern]\n", 3, 11, "variants[0].name", `use letters, digits`},
		{"seeds and trials", "name: x\nvariants: [{name: a}]\ngames: [lantern]\nseeds: [1, 2]\ntrials: 4\n", 5, 9, "trials", "not both"},
		{"missing prompt file", "name: x\nvariants:\n  - name: a\n    system_prompt_file: nowhere.txt\ngames: [lantern]\n", 4, 25, "variants[0].system_prompt_file", "nowhere.txt"},
		{"negative", "name: x\nvariants: [{name: a}]\ngames: [lantern]\nparallel: -2\n", 4, 11, "parallel", "negative"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeConfig(t, "exp.yaml", c.yaml, "notes.z5", notStory)
			_, err := LoadConfig(path)
			errorAt(t, err, path, c.line, c.col, c.field, c.detail)
		})
	}

	// Every problem is reported, not just the first.
	path := writeConfig(t, "many.yaml", "name: x\nvariants:\n  - name: a\n    policy: genius\n  - name: b\n    memory: elephant\ngames: []\n")
	_, err := LoadConfig(path)
	for _, want := range []string{"variants[0].policy", "variants[1].memory", "field games"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not mention %s", err, want)
		}
	}
}

func TestConfigInCode(t *testing.T) {
	cfg := &Config{Name: "inline", Variants: []Variant{{Name: "r", Policy: PolicyRandom}}, Games: []string{"lantern"}, Seeds: []int64{4, 5}}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	cfg.Variants = append(cfg.Variants, Variant{Name: "r", Policy: "walkthrough"})
	err := cfg.Validate()
	if err == nil || !strings.Contains(err.Error(), "field variants[1].name: duplicate") {
		t.Errorf("error %v; want the duplicate named by its field", err)
	}
}
