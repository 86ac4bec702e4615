package agent

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent/llm"
)

// A reply cut off at its token limit with no answer (a reasoning model
// that spent its budget thinking) is reported as such in the step, and
// the model is told; the reasoning of a reply is kept in the step and
// not sent back; reasoning_effort and the extra body go with every
// request.
func TestReasoningRepliesInTheStep(t *testing.T) {
	s := llm.NewScripted().
		Reply(&llm.Reply{FinishReason: "length", Reasoning: "hmm", Usage: llm.Usage{CompletionTokens: 400, ReasoningTokens: 400}}).
		Reply(&llm.Reply{Content: textCall("west"), Reasoning: "The shed is west.", FinishReason: "stop"}).
		Text(textCall("east"))
	cfg := Defaults()
	cfg.ReasoningEffort = "low"
	cfg.ExtraBody = map[string]any{"think": false}
	a := lanternAgent(t, cfg, s)
	ctx := context.Background()

	st, err := a.Step(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Repairs) == 0 || st.Repairs[0].Kind != RepairCutOff ||
		!strings.Contains(st.Repairs[0].Detail, "400 completion tokens (400 of them reasoning)") || st.Args["action"] != DefaultAction {
		t.Errorf("cut-off step: %+v", st.Repairs)
	}
	st2, err := a.Step(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(st2.Warning, "cut off") {
		t.Errorf("the model was not told of the cut-off: warning %q", st2.Warning)
	}
	if st2.Reply.Reasoning != "The shed is west." {
		t.Errorf("the step lost the reasoning: %+v", st2.Reply)
	}
	if _, err := a.Step(ctx); err != nil {
		t.Fatal(err)
	}
	for i, req := range s.Requests() {
		if req.ReasoningEffort != "low" || !reflect.DeepEqual(req.Extra, map[string]any{"think": false}) {
			t.Errorf("request %d: effort %q, extra %v", i, req.ReasoningEffort, req.Extra)
		}
		for _, m := range req.Messages {
			if m.Reasoning != "" || strings.Contains(m.Content, "The shed is west.") {
				t.Errorf("request %d sent the reasoning back: %+v", i, m)
			}
		}
	}
}
