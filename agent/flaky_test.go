package agent

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/agent/llm/openai"
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
	client, err := openai.New(llm.Config{Model: "test-model", BaseURL: srv.URL(), MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond})
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

// TestRecordedRunReplays records an episode (with hybrid memory, whose
// summaries are model calls too) through the response cache, stops the
// server, and replays it from the cache alone: the trajectory is the same.
func TestRecordedRunReplays(t *testing.T) {
	srv := llmtest.NewServer()
	walk := stories.Walkthrough()
	n := 0
	srv.Fallback(func(req llmtest.Request) llmtest.Response {
		if strings.HasPrefix(req.Messages[0].Content, "You keep the notes") {
			return llmtest.Text("Locations: the Meadow and around it.")
		}
		n++
		return llmtest.Text(textCall(walk[(n-1)%len(walk)]))
	})
	dir := t.TempDir()
	cfg := Defaults()
	cfg.Memory, cfg.Window = "hybrid", 3
	play := func(client llm.Client) *RunResult {
		t.Helper()
		a := lanternAgent(t, cfg, client)
		res, err := a.Run(context.Background(), 12)
		if err != nil || res.Error != "" {
			t.Fatalf("run: %v %q", err, res.Error)
		}
		return res
	}
	rw, err := llm.NewCache(dir, llm.CacheReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	live, err := openai.New(llm.Config{Model: "test-model", BaseURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	recorded := play(llm.WithCache(live, rw))
	url := srv.URL()
	srv.Close()

	replay, err := llm.NewCache(dir, llm.CacheReplayOnly)
	if err != nil {
		t.Fatal(err)
	}
	replayed := play(llm.ReplayFrom(replay, "test-model", url))
	if len(replayed.History) != len(recorded.History) || replayed.FinalScore != recorded.FinalScore {
		t.Fatalf("replay: %d steps, score %d; recorded %d steps, score %d", len(replayed.History), replayed.FinalScore, len(recorded.History), recorded.FinalScore)
	}
	for i, want := range recorded.History {
		got := replayed.History[i]
		if !got.Reply.Cached {
			t.Errorf("step %d was not answered from the cache", got.Step)
		}
		same := func(x Step) Step {
			x.Reply, x.Wall, x.LLMTime, x.ToolTime, x.MemoryTime, x.Overhead, x.Cost = nil, 0, 0, 0, 0, 0, 0
			return x
		}
		if !reflect.DeepEqual(same(got), same(want)) {
			t.Errorf("step %d differs on replay:\n got %+v\nwant %+v", got.Step, same(got), same(want))
		}
	}
	if !slices.ContainsFunc(recorded.History, func(s Step) bool {
		return len(s.Prompt) > 1 && strings.HasPrefix(s.Prompt[1].Content, "Summary of earlier steps")
	}) {
		t.Error("the recorded run made no summary: the test lost its point")
	}
}
