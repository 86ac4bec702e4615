package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/internal/cli"
)

func TestTerminal(t *testing.T) {
	grue, err := exec.LookPath("grue") // the test binary as grue: see TestMain
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	cmd := exec.Command(grue)
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_STATE_HOME="+filepath.Join(home, "state"), "TERM=xterm", "NO_COLOR=1",
		"OPENAI_API_KEY=", "OPENAI_BASE_URL=", "HF_TOKEN=", "GRUE_MODEL=")
	term := startTerminal(t, cmd, 40, 100)
	scr, exited := term.screen, term.exited
	typ := func(s string) { t.Helper(); term.typ(t, s) }

	scr.expect(t, "game: lantern (seed 1), policy: explorer (no model configured: set OPENAI_API_KEY")
	scr.expect(t, "g is the game, ep the agent's episode")
	scr.expect(t, "[1]> ")

	// A function over several lines: the continuation prompt, then the
	// prompt again once the brace closes.
	typ("func twice(n int) int {\r")
	scr.expect(t, "...> ")
	typ("return 2 * n\r")
	scr.expect(t, "...> ")
	typ("}\r")
	scr.expect(t, "]> ")
	typ("twice(21)\r")
	scr.expect(t, "42\n")
	scr.expect(t, "[3]> ")
	// The up arrow brings the multi-line cell back whole: Return runs it
	// again, as a redefinition.
	typ("\x1b[A\x1b[A")
	scr.expect(t, "return 2 * n")
	typ("\r")
	scr.expect(t, "redefined func twice")
	scr.expect(t, "[4]> ")

	// Tab completes a package's symbol and a session variable's method.
	typ("strings.ToUpp\t")
	scr.expect(t, "strings.ToUpper")
	typ("(\"grue\")\r")
	scr.expect(t, "GRUE\n")
	typ("g.Inf\t")
	scr.expect(t, "g.Info")
	typ("().Location\r")
	scr.expect(t, "Meadow\n")

	// Steps of the agent's episode: one played by hand, two by the agent.
	typ(":play north\r")
	scr.expect(t, `step 1: play_action {"action":"north"} -> Cave Mouth (score 0)`)
	scr.expect(t, "Daylight reaches a few paces into the cave")
	scr.expect(t, "]> ")
	typ(":step 2\r")
	scr.expect(t, "step 3: play_action")
	scr.expect(t, "    thought: ")
	scr.expect(t, "after 3 steps: score 0 of 60")
	scr.expect(t, "]> ")

	// :table fits the terminal: the columns past its width are left out.
	typ(":table harness.NewResultSet(harness.EpisodeRecord{Game: \"zork1\"}).Records\r")
	scr.expect(t, "│ zork1 ")
	scr.expect(t, "more columns, past the width")
	scr.expect(t, "]> ")

	// Tab completes after an index.
	typ("ep.Agent.History[0].Thou\t")
	scr.expect(t, "ep.Agent.History[0].Thought")
	typ("\r")
	scr.expect(t, "played at the REPL with :play")
	scr.expect(t, "]> ")

	// Ctrl-C stops a loop that never ends; the session goes on.
	typ("n := 0\r")
	scr.expect(t, "]> ")
	typ("for {\r")
	scr.expect(t, "...> ")
	typ("n++\r")
	scr.expect(t, "...> ")
	typ("if n == 1000 { fmt.Println(\"a\", \"thousand\") }\r")
	scr.expect(t, "...> ")
	typ("}\r")
	scr.expect(t, "a thousand")
	typ("\x03")
	scr.expect(t, "interrupted")
	scr.expect(t, "]> ")
	typ("n > 1000\r")
	scr.expect(t, "true\n")
	scr.expect(t, "]> ")

	// Ctrl-C stops a long run of the episode, given the cell's ctx: the
	// steps played are kept.
	typ(":reset\r") // a fresh episode: the explorer may have met the grue
	scr.expect(t, "session reset: ")
	scr.expect(t, "]> ")
	typ("ep.Agent.Policy = agent.NewWalkthrough(strings.Fields(strings.Repeat(\"look \", 1000000)))\r")
	scr.expect(t, "]> ")
	typ("ep.Agent.Limits = agent.Limits{}\r")
	scr.expect(t, "]> ")
	// The run says when it has played 20 steps, however slow the machine
	// (under -race on two busy cores a step can take tens of ms).
	typ("ep.Agent.OnStep = func(s *agent.Step) { if len(ep.Agent.History) == 20 { fmt.Println(\"twenty\", \"steps\", \"played\") } }\r")
	scr.expect(t, "]> ")
	typ("r, err := ep.Run(ctx, 1000000)\r")
	scr.expect(t, "twenty steps played")
	typ("\x03")
	scr.expect(t, "interrupted")
	scr.expect(t, "]> ")
	// The run returned within the interrupted cell, by itself: its result
	// is set, so no step is played from here on.
	typ("fmt.Println(r.StoppedBy, err)\r")
	scr.expect(t, "cancelled context canceled\n")
	scr.expect(t, "]> ")
	typ("k := len(ep.Agent.History)\r")
	scr.expect(t, "]> ")
	typ("k > 10 && k < 1000000\r")
	scr.expect(t, "true\n")
	scr.expect(t, "]> ")
	typ("len(ep.Agent.History) == k\r")
	scr.expect(t, "true\n")
	scr.expect(t, "]> ")

	// Ctrl-C while typing drops the cell; an error shows its line.
	typ("if true {\r")
	scr.expect(t, "...> ")
	typ("\x03")
	scr.expect(t, "]> ")
	typ("nope + 1\r")
	scr.expect(t, "error: line 1:1: undefined: nope")
	scr.expect(t, "]> ")

	// The session survives what once killed it (issue 37): a declaration
	// that fails its type check, a panic in a goroutine the cell started;
	// the cells after them, :save included, run. Text without a trailing
	// newline stays visible: the line is ended before the prompt.
	typ("var s string = 5\r")
	scr.expect(t, "error: line 1:16: cannot use 5 (untyped int constant) as string value in variable declaration")
	scr.expect(t, "]> ")
	typ("u := 1 + \"a\"\r")
	scr.expect(t, "mismatched types untyped int and untyped string")
	scr.expect(t, "]> ")
	typ("go func() { var q []int; _ = q[3] }()\r")
	scr.expect(t, "recovered, the session goes on")
	typ("fmt.Printf(\"%d items\", 3)\r")
	scr.expect(t, "3 items\n")
	scr.expect(t, "]> ")
	typ(":save " + filepath.Join(home, "survived.md") + "\r")
	scr.expect(t, "saved")
	scr.expect(t, "]> ")

	// Ctrl-D leaves, with status 0.
	typ("\x04")
	select {
	case err := <-exited:
		if err != nil {
			scr.mu.Lock()
			scr.mark = 0
			scr.mu.Unlock()
			t.Fatalf("grue exited with %v after Ctrl-D; the screen:\n%s", err, scr.text())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("grue did not leave on Ctrl-D")
	}
	hist, err := os.ReadFile(filepath.Join(home, "state", "grue", "history"))
	if err != nil {
		t.Fatalf("no history file: %v", err)
	}
	if !strings.Contains(string(hist), "\ntwice(21)\n") || !strings.Contains(string(hist), `#cell "func twice(n int) int {\nreturn 2 * n\n}"`) {
		t.Errorf("the history file lacks twice(21), or the multi-line cell as one entry:\n%s", hist)
	}
	var pathErr *os.PathError
	if err := term.tty.Close(); err != nil && !errors.As(err, &pathErr) {
		t.Log(err)
	}
}

