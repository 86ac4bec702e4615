package agent

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent/llm"
)

func TestStepRecordsThePromptExactly(t *testing.T) {
	s := llm.NewScripted().
		Text("```\n**THOUGHT:** A shed. Tools, maybe.\n**TOOL:** Play\n**ARGS:** {'action': 'walk west'}\n```").
		Text(textCall("open toolbox"))
	a := lanternAgent(t, Defaults(), s)
	ctx := context.Background()

	want, err := a.Prompt(ctx)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := a.Prompt(ctx)
	if !reflect.DeepEqual(want, again) {
		t.Fatal("Prompt changed between two calls")
	}
	st, err := a.Step(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(st.Prompt, want) {
		t.Errorf("the step's prompt differs from what Prompt said")
	}
	if got := s.Requests()[0].Messages; !reflect.DeepEqual(got, want) {
		t.Errorf("the model was sent something else than the recorded prompt")
	}
	if want[0].Role != llm.System || !strings.HasPrefix(want[0].Content, DefaultSystem) ||
		!strings.Contains(want[0].Content, "TOOL: <one tool name>") || !strings.Contains(want[0].Content, "- play_action(action: string)") {
		t.Errorf("system message:\n%s", want[0].Content)
	}
	if len(want) != 2 || !strings.Contains(want[1].Content, "Meadow") || !strings.Contains(want[1].Content, "[Step 1 | Score: 0 of 60 | Moves: 0 | Location: Meadow]") {
		t.Errorf("first prompt: %+v", want)
	}

	// The repairs are all in the record, and what was played is clean.
	if st.Tool != "play_action" || st.Args["action"] != "west" || st.Thought != "A shed. Tools, maybe." {
		t.Errorf("played %s %v thinking %q", st.Tool, st.Args, st.Thought)
	}
	for _, k := range []string{RepairMarkdown, RepairToolName, RepairSingleQuotes, RepairVerb} {
		if !slices.Contains(kinds(st.Repairs), k) {
			t.Errorf("repairs %+v lack %q", st.Repairs, k)
		}
	}
	if st.Reply == nil || !strings.Contains(st.Reply.Content, "walk west") {
		t.Errorf("the raw reply is not recorded: %+v", st.Reply)
	}
	if st.Location != "Wooden Shed" || st.Moves != 1 || st.Observation == "" || st.Wall <= 0 || st.Wall < st.Overhead {
		t.Errorf("step record: %+v", st)
	}

	// The next prompt remembers the turn, in clean form, and shows the
	// observation once.
	st2, err := a.Step(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p := st2.Prompt
	if len(p) != 4 || p[1].Role != llm.Assistant || p[2].Role != llm.User {
		t.Fatalf("second prompt has %d messages: %+v", len(p), p)
	}
	if p[1].Content != "THOUGHT: A shed. Tools, maybe.\nTOOL: play_action\nARGS: {\"action\":\"west\"}" {
		t.Errorf("remembered call %q", p[1].Content)
	}
	if p[2].Content != st.Observation {
		t.Errorf("remembered result %q, want the observation %q", p[2].Content, st.Observation)
	}
	if strings.Contains(p[3].Content, "Current observation") {
		t.Errorf("the observation is repeated in the state message:\n%s", p[3].Content)
	}

	if got, want := st.String(), `step 1: play_action {"action":"west"} -> Wooden Shed (score 0) [repaired: markdown, single-quotes, tool-name, verb]`; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}

	// The record is JSON.
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	var back Step
	if err := json.Unmarshal(b, &back); err != nil || back.Args["action"] != "west" || len(back.Repairs) != len(st.Repairs) {
		t.Errorf("step JSON round trip: %v %+v", err, back)
	}
}

func TestNativeProtocol(t *testing.T) {
	s := llm.NewScripted().
		Reply(&llm.Reply{Content: "To the shed.", ToolCalls: []llm.ToolCall{
			{ID: "c1", Name: "play_action", Arguments: `{"action": "west",}`},
			{ID: "c2", Name: "inventory", Arguments: `{}`},
		}}).
		Reply(&llm.Reply{ToolCalls: []llm.ToolCall{{ID: "", Name: "Inventory", Arguments: ``}}}).
		Text("THOUGHT: open it\nTOOL: play_action\nARGS: {\"action\": \"open toolbox\"}").
		Reply(&llm.Reply{ToolCalls: []llm.ToolCall{{ID: "c4", Name: "play_action", Arguments: `take lantern`}}})
	cfg := Defaults()
	cfg.Protocol = ProtocolNative
	a := lanternAgent(t, cfg, s)
	res, err := a.Run(context.Background(), 4)
	if err != nil || res.Error != "" {
		t.Fatal(err, res.Error)
	}
	h := res.History
	if h[0].Tool != "play_action" || h[0].Args["action"] != "west" || h[0].CallID != "c1" {
		t.Errorf("step 1: %+v", h[0])
	}
	if ks := kinds(h[0].Repairs); !slices.Contains(ks, RepairJSON) || !slices.Contains(ks, RepairExtra) {
		t.Errorf("step 1 repairs %+v: want the trailing comma and the ignored second call", h[0].Repairs)
	}
	if h[1].Tool != "inventory" || h[1].CallID != "call_2" || !slices.Contains(kinds(h[1].Repairs), RepairToolName) {
		t.Errorf("step 2: %+v", h[1])
	}
	if h[2].Args["action"] != "open toolbox" || !slices.Contains(kinds(h[2].Repairs), RepairTextFallback) || h[2].CallID != "" {
		t.Errorf("step 3 (text reply): %+v", h[2])
	}
	if h[3].Args["action"] != "take lantern" || !slices.Contains(kinds(h[3].Repairs), RepairArgs) {
		t.Errorf("step 4 (bare arguments): %+v", h[3])
	}
	reqs := s.Requests()
	if len(reqs[0].Tools) == 0 || reqs[0].Tools[0].Name != "play_action" {
		t.Errorf("native request without tools: %+v", reqs[0].Tools)
	}
	// The second request holds the first call and its result, paired by ID.
	m := reqs[1].Messages
	var call, result *llm.Message
	for i := range m {
		if len(m[i].ToolCalls) > 0 {
			call = &m[i]
		}
		if m[i].Role == llm.Tool {
			result = &m[i]
		}
	}
	if call == nil || result == nil || len(call.ToolCalls) != 1 || call.ToolCalls[0].ID != "c1" || result.ToolCallID != "c1" ||
		call.ToolCalls[0].Arguments != `{"action":"west"}` || result.Content != h[0].Observation {
		t.Errorf("second request: %+v", m)
	}
	if !strings.Contains(m[len(m)-1].Content, "Call one tool.") || strings.Contains(m[0].Content, "THOUGHT:") {
		t.Errorf("native prompt speaks the text protocol: %+v", m)
	}
}

func TestRunLimits(t *testing.T) {
	ctx := context.Background()
	forever := func(usage llm.Usage, cost float64) *llm.Scripted {
		s := llm.NewScripted()
		cmds := []string{"west", "east", "south", "north"}
		n := 0
		s.Fallback = func(llm.Request) (*llm.Reply, error) {
			n++
			return &llm.Reply{Content: textCall(cmds[n%len(cmds)]), Usage: usage, Cost: cost}, nil
		}
		return s
	}
	t.Run("steps", func(t *testing.T) {
		a := lanternAgent(t, Defaults(), forever(llm.Usage{}, 0))
		res, err := a.Run(ctx, 5)
		if err != nil || res.StoppedBy != StopSteps || res.Steps != 5 {
			t.Fatalf("%v: stopped by %q after %d", err, res.StoppedBy, res.Steps)
		}
		// A second Run plays on; Limits.MaxSteps bounds the episode.
		a.Limits.MaxSteps = 8
		res, _ = a.Run(ctx, 5)
		if res.StoppedBy != StopSteps || res.Steps != 8 {
			t.Errorf("episode limit 8: stopped by %q after %d", res.StoppedBy, res.Steps)
		}
	})
	t.Run("tokens", func(t *testing.T) {
		cfg := Defaults()
		cfg.Limits.MaxTokens = 1000
		a := lanternAgent(t, cfg, forever(llm.Usage{PromptTokens: 250, CompletionTokens: 50}, 0))
		res, err := a.Run(ctx, 50)
		if err != nil || res.StoppedBy != StopTokens || res.Steps != 4 || res.Tokens.PromptTokens != 1000 {
			t.Fatalf("%v: stopped by %q after %d steps with %+v", err, res.StoppedBy, res.Steps, res.Tokens)
		}
	})
	t.Run("cost", func(t *testing.T) {
		cfg := Defaults()
		cfg.Limits.MaxCost = 0.05
		a := lanternAgent(t, cfg, forever(llm.Usage{}, 0.02))
		res, err := a.Run(ctx, 50)
		if err != nil || res.StoppedBy != StopCost || res.Steps != 3 {
			t.Fatalf("%v: stopped by %q after %d steps, cost %v", err, res.StoppedBy, res.Steps, res.Cost)
		}
	})
}

func TestModelFailureEndsTheEpisode(t *testing.T) {
	s := llm.NewScripted().Text(textCall("west")).Error(errors.New("429 too many requests: gave up after 5 tries"))
	a := lanternAgent(t, Defaults(), s)
	res, err := a.Run(context.Background(), 10)
	if err != nil {
		t.Fatalf("Run returned %v; a model failure is an outcome", err)
	}
	if res.StoppedBy != StopError || !strings.Contains(res.Error, "gave up after 5 tries") || res.Steps != 2 {
		t.Fatalf("stopped by %q, error %q after %d steps", res.StoppedBy, res.Error, res.Steps)
	}
	if last := res.History[1]; last.Error == "" || last.Prompt == nil || last.Reply != nil {
		t.Errorf("the failed step's record: %+v", last)
	}
	if res.FinalScore != 0 || res.Moves != 1 {
		t.Errorf("the played step was lost: %+v", res)
	}
}

func TestCancelReturnsWhatWasPlayed(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := llm.NewScripted().Text(textCall("west")).Text(textCall("east"))
	s.Fallback = func(req llm.Request) (*llm.Reply, error) {
		cancel()
		return nil, context.Canceled
	}
	a := lanternAgent(t, Defaults(), s)
	res, err := a.Run(ctx, 10)
	if !errors.Is(err, context.Canceled) || res.StoppedBy != StopCancelled {
		t.Fatalf("Run: %v, stopped by %q", err, res.StoppedBy)
	}
	if res.Steps != 2 || len(a.History) != 2 {
		t.Errorf("%d steps kept, want the 2 played (the interrupted one is not recorded)", res.Steps)
	}
}

func TestBadConfig(t *testing.T) {
	for _, cfg := range []Config{
		{Memory: "elephant"},
		{Protocol: "morse"},
		{Memory: "window"},
		{LoopLimit: -1},
	} {
		if err := cfg.Validate(); err == nil {
			t.Errorf("Validate(%+v) = nil", cfg)
		}
		a := New(cfg)
		a.LLM = llm.NewScripted()
		res, err := a.Run(context.Background(), 1)
		if err == nil || res.StoppedBy != StopError || res.Error == "" {
			t.Errorf("Run with %+v: %v, %+v", cfg, err, res)
		}
	}
	if err := Defaults().Validate(); err != nil {
		t.Errorf("Defaults: %v", err)
	}
}

func TestWindowMemory(t *testing.T) {
	s := llm.NewScripted()
	for _, c := range []string{"west", "open toolbox", "take lantern", "east", "south"} {
		s.Text(textCall(c))
	}
	cfg := Defaults()
	cfg.Window = 2
	a := lanternAgent(t, cfg, s)
	res, _ := a.Run(context.Background(), 5)
	p := res.History[4].Prompt
	// system, 2 turns of 2 messages, the state.
	if len(p) != 6 || !strings.Contains(p[1].Content, "take lantern") || !strings.Contains(p[3].Content, "east") {
		t.Errorf("window 2 at step 5: %d messages: %+v", len(p), p)
	}
	cfg.Memory = "none"
	s2 := llm.NewScripted().Text(textCall("west")).Text(textCall("east"))
	b := lanternAgent(t, cfg, s2)
	res, _ = b.Run(context.Background(), 2)
	if p := res.History[1].Prompt; len(p) != 2 || !strings.Contains(p[1].Content, "Wooden Shed") {
		t.Errorf("no memory: %+v", p)
	}
}

func TestSummaryMemoryIsPaidFor(t *testing.T) {
	s := llm.NewScripted()
	var summaries int
	s.Fallback = func(req llm.Request) (*llm.Reply, error) {
		if strings.HasPrefix(req.Label, "memory summary") {
			summaries++
			return &llm.Reply{Content: "Locations: Meadow, Wooden Shed.", Usage: llm.Usage{TotalTokens: 7}, Cost: 0.5}, nil
		}
		return &llm.Reply{Content: textCall("wait"), Usage: llm.Usage{TotalTokens: 100}, Cost: 1}, nil
	}
	cfg := Defaults()
	cfg.Memory, cfg.Window, cfg.LoopLimit = "hybrid", 1, 0
	a := lanternAgent(t, cfg, s)
	res, err := a.Run(context.Background(), 4)
	if err != nil || res.Error != "" {
		t.Fatal(err, res.Error)
	}
	if summaries == 0 {
		t.Fatal("hybrid memory wrote no summary")
	}
	if want := 400 + 7*summaries; res.Tokens.TotalTokens != want {
		t.Errorf("tokens %d, want %d (4 steps and %d summaries)", res.Tokens.TotalTokens, want, summaries)
	}
	sum := 0.0
	for _, st := range res.History {
		sum += st.Cost
	}
	if sum != res.Cost || res.Cost != 4+0.5*float64(summaries) {
		t.Errorf("cost %v, steps' sum %v, want %v", res.Cost, sum, 4+0.5*float64(summaries))
	}
	if p := res.History[3].Prompt; !strings.Contains(p[1].Content, "Summary of earlier steps") {
		t.Errorf("step 4's prompt has no summary: %+v", p)
	}
}

func TestClone(t *testing.T) {
	s := llm.NewScripted().Text(textCall("west")).Text(textCall("open toolbox"))
	a := lanternAgent(t, Defaults(), s)
	if _, err := a.Step(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := a.Clone()
	if c.Tools != nil || len(c.History) != 1 || c.Location != "Wooden Shed" || !reflect.DeepEqual(c.Locations, a.Locations) {
		t.Fatalf("clone: %+v", c)
	}
	if _, err := c.Step(context.Background()); err == nil {
		t.Error("a clone with no tools stepped")
	}
	c.Tools = a.Tools // a script would give it a forked game's tools
	c.System = "changed"
	c.Verbs["frob"] = "take"
	if _, err := c.Step(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(a.History) != 1 || a.System == "changed" || a.Verbs["frob"] != "" || len(c.History) != 2 {
		t.Errorf("the clone's changes reached the original: %d steps, system %q", len(a.History), a.System)
	}
}
