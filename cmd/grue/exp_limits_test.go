package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestExpRunRejectsHugeSizes is the attack of issue 11, item 15 on the
// command line: a config with `trials: 1000000000000` (or the same as
// --trials) was an immediate fatal out-of-memory, and a 1 KB alias bomb
// passed 3 GB. Each is refused at once, naming where.
func TestExpRunRejectsHugeSizes(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.yaml")
	ok := filepath.Join(dir, "ok.yaml")
	bomb := filepath.Join(dir, "bomb.yaml")
	var b strings.Builder
	b.WriteString("name: bomb\nvariants: [{name: a, policy: random}]\ngames: [lantern]\n")
	b.WriteString(`x0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]` + "\n")
	for i := 1; i < 9; i++ {
		b.WriteString("x" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [" + strings.TrimSuffix(strings.Repeat("*a"+string(rune('0'+i-1))+",", 9), ",") + "]\n")
	}
	b.WriteString("description: *a8\n")
	for path, text := range map[string]string{
		huge: "name: huge\nvariants: [{name: r, policy: random}]\ngames: [lantern]\ntrials: 1000000000000\n",
		ok:   "name: ok\nvariants: [{name: r, policy: random}]\ngames: [lantern]\n",
		bomb: b.String(),
	} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "run")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", huge, "--out", out}, huge + ":4:9: field trials: 1000000000000 trials, more than the limit of 10000"},
		{[]string{"run", ok, "--out", out, "--trials", "1000000000000"}, "--trials 1000000000000: more than the limit of 10000"},
		{[]string{"run", ok, "--out", out, "--parallel", "100000"}, "--parallel 100000: more than the limit of 256"},
		{[]string{"run", ok, "--out", out, "--steps", "2000000000"}, "--steps 2000000000: more than the limit of 100000"},
		{[]string{"run", bomb, "--out", out}, bomb + ":9:10: the document expands to more than 100000 values"},
	} {
		start := time.Now()
		stdout, stderr, code := grueExp(t, c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("grue exp %s: exit %d, want an error %q:\n%s%s", strings.Join(c.args[2:], " "), code, c.want, stdout, stderr)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("grue exp %s took %v to refuse", strings.Join(c.args[2:], " "), d)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused run made its directory %s", out)
	}
}
