package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/grue-lab/grue/agent/llm/llmtest"
)

// TestCodeScripts runs the scripts of grue code, in testdata/script/code,
// each with a local model server at $LLM_URL whose replies the script
// queues with `reply FILE` (a file of the script's archive).
func TestCodeScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script/code",
		Setup: func(env *testscript.Env) error {
			srv := llmtest.NewServer()
			env.Defer(srv.Close)
			env.Values["llm"] = srv
			env.Setenv("LLM_URL", srv.URL())
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"reply": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) == 0 {
					ts.Fatalf("usage: reply FILE...")
				}
				srv := ts.Value("llm").(*llmtest.Server)
				for _, a := range args {
					srv.Reply(strings.TrimRight(ts.ReadFile(a), "\n"))
				}
			},
		},
	})
}

// Interactive grue code on a terminal: two tasks in a row, the second
// stopped by Ctrl-C, and the session goes on until Ctrl-D.
func TestCodeTerminal(t *testing.T) {
	grue, err := exec.LookPath("grue") // the test binary as grue: see TestMain
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Reply("THOUGHT: write it\nTOOL: write_file\nARGS: {\"path\": \"one.txt\", \"content\": \"first\\n\"}").
		Reply("THOUGHT: done\nTOOL: finish\nARGS: {\"summary\": \"wrote one.txt\"}").
		Reply("THOUGHT: a long wait\nTOOL: run_shell\nARGS: {\"command\": \"echo waiting; sleep 60\"}").
		Reply("THOUGHT: look\nTOOL: read_file\nARGS: {\"path\": \"one.txt\"}").
		Reply("THOUGHT: done\nTOOL: finish\nARGS: {\"summary\": \"one.txt says first\"}")
	home := t.TempDir()
	work := t.TempDir()
	cmd := exec.Command(grue, "code", "--model", "tiny-coder", "--base-url", srv.URL())
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "TERM=xterm", "NO_COLOR=1",
		"OPENAI_API_KEY=", "OPENAI_BASE_URL=", "HF_TOKEN=", "GRUE_MODEL=")
	term := startTerminal(t, cmd, 40, 120)
	scr, exited := term.screen, term.exited
	typ := func(s string) { t.Helper(); term.typ(t, s) }

	scr.expect(t, "grue code: model tiny-coder, working in "+filepath.Join(work, "created_files"))
	scr.expect(t, "code> ")
	typ("write one.txt\r")
	scr.expect(t, "> write_file one.txt (6 bytes)")
	scr.expect(t, "Done. wrote one.txt")
	scr.expect(t, "code> ")
	if b, err := os.ReadFile(filepath.Join(work, "created_files", "one.txt")); err != nil || string(b) != "first\n" {
		t.Fatalf("one.txt: %q, %v", b, err)
	}

	// The second task runs a command that would take a minute: Ctrl-C
	// stops it, and the session goes on.
	typ("wait a while\r")
	scr.expect(t, "> run_shell echo waiting; sleep 60")
	typ("\x03")
	scr.expect(t, "(stopped; the session goes on)")
	scr.expect(t, "code> ")

	// The conversation carried over: the third task's request holds the
	// first task's calls.
	typ("what does one.txt say?\r")
	scr.expect(t, "> read_file one.txt")
	scr.expect(t, "first")
	scr.expect(t, "Done. one.txt says first")
	scr.expect(t, "code> ")
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	if raw := string(last.Raw); !strings.Contains(raw, "wrote one.txt") || !strings.Contains(raw, "what does one.txt say?") {
		t.Errorf("the last request does not carry the conversation:\n%s", raw)
	}

	typ("\x04") // Ctrl-D leaves
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("grue code exited with %v\n%s", err, scr.text())
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("grue code did not leave at Ctrl-D:\n%s", scr.text())
	}
}
