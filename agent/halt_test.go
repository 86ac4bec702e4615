package agent

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/grue-lab/grue/agent/llm"
)

// TestAgentStopsWhenStoryQuits: when the story quits (the machine halts),
// the episode ends as done and the model is called no more.
func TestAgentStopsWhenStoryQuits(t *testing.T) {
	var calls atomic.Int32
	s := llm.NewScripted()
	for _, cmd := range []string{"quit", "y"} {
		s.Reply(&llm.Reply{Content: textCall(cmd)})
	}
	s.Fallback = func(llm.Request) (*llm.Reply, error) {
		calls.Add(1)
		return &llm.Reply{Content: textCall("look")}, nil
	}
	a := lanternAgent(t, Defaults(), s)
	res, err := a.Run(context.Background(), 20)
	if err != nil {
		t.Fatal(err)
	}
	if res.StoppedBy != StopDone || res.Steps != 2 || !res.GameCompleted {
		t.Errorf("stopped by %q after %d steps (completed %v), want done after 2", res.StoppedBy, res.Steps, res.GameCompleted)
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d model calls after the story quit", n)
	}
}
