package agent

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/agent/llm/openai"
	"github.com/grue-lab/grue/agent/memory"
)

// pacingServer is a model server that paces between two rooms of the
// default story (east, west, east, ...), each reply passed through how, and
// closed at the end of the test. Pacing never ends the game, so with loop
// detection off (LoopLimit 0) only a limit ends the episode.
func pacingServer(t *testing.T, how func(llmtest.Response) llmtest.Response) *llmtest.Server {
	srv := llmtest.NewServer()
	t.Cleanup(srv.Close)
	cmds := []string{"west", "east"}
	n := 0
	srv.Fallback(func(llmtest.Request) llmtest.Response {
		n++
		return how(llmtest.Text(textCall(cmds[n%2])))
	})
	return srv
}

// TestTokenLimitWithoutUsage: a server that reports no usage still has
// its tokens counted, at an estimate, so the token limit ends the
// episode; the steps and the result say how many tokens are estimates.
func TestTokenLimitWithoutUsage(t *testing.T) {
	srv := pacingServer(t, llmtest.Response.WithoutUsage)
	client, err := openai.New(llm.Config{Model: "m", BaseURL: srv.URL()})
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
	srv.Push(llmtest.Text(textCall("east")).WithoutUsage())
	client, err := openai.New(llm.Config{Model: "m", BaseURL: srv.URL()})
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

// newPricedClient is a client of srv for gpt-4o-mini, a model the default
// price table prices.
func newPricedClient(t testing.TB, srv *llmtest.Server, stream bool) *openai.Client {
	t.Helper()
	c, err := openai.New(llm.Config{Model: "gpt-4o-mini", BaseURL: srv.URL(), Stream: stream})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12 }

// TestCostLimitWithoutUsage: a server that reports no usage still costs
// money. The client prices the estimated tokens of each reply, so the
// cost limit ends the episode on the step that crossed it, streamed or
// not, and the reply itself still says what the server sent.
func TestCostLimitWithoutUsage(t *testing.T) {
	for _, stream := range []bool{false, true} {
		srv := pacingServer(t, llmtest.Response.WithoutUsage)
		client := newPricedClient(t, srv, stream)
		cfg := Defaults()
		cfg.LoopLimit = 0
		cfg.Limits.MaxCost = 0.0005 // a few steps of a few hundred tokens each
		a := lanternAgent(t, cfg, client)
		res, err := a.Run(context.Background(), 50)
		if err != nil || res.Error != "" {
			t.Fatalf("stream %v: run: %v %q", stream, err, res.Error)
		}
		if res.StoppedBy != StopCost || res.Steps < 2 || res.Steps >= 50 {
			t.Fatalf("stream %v: stopped by %q after %d steps costing $%g; want the cost limit", stream, res.StoppedBy, res.Steps, res.Cost)
		}
		var total float64
		for i, st := range res.History {
			if st.Reply.Cost != 0 || st.Reply.Usage != (llm.Usage{}) {
				t.Errorf("stream %v: step %d's reply says usage %+v, cost %g; want none, as the server sent", stream, i+1, st.Reply.Usage, st.Reply.Cost)
			}
			if want := client.Price("gpt-4o-mini", st.Usage); st.Cost <= 0 || !near(st.Cost, want) || st.EstimatedTokens != st.Usage.TotalTokens {
				t.Errorf("stream %v: step %d cost $%g for %+v (%d estimated); want $%g, all estimated", stream, i+1, st.Cost, st.Usage, st.EstimatedTokens, want)
			}
			total += st.Cost
		}
		last := res.History[len(res.History)-1]
		if !near(res.Cost, total) || !near(a.Cost, res.Cost) || res.Cost < cfg.Limits.MaxCost || res.Cost-last.Cost >= cfg.Limits.MaxCost {
			t.Errorf("stream %v: stopped at $%g (steps sum to $%g), $%g before the last step; want the step that crossed $%g to be the last", stream, res.Cost, total, res.Cost-last.Cost, cfg.Limits.MaxCost)
		}
	}
}

// TestCostLimitWithUsage: with usage reported, a step costs what the
// client priced the server's count at, nothing is estimated, and the cost
// limit stops the episode where those prices say.
func TestCostLimitWithUsage(t *testing.T) {
	srv := pacingServer(t, func(r llmtest.Response) llmtest.Response { return r.WithUsage(1000, 100) })
	cfg := Defaults()
	cfg.LoopLimit = 0
	cfg.Limits.MaxCost = 0.0005
	a := lanternAgent(t, cfg, newPricedClient(t, srv, false))
	res, err := a.Run(context.Background(), 50)
	if err != nil || res.Error != "" {
		t.Fatalf("run: %v %q", err, res.Error)
	}
	step := (1000*0.15 + 100*0.60) / 1e6 // gpt-4o-mini's list price
	if res.StoppedBy != StopCost || res.Steps != 3 || !near(res.Cost, 3*step) || res.EstimatedTokens != 0 {
		t.Fatalf("stopped by %q after %d steps costing $%g, %d tokens estimated; want the cost limit after 3 steps of $%g", res.StoppedBy, res.Steps, res.Cost, res.EstimatedTokens, step)
	}
	for i, st := range res.History {
		if st.Cost != st.Reply.Cost || !near(st.Cost, step) || st.EstimatedTokens != 0 {
			t.Errorf("step %d cost $%g (reply $%g), %d estimated", i+1, st.Cost, st.Reply.Cost, st.EstimatedTokens)
		}
	}
}

// TestSummaryWithoutUsageIsPriced: a memory summary the agent's LLM
// answered without usage is priced by that LLM, like a reply.
func TestSummaryWithoutUsageIsPriced(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	summaries := 0
	srv.Fallback(func(r llmtest.Request) llmtest.Response {
		if msgs := r.LLMMessages(); len(msgs) > 0 && strings.HasPrefix(msgs[0].Content, memory.DefaultSummaryPrompt[:40]) {
			summaries++
			return llmtest.Text("Locations: Meadow, Wooden Shed.").WithoutUsage()
		}
		return llmtest.Text(textCall("wait")).WithoutUsage()
	})
	client := newPricedClient(t, srv, false)
	cfg := Defaults()
	cfg.Memory, cfg.Window, cfg.LoopLimit = "hybrid", 1, 0
	a := lanternAgent(t, cfg, client)
	res, err := a.Run(context.Background(), 3)
	if err != nil || res.Error != "" {
		t.Fatal(err, res.Error)
	}
	if summaries != 1 {
		t.Fatalf("%d summaries in 3 steps with a window of 1, want 1", summaries)
	}
	st := res.History[2]
	reply := llm.EstimateMessages(st.Prompt) + llm.EstimateMessages([]llm.Message{st.Reply.Message()})
	if st.EstimatedTokens <= reply {
		t.Fatalf("step 3: %d tokens estimated, no more than its reply's %d: the summary is not counted", st.EstimatedTokens, reply)
	}
	if want := client.Price("", st.Usage); !near(st.Cost, want) {
		t.Errorf("step 3 (reply and summary) cost $%g for %+v; want $%g", st.Cost, st.Usage, want)
	}
}

// fixedPricer prices every token at a dollar.
type fixedPricer struct{}

func (fixedPricer) Price(model string, u llm.Usage) float64 { return float64(u.TotalTokens) }

// TestReplayedReplyWithoutUsageIsFree: a reply from the response cache
// costs nothing, estimated or not, and a cost the client gave is kept.
func TestReplayedReplyWithoutUsageIsFree(t *testing.T) {
	req := &llm.Request{Messages: []llm.Message{{Role: llm.User, Content: "look"}}}
	for _, tc := range []struct {
		name  string
		reply llm.Reply
		want  func(spend) float64
	}{
		{"fresh", llm.Reply{Content: "a room"}, func(s spend) float64 { return float64(s.estimated) }},
		{"replayed", llm.Reply{Content: "a room", Cached: true}, func(spend) float64 { return 0 }},
		{"priced by the client", llm.Reply{Content: "a room", Cost: 0.5}, func(spend) float64 { return 0.5 }},
	} {
		s := replySpend(fixedPricer{}, req, &tc.reply, -1)
		if s.estimated == 0 || s.cost != tc.want(s) {
			t.Errorf("%s: cost %g for %d estimated tokens, want %g", tc.name, s.cost, s.estimated, tc.want(s))
		}
	}
}
