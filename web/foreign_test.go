package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/harness"
)

// keyCatcher is a model server that records the Authorization headers it
// is sent: an attacker's, or the user's own endpoint.
type keyCatcher struct {
	*httptest.Server
	mu   sync.Mutex
	auth []string
}

func newKeyCatcher(t *testing.T) *keyCatcher {
	k := &keyCatcher{}
	k.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		k.mu.Lock()
		k.auth = append(k.auth, r.Header.Get("Authorization"))
		k.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if !strings.HasSuffix(r.URL.Path, "/models") {
			// No model here: a refusal that is not tried again.
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error": {"message": "no chat here"}}`))
			return
		}
		_, _ = w.Write([]byte(`{"object": "list", "data": [{"id": "m", "object": "model"}]}`))
	}))
	t.Cleanup(k.Close)
	return k
}

// got returns the Authorization headers received so far.
func (k *keyCatcher) got() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]string(nil), k.auth...)
}

// clearModelEnv empties the variables that choose an endpoint and a key.
func clearModelEnv(t *testing.T) {
	for _, k := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "HF_TOKEN", "GRUE_MODEL", "ANTHROPIC_API_KEY"} {
		t.Setenv(k, "")
	}
}

// The attack of issue 35, item 3, on keys: YAML pasted into the page names
// an attacker's base_url and api_key_env: OPENAI_API_KEY. It is refused,
// naming the field, and the attacker hears nothing; the same endpoint,
// given to the server at start (--endpoint), is taken.
func TestPastedConfigSendsNoKeyElsewhere(t *testing.T) {
	clearModelEnv(t)
	own, attacker := newKeyCatcher(t), newKeyCatcher(t)
	t.Setenv("OPENAI_BASE_URL", own.URL+"/v1")
	t.Setenv("OPENAI_API_KEY", "sk-victim-0123456789")
	t.Setenv("HF_TOKEN", "hf_victim0123456789")
	yaml := func(variant string) string {
		return "name: steal\nvariants:\n  - " + variant + "\ngames: [lantern]\ntrials: 1\nmax_steps: 1\n"
	}
	s := newTestServer(t, Options{Experiments: t.TempDir()})
	for _, c := range []struct{ variant, field string }{
		{"{name: m, model: m, base_url: \"" + attacker.URL + "/v1\", api_key_env: OPENAI_API_KEY}", "variants[0].base_url"},
		{"{name: m, model: m, base_url: \"" + attacker.URL + "/v1\"}", "variants[0].base_url"},
		{"{name: m, model: m, base_url: \"" + strings.ToUpper(attacker.URL) + "/v1/\"}", "variants[0].base_url"},
		// The environment's endpoint gets the environment's key, not
		// another one the config picks.
		{"{name: m, model: m, api_key_env: HF_TOKEN}", "variants[0].api_key_env"},
		{"{name: m, model: m, base_url: \"" + own.URL + "/v1\", api_key_env: HF_TOKEN}", "variants[0].api_key_env"},
	} {
		var e apiError
		s.json("POST", "/api/experiments", ExperimentRequest{YAML: yaml(c.variant)}, http.StatusBadRequest, &e)
		if e.Field != c.field || !strings.Contains(e.Error, "--endpoint") {
			t.Errorf("%s: %+v, want field %s and how to allow it", c.variant, e, c.field)
		}
		if strings.Contains(e.Error, "victim") {
			t.Errorf("%s: the error shows a key: %s", c.variant, e.Error)
		}
	}
	// The environment's own endpoint and key are fine.
	var x struct{ ID string }
	s.json("POST", "/api/experiments", ExperimentRequest{YAML: yaml("{name: m, model: m, base_url: \"" + own.URL + "/v1/\", api_key_env: OPENAI_API_KEY}")}, http.StatusCreated, &x)
	s.waitStatus(x.ID, ExpFailed) // the catcher is no model: its episode fails
	time.Sleep(50 * time.Millisecond)
	if got := attacker.got(); len(got) > 0 {
		t.Fatalf("the attacker's endpoint was sent %q", got)
	}
	if got := own.got(); len(got) == 0 || got[0] != "Bearer sk-victim-0123456789" {
		t.Errorf("the environment's endpoint got %q, want its key", got)
	}

	// Started with --endpoint, the server takes configs that name it.
	s2 := newTestServer(t, Options{Experiments: t.TempDir(), Endpoints: []string{attacker.URL + "/v1"}})
	s2.json("POST", "/api/experiments", ExperimentRequest{YAML: yaml("{name: m, model: m, base_url: \"" + attacker.URL + "/v1\", api_key_env: HF_TOKEN}")}, http.StatusCreated, &x)
	s2.waitStatus(x.ID, ExpFailed)
	if got := attacker.got(); len(got) == 0 || got[0] != "Bearer hf_victim0123456789" {
		t.Errorf("an endpoint given at start got %q, want the key the config names", got)
	}
}

