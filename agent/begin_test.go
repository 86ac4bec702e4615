package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/tools"
)

// An agent that plays no game: Begin gives it its first observation, its
// tools are a workspace's, and a reply it cannot read calls no tool and is
// answered with a warning about the reply, not about play_action.
func TestBeginWithoutAGame(t *testing.T) {
	ws := &tools.Workspace{Dir: t.TempDir()}
	s := llm.NewScripted().
		Text("I would like to think about this first.").
		Text("THOUGHT: see what is there\nTOOL: read_file\nARGS: {\"path\": \".\"}")
	a := New(Config{Protocol: ProtocolText})
	a.LLM = s
	if err := a.Begin("Write hello.go."); err == nil {
		t.Fatal("Begin without tools succeeded")
	}
	a.Tools = tools.NewRegistry(ws.Tools()...)
	if err := a.Begin("Write hello.go."); err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), 2)
	if err != nil {
		t.Fatal(err)
	}
	if res.Steps != 2 || res.StoppedBy != StopSteps {
		t.Fatalf("%d steps, stopped by %s", res.Steps, res.StoppedBy)
	}
	first := s.Requests()[0].Messages
	if !strings.Contains(first[len(first)-1].Content, "Write hello.go.") {
		t.Errorf("the first prompt lacks the observation Begin gave:\n%s", first[len(first)-1].Content)
	}
	st := res.History[0]
	if st.Tool != "" || !st.ToolError || !strings.Contains(st.Observation, "could not be read as a tool call") ||
		strings.Contains(st.Observation, "play_action") || !strings.Contains(st.Observation, "read_file, write_file, run_shell") {
		t.Errorf("an unreadable reply: tool %q, error %v, observation %q", st.Tool, st.ToolError, st.Observation)
	}
	if w := res.History[1].Warning; !strings.Contains(w, "could not be read") {
		t.Errorf("the next prompt's warning is %q", w)
	}
	if res.History[1].Tool != "read_file" || res.History[1].ToolError {
		t.Errorf("second step: %s %v", res.History[1].Tool, res.History[1].Observation)
	}

	bad := New(Config{Protocol: "smoke"})
	bad.Tools = a.Tools
	if err := bad.Begin("x"); err == nil || !strings.Contains(err.Error(), "smoke") {
		t.Errorf("Begin with a bad config: %v", err)
	}
}