// TestREPLModel: grue's --model and --base-url give the session's agent
// its model, over the environment's, for the REPL, a notebook and a
// script (through the environment that llm.ConfigFromEnv reads).
func TestREPLModel(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Fallback(func(llmtest.Request) llmtest.Response {
		return llmtest.Text("THOUGHT: into the cave\nTOOL: play_action\nARGS: {\"action\": \"north\"}")
	})
	for _, k := range []string{"OPENAI_API_KEY", "HF_TOKEN", "GRUE_PRICES"} {
		t.Setenv(k, "")
	}
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1") // overridden by --base-url
	t.Setenv("GRUE_MODEL", "env-model")                  // overridden by --model

	var stdout, stderr strings.Builder
	status := run([]string{"--base-url", srv.URL(), "--model", "flag-model"}, strings.NewReader(":step\n"), &stdout, &stderr)
	if status != cli.ExitOK {
		t.Fatalf("grue: status %d\n%s\n%s", status, stdout.String(), stderr.String())
	}
	if !strings.Contains(stderr.String(), "game: lantern (seed 1), model: flag-model\n") {
		t.Errorf("the banner on stderr: %q", stderr.String())
	}
	if !strings.Contains(stdout.String(), `step 1: play_action {"action":"north"} -> Cave Mouth (score 0)`) ||
		!strings.Contains(stdout.String(), "    thought: into the cave\n") {
		t.Errorf(":step printed\n%s", stdout.String())
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Model != "flag-model" {
		t.Errorf("the model got %d requests, want 1 for flag-model: %+v", len(reqs), reqs)
	}

	dir := t.TempDir()
	script := filepath.Join(dir, "which.go")
	src := "package main\n\nimport (\n\t\"fmt\"\n\n\t\"github.com/grue-lab/grue/agent/llm\"\n)\n\nfunc main() {\n\tc := llm.ConfigFromEnv()\n\tfmt.Println(c.Model, c.BaseURL)\n}\n"
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	status = run([]string{"run", "--model", "script-model", "--base-url", srv.URL(), script}, strings.NewReader(""), &stdout, &stderr)
	if status != cli.ExitOK || stdout.String() != "script-model "+srv.URL()+"\n" {
		t.Errorf("grue run --model: status %d, stdout %q, stderr %q", status, stdout.String(), stderr.String())
	}
}

// TestREPLRecordSaysWhatRan: the REPL's episode record and the header
// that :save writes name the model, its endpoint with its key masked,
// grue's revision and the price source: a model with no known price
// costs "unknown", not $0.0000.
func TestREPLRecordSaysWhatRan(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Fallback(func(llmtest.Request) llmtest.Response {
		return llmtest.Text("THOUGHT: into the cave\nTOOL: play_action\nARGS: {\"action\": \"north\"}")
	})
	for _, k := range []string{"OPENAI_API_KEY", "HF_TOKEN", "GRUE_PRICES", "OPENAI_BASE_URL", "GRUE_MODEL"} {
		t.Setenv(k, "")
	}
	nb := filepath.Join(t.TempDir(), "nb.md")
	in := ":step\nr := ep.Record()\nfmt.Println(r.Policy, r.Model, r.BaseURL, r.PriceSource, r.GrueRevision != \"\", r.Seed)\n:save " + nb + "\n"
	var stdout, stderr strings.Builder
	url := srv.URL() + "?api_key=sk-inurlsecret"
	status := run([]string{"--base-url", url, "--model", "no-price-model"}, strings.NewReader(in), &stdout, &stderr)
	if status != cli.ExitOK {
		t.Fatalf("grue: status %d\n%s\n%s", status, stdout.String(), stderr.String())
	}
	redacted := srv.URL() + "?api_key=[redacted]"
	if want := "llm no-price-model " + redacted + " unknown true 1\n"; !strings.Contains(stdout.String(), want) {
		t.Errorf("ep.Record() printed\n%s\nwant a line %q", stdout.String(), want)
	}
	b, err := os.ReadFile(nb)
	if err != nil {
		t.Fatal(err)
	}
	head := string(b)
	for _, want := range []string{"model: \"no-price-model\"\n", "base_url: \"" + redacted + "\"\n", "grue_revision: \"", "price_source: \"unknown\"\n", "seed: \"1\"\n"} {
		if !strings.Contains(head, want) {
			t.Errorf("the notebook's header lacks %q:\n%s", want, head)
		}
	}
	if strings.Contains(head+stdout.String()+stderr.String(), "sk-inurlsecret") {
		t.Errorf("the key shows")
	}
}

// TestREPLEndpointWithoutModel: an endpoint with no model, whose /models
// does not answer (404), stops the REPL before it starts, saying in one
// line what to set (--model or GRUE_MODEL) and what the server said; no
// baseline plays in the model's place.
func TestREPLEndpointWithoutModel(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	for _, k := range []string{"OPENAI_API_KEY", "HF_TOKEN", "GRUE_PRICES", "GRUE_MODEL"} {
		t.Setenv(k, "")
	}
	t.Setenv("OPENAI_BASE_URL", srv.Root()+"/nothing-here/v1")
	var stdout, stderr strings.Builder
	status := run(nil, strings.NewReader(":step\n"), &stdout, &stderr)
	msg := strings.TrimSpace(stderr.String())
	if status == cli.ExitOK || strings.Contains(stdout.String()+msg, "explorer (") {
		t.Fatalf("grue: status %d, want a failure and no baseline\n%s\n%s", status, stdout.String(), msg)
	}
	for _, want := range []string{"--model", "GRUE_MODEL", "did not list its models"} {
		if !strings.Contains(msg, want) {
			t.Errorf("stderr %q does not say %q", msg, want)
		}
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("stderr is not one line:\n%s", msg)
	}
}