// The attack of issue 35, item 3, on files: pasted YAML that names a
// prompt file or a story outside --experiments, by path or through a
// symbolic link inside it, or a cache folder outside --runs, is refused
// naming the field, before anything is read or made.
func TestPastedConfigStaysInItsFolders(t *testing.T) {
	clearModelEnv(t)
	outside := t.TempDir()
	secret := filepath.Join(outside, "notes.txt")
	if err := os.WriteFile(secret, []byte("the user's private notes"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, lantern := stories.Default()
	story := filepath.Join(outside, "story.z5")
	if err := os.WriteFile(story, lantern, 0o644); err != nil {
		t.Fatal(err)
	}
	exps := t.TempDir()
	if err := os.Symlink(secret, filepath.Join(exps, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(exps, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(exps, "prompt.txt"), []byte("You play a text adventure."), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(exps, "mine.z5"), lantern, 0o644); err != nil {
		t.Fatal(err)
	}
	runs := t.TempDir()
	s := newTestServer(t, Options{Runs: runs, Experiments: exps})
	cfg := func(variant, games, extra string) string {
		return "name: leak\nvariants:\n  - " + variant + "\ngames: [" + games + "]\ntrials: 1\nmax_steps: 2\n" + extra
	}
	cache := filepath.Join(outside, "anywhere")
	for _, c := range []struct{ yaml, field string }{
		{cfg("{name: r, policy: random, system_prompt_file: "+secret+"}", "lantern", ""), "variants[0].system_prompt_file"},
		{cfg("{name: r, policy: random, system_prompt_file: "+filepath.Join(exps, "link.txt")+"}", "lantern", ""), "variants[0].system_prompt_file"},
		{cfg("{name: r, policy: random, system_prompt_file: "+filepath.Join(exps, "out", "..", "out", "notes.txt")+"}", "lantern", ""), "variants[0].system_prompt_file"},
		{cfg("{name: r, policy: random, system_prompt_file: "+filepath.Join(exps, "..", filepath.Base(outside), "notes.txt")+"}", "lantern", ""), "variants[0].system_prompt_file"},
		{cfg("{name: r, policy: random}", story, ""), "games[0]"},
		{cfg("{name: r, policy: random}", filepath.Join(exps, "out", "story.z5"), ""), "games[0]"},
		{cfg("{name: r, policy: random}", "lantern", "cache: {dir: "+cache+"}\n"), "cache.dir"},
		{cfg("{name: r, policy: random}", "lantern", "cache: {dir: "+filepath.Join(runs, "..", filepath.Base(outside), "anywhere")+"}\n"), "cache.dir"},
	} {
		var e apiError
		s.json("POST", "/api/experiments", ExperimentRequest{YAML: c.yaml}, http.StatusBadRequest, &e)
		if e.Field != c.field {
			t.Errorf("%s: %+v, want field %s", c.yaml, e, c.field)
		}
		if strings.Contains(e.Error, "private notes") {
			t.Errorf("the error shows the file: %s", e.Error)
		}
	}
	if _, err := os.Stat(cache); err == nil {
		t.Errorf("%s was made", cache)
	}
	// A config named in the folder must be there too, not a link out.
	if err := os.WriteFile(filepath.Join(outside, "theirs.yaml"), []byte(cfg("{name: r, policy: random}", "lantern", "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "theirs.yaml"), filepath.Join(exps, "theirs.yaml")); err != nil {
		t.Fatal(err)
	}
	var e apiError
	s.json("POST", "/api/experiments", ExperimentRequest{Config: "theirs.yaml"}, http.StatusBadRequest, &e)
	if e.Field != "config" || !strings.Contains(e.Error, "leads outside") {
		t.Errorf("a config linked from outside: %+v", e)
	}
	// Inside the folders, all is taken.
	var x struct{ ID string }
	ok := cfg("{name: r, policy: random, system_prompt_file: "+filepath.Join(exps, "prompt.txt")+"}", filepath.Join(exps, "mine.z5"),
		"cache: {dir: "+filepath.Join(runs, "cache")+"}\n")
	s.json("POST", "/api/experiments", ExperimentRequest{YAML: ok}, http.StatusCreated, &x)
	s.waitStatus(x.ID, ExpComplete)
}

// The attack of issue 35, item 3, through a run folder: a run made
// elsewhere, whose manifest's config names a file outside --experiments
// and a cache outside --runs, is not resumed from the page (409, naming
// why), and nothing it names is read.
func TestResumeForeignRun(t *testing.T) {
	clearModelEnv(t)
	outside := t.TempDir()
	secret := filepath.Join(outside, "notes.txt")
	if err := os.WriteFile(secret, []byte("the user's private notes"), 0o600); err != nil {
		t.Fatal(err)
	}
	runs := t.TempDir()
	cfg := &harness.Config{Name: "foreign", Games: []string{"lantern"}, Trials: 2, MaxSteps: 2, Parallel: 1,
		Variants: []harness.Variant{{Name: "r", Policy: harness.PolicyRandom, SystemPromptFile: secret}},
		Cache:    harness.CacheConfig{Dir: filepath.Join(outside, "cache")}}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(runs, "foreign")
	if _, err := harness.Run(context.Background(), cfg, harness.RunOptions{Out: dir}); err != nil {
		t.Fatal(err)
	}
	// Leave it partial: one record of two.
	res := filepath.Join(dir, harness.ResultsFile)
	b, err := os.ReadFile(res)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(b), "\n")
	if err := os.WriteFile(res, []byte(first+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t, Options{Runs: runs, Experiments: t.TempDir()})
	s.waitStatus("foreign", ExpPartial)
	var e apiError
	s.json("POST", "/api/experiments/foreign/resume", nil, http.StatusConflict, &e)
	if e.Field != "variants[0].system_prompt_file" || !strings.Contains(e.Error, "cache.dir") || !strings.Contains(e.Error, "grue exp run --resume") {
		t.Errorf("resume: %+v", e)
	}
	if n, _ := s.srv.experiments.running("foreign"); n != 0 {
		t.Errorf("the run was resumed")
	}
}

// within resolves paths as the kernel does: a symbolic link, then "..",
// goes up from where the link leads, not from the link.
func TestWithin(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "nowhere"), filepath.Join(root, "dangling")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want bool
	}{
		{root, true},
		{filepath.Join(root, "sub", "x.txt"), true},
		{filepath.Join(root, "new", "folder", "to", "make"), true},
		{filepath.Join(root, "sub", "..", "sub"), true},
		{filepath.Join(root, "out"), false},
		{filepath.Join(root, "out", "x.txt"), false},
		{root + "/out/../sub", false}, // lexically root/sub, but out/.. is outside's parent
		{filepath.Join(root, "dangling", "x"), false},
		{filepath.Join(root, ".."), false},
		{outside, false},
	} {
		if got := within(root, c.path); got != c.want {
			t.Errorf("within(%s, %s) = %v, want %v", root, c.path, got, c.want)
		}
	}
}
