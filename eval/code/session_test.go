package code

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/agent/llm/openai"
	"github.com/grue-lab/grue/agent/tools"
	"github.com/grue-lab/grue/eval"
)

// newSession is a session against srv, working in a fresh folder.
func newSession(t *testing.T, srv *llmtest.Server, out *bytes.Buffer) *Session {
	t.Helper()
	client, err := openai.New(llm.Config{Model: "tiny-coder", BaseURL: srv.URL(), MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(Defaults(), client, &tools.Workspace{Dir: t.TempDir(), Env: eval.TaskEnv()}, 5, out)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Two tasks in a row: each tool call is streamed as it happens, then the
// answer; the second task's request carries the first task's turns, and
// each Result counts its own task's steps and calls only. After Reset the
// next request carries none of them.
func TestSessionTasks(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Reply("THOUGHT: write it\nTOOL: write_file\nARGS: {\"path\": \"one.txt\", \"content\": \"first\\n\"}").
		Reply("THOUGHT: done\nTOOL: finish\nARGS: {\"summary\": \"wrote one.txt\"}").
		Reply("THOUGHT: look\nTOOL: read_file\nARGS: {\"path\": \"one.txt\"}").
		Reply("THOUGHT: done\nTOOL: finish\nARGS: {\"summary\": \"one.txt says first\"}").
		Reply("THOUGHT: done\nTOOL: finish\nARGS: {\"summary\": \"nothing to do\"}")
	var out bytes.Buffer
	s := newSession(t, srv, &out)
	if s.Model() != "tiny-coder" {
		t.Errorf("Model() = %q", s.Model())
	}

	r, err := s.Run(context.Background(), "write one.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !r.Finished || r.Answer != "wrote one.txt" || r.Steps != 2 || len(r.ToolCalls) != 2 || r.Dir != s.Dir() || r.Model != "tiny-coder" {
		t.Errorf("first task: %+v", r)
	}
	if b, err := os.ReadFile(filepath.Join(s.Dir(), "one.txt")); err != nil || string(b) != "first\n" {
		t.Errorf("one.txt: %q, %v", b, err)
	}
	for _, want := range []string{"> write_file one.txt (6 bytes)\n", "  Wrote 6 bytes to one.txt.\n", "Done. wrote one.txt\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the stream lacks %q:\n%s", want, out.String())
		}
	}

	r, err = s.Run(context.Background(), "what does one.txt say?")
	if err != nil {
		t.Fatal(err)
	}
	if !r.Finished || r.Answer != "one.txt says first" || r.Steps != 2 || len(r.ToolCalls) != 2 || r.ToolCalls[0].Tool != "read_file" {
		t.Errorf("second task: %+v", r)
	}
	reqs := srv.Requests()
	if raw := string(reqs[len(reqs)-1].Raw); !strings.Contains(raw, "wrote one.txt") || !strings.Contains(raw, "what does one.txt say?") {
		t.Errorf("the second task's request does not carry the conversation:\n%s", raw)
	}

	s.Reset()
	if _, err := s.Run(context.Background(), "a fresh start"); err != nil {
		t.Fatal(err)
	}
	reqs = srv.Requests()
	if raw := string(reqs[len(reqs)-1].Raw); strings.Contains(raw, "wrote one.txt") || !strings.Contains(raw, "a fresh start") {
		t.Errorf("after Reset the request still carries the old conversation:\n%s", raw)
	}
}

// A task stopped by its context (Ctrl-C) ends cancelled with no error,
// and the session goes on: the next task runs, told the user stopped the
// last one.
func TestSessionCancel(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Push(llmtest.Text("THOUGHT: slow\nTOOL: read_file\nARGS: {\"path\": \"x\"}").After(10 * time.Second)).
		Reply("THOUGHT: done\nTOOL: finish\nARGS: {\"summary\": \"back\"}")
	var out bytes.Buffer
	s := newSession(t, srv, &out)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, err := s.Run(ctx, "a slow one")
	if err != nil || r.StoppedBy != agent.StopCancelled || r.Error != "" || r.Finished {
		t.Fatalf("cancelled task: %+v, %v", r, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the cancelled task took %v", d)
	}
	r, err = s.Run(context.Background(), "go on")
	if err != nil || !r.Finished || r.Answer != "back" {
		t.Fatalf("the task after the cancel: %+v, %v", r, err)
	}
	reqs := srv.Requests()
	if raw := string(reqs[len(reqs)-1].Raw); !strings.Contains(raw, "The user stopped the last task.") {
		t.Errorf("the next task is not told of the stop:\n%s", raw)
	}
}

// NewSession refuses what cannot make a session.
func TestNewSessionRefuses(t *testing.T) {
	client, err := openai.New(llm.Config{Model: "m", BaseURL: "http://127.0.0.1:1/v1", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ws := &tools.Workspace{Dir: t.TempDir()}
	if _, err := NewSession(Defaults(), nil, ws, 5, nil); err == nil {
		t.Error("no client: no error")
	}
	if _, err := NewSession(Defaults(), client, &tools.Workspace{}, 5, nil); err == nil {
		t.Error("no folder: no error")
	}
	if _, err := NewSession(Defaults(), client, ws, 0, nil); err == nil {
		t.Error("0 steps: no error")
	}
}

// A result's lines beyond the twentieth are counted, not streamed.
func TestClipLines(t *testing.T) {
	s := strings.Repeat("line\n", 24) + "last"
	got := clipLines(s, 20)
	if strings.Count(got, "line\n") != 20 || !strings.HasSuffix(got, "\n[5 more lines]") {
		t.Errorf("clipLines: %q", got)
	}
	if clipLines("a\nb", 20) != "a\nb" {
		t.Error("clipLines cut a short text")
	}
}
