package agent

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/game/stories"
)

// TestFlakyEndpoint plays the default story through the real OpenAI
// client against a local server that answers 429 twice, then garbage,
// then a markdown-wrapped reply, then a hallucinated tool: the episode
// finishes, and its trajectory shows each retry and each repair.
func TestFlakyEndpoint(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	walk := stories.Walkthrough() // west, open toolbox, ...
	srv.Status(429, "0", "Rate limit reached").
		Status(429, "", "Rate limit reached").
		Garbage("<html>502 Bad Gateway</html>").
		Reply("```\n**THOUGHT:** The shed may hold something.\n**TOOL:** play_action\n**ARGS:** {'action': 'west'}\n```").
		Reply("THOUGHT: Open it.\nTOOL: open\nARGS: {\"object\": \"toolbox\"}")
	for _, cmd := range walk[2:] {
		srv.Reply(textCall(cmd))
	}
	client, err := llm.NewOpenAI(llm.Config{Model: "test-model", BaseURL: srv.URL(), MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	a := lanternAgent(t, Defaults(), client)
	res, err := a.Run(context.Background(), 100)
	if err != nil || res.Error != "" {
		t.Fatalf("run: %v %q", err, res.Error)
	}
	if !res.Victory || res.StoppedBy != StopDone || res.Steps != len(walk) {
		t.Fatalf("stopped by %q after %d steps, victory %v; want a win in %d", res.StoppedBy, res.Steps, res.Victory, len(walk))
	}
	first := res.History[0]
	if first.Reply == nil || len(first.Reply.Retries) != 3 || first.Reply.Retries[0].Status != 429 || first.Reply.Retries[1].Status != 429 {
		t.Errorf("step 1's retries: %+v", first.Reply)
	}
	if !slices.Contains(kinds(first.Repairs), RepairMarkdown) || !slices.Contains(kinds(first.Repairs), RepairSingleQuotes) || first.Args["action"] != "west" {
		t.Errorf("step 1: played %v with repairs %+v", first.Args, first.Repairs)
	}
	second := res.History[1]
	if second.Tool != "play_action" || second.Args["action"] != "open toolbox" || !slices.Contains(kinds(second.Repairs), RepairToolName) {
		t.Errorf("step 2: %s %v, repairs %+v", second.Tool, second.Args, second.Repairs)
	}
	if res.Tokens.TotalTokens == 0 || first.Usage.TotalTokens == 0 || first.Reply.Latency <= 0 {
		t.Errorf("no usage or latency recorded: %+v / %+v", res.Tokens, first.Reply)
	}
}
