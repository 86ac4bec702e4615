package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/llmtest"
)

// noUsageBody is an OpenAI chat completion answering content, with no
// usage field, as some servers send it. llmtest estimates the usage of
// every answer it builds itself, so the body is given whole.
func noUsageBody(t testing.TB, content string) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"id": "chatcmpl-nousage", "object": "chat.completion", "created": 1700000000, "model": "m",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestTokenLimitWithoutUsage: a server that reports no usage still has
// its tokens counted, at an estimate, so the token limit ends the
// episode; the steps and the result say how many tokens are estimates.
func TestTokenLimitWithoutUsage(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	cmds := []string{"west", "east"}
	n := 0
	srv.Fallback(func(llmtest.Request) llmtest.Response {
		n++
		return llmtest.Garbage(noUsageBody(t, textCall(cmds[n%2])))
	})
	client, err := llm.NewOpenAI(llm.Config{Model: "m", BaseURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Defaults()
	cfg.LoopLimit = 0
	cfg.Limits.MaxTokens = 4000
	a := lanternAgent(t, cfg, client)
	res, err := a.Run(context.Background(), 50)
	if err != nil || res.Error != "" {
		t.Fatalf("run: %v %q", err, res.Error)
	}
	if res.StoppedBy != StopTokens || res.Steps < 2 || res.Steps >= 50 {
		t.Fatalf("stopped by %q after %d steps with %+v; want the token limit", res.StoppedBy, res.Steps, res.Tokens)
	}
	last := res.History[len(res.History)-1]
	if total := res.Tokens.TotalTokens; total < 4000 || total-last.Usage.TotalTokens >= 4000 {
		t.Errorf("stopped at %d tokens, %d before the last step; want the step that crossed 4000 to be the last", total, total-last.Usage.TotalTokens)
	}
	if res.EstimatedTokens != res.Tokens.TotalTokens || a.EstimatedTokens != res.EstimatedTokens {
		t.Errorf("result: %d of %+v tokens estimated (agent %d); want all", res.EstimatedTokens, res.Tokens, a.EstimatedTokens)
	}
	first := res.History[0]
	prompt := llm.EstimateMessages(first.Prompt)
	reply := llm.EstimateMessages([]llm.Message{first.Reply.Message()})
	if first.Reply.Usage != (llm.Usage{}) {
		t.Errorf("the reply's usage %+v, want none, as the server sent", first.Reply.Usage)
	}
	if want := (llm.Usage{PromptTokens: prompt, CompletionTokens: reply, TotalTokens: prompt + reply}); first.Usage != want || first.EstimatedTokens != want.TotalTokens {
		t.Errorf("step 1: usage %+v, %d estimated; want %+v, all estimated", first.Usage, first.EstimatedTokens, want)
	}
	b, err := json.Marshal(first)
	if err != nil || !strings.Contains(string(b), `"estimated_tokens":`) {
		t.Errorf("the step's JSON does not say its tokens are estimated: %s", b)
	}
	b, _ = json.Marshal(res)
	if !strings.Contains(string(b), `"estimated_tokens":`) {
		t.Error("the result's JSON does not say its tokens are estimated")
	}
}

// TestTokensWithUsageAreNotEstimated: a server that counts its tokens is
// taken at its word, and nothing is said to be estimated.
func TestTokensWithUsageAreNotEstimated(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Push(llmtest.Text(textCall("west")).WithUsage(300, 20))
	srv.Push(llmtest.Garbage(noUsageBody(t, textCall("east"))))
	client, err := llm.NewOpenAI(llm.Config{Model: "m", BaseURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	a := lanternAgent(t, Defaults(), client)
	res, err := a.Run(context.Background(), 2)
	if err != nil || res.Steps != 2 {
		t.Fatalf("run: %v, %d steps", err, res.Steps)
	}
	h := res.History
	if h[0].Usage.TotalTokens != 320 || h[0].EstimatedTokens != 0 {
		t.Errorf("step 1 (usage sent): %+v, %d estimated", h[0].Usage, h[0].EstimatedTokens)
	}
	if b, _ := json.Marshal(h[0]); strings.Contains(string(b), "estimated_tokens") {
		t.Errorf("step 1's JSON speaks of estimates: %s", b)
	}
	if h[1].EstimatedTokens == 0 || h[1].EstimatedTokens != h[1].Usage.TotalTokens {
		t.Errorf("step 2 (no usage): %+v, %d estimated", h[1].Usage, h[1].EstimatedTokens)
	}
	if res.Tokens.TotalTokens != 320+h[1].EstimatedTokens || res.EstimatedTokens != h[1].EstimatedTokens {
		t.Errorf("totals %+v, %d estimated", res.Tokens, res.EstimatedTokens)
	}
}

// TestSummaryWithoutUsageIsEstimated: a memory summary answered without
// usage is estimated too, from the summary request the agent's LLM was
// sent.
func TestSummaryWithoutUsageIsEstimated(t *testing.T) {
	s := llm.NewScripted() // no usage in its replies
	s.Fallback = func(req llm.Request) (*llm.Reply, error) {
		if strings.HasPrefix(req.Label, "memory summary") {
			return &llm.Reply{Content: "Locations: Meadow, Wooden Shed."}, nil
		}
		return &llm.Reply{Content: textCall("wait")}, nil
	}
	cfg := Defaults()
	cfg.Memory, cfg.Window, cfg.LoopLimit = "hybrid", 1, 0
	a := lanternAgent(t, cfg, s)
	res, err := a.Run(context.Background(), 3)
	if err != nil || res.Error != "" {
		t.Fatal(err, res.Error)
	}
	var summary llm.Request
	var summaries int
	for _, r := range s.Requests() {
		if strings.HasPrefix(r.Label, "memory summary") {
			summary = r
			summaries++
		}
	}
	if summaries != 1 {
		t.Fatalf("%d summaries in 3 steps with a window of 1, want 1", summaries)
	}
	st := res.History[2]
	reply := llm.EstimateMessages(st.Prompt) + llm.EstimateMessages([]llm.Message{st.Reply.Message()})
	sum := llm.EstimateMessages(summary.Messages) + llm.EstimateMessages([]llm.Message{{Role: llm.Assistant, Content: "Locations: Meadow, Wooden Shed."}})
	if st.EstimatedTokens != reply+sum || st.Usage.TotalTokens != reply+sum {
		t.Errorf("step 3: %d tokens, %d estimated; want %d for the reply and %d for the summary", st.Usage.TotalTokens, st.EstimatedTokens, reply, sum)
	}
	if res.EstimatedTokens != res.Tokens.TotalTokens {
		t.Errorf("%d of %d tokens estimated, want all", res.EstimatedTokens, res.Tokens.TotalTokens)
	}
}
