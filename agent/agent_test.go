package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/tools"
	"github.com/grue-lab/grue/game/mcp"
	"github.com/grue-lab/grue/game/stories"
)

// lanternAgent returns an agent with cfg, connected to an in-process game
// of the default story, answering with client.
func lanternAgent(t testing.TB, cfg Config, client llm.Client) *Agent {
	t.Helper()
	c, err := mcp.NewInProcessClient()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	a := New(cfg)
	a.LLM = client
	if err := a.Connect(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	return a
}

// textCall is a text-protocol reply playing cmd.
func textCall(cmd string) string {
	return fmt.Sprintf("THOUGHT: next, %s\nTOOL: play_action\nARGS: {\"action\": %q}", cmd, cmd)
}

func TestWalkthroughWinsThroughTheLLM(t *testing.T) {
	s := llm.NewScripted()
	for _, cmd := range stories.Walkthrough() {
		s.Reply(&llm.Reply{Content: textCall(cmd), Usage: llm.Usage{PromptTokens: 100, CompletionTokens: 10, TotalTokens: 110}, Cost: 0.001})
	}
	a := lanternAgent(t, Defaults(), s)
	res, err := a.Run(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	n := len(stories.Walkthrough())
	if !res.GameCompleted || !res.Victory || res.FinalScore != stories.MaxScore || res.MaxScore != stories.MaxScore {
		t.Fatalf("completed %v victory %v score %d/%d, want a win with %d/%d; last: %q",
			res.GameCompleted, res.Victory, res.FinalScore, res.MaxScore, stories.MaxScore, stories.MaxScore, a.Observation)
	}
	if res.StoppedBy != StopDone || res.Steps != n || len(res.History) != n || res.Error != "" {
		t.Fatalf("stopped by %q after %d steps (history %d), error %q; want done after %d", res.StoppedBy, res.Steps, len(res.History), res.Error, n)
	}
	if res.Tokens.TotalTokens != 110*n || res.Tokens.PromptTokens != 100*n {
		t.Errorf("tokens %+v, want %d total", res.Tokens, 110*n)
	}
	if res.Cost < 0.001*float64(n)-1e-9 || res.Cost > 0.001*float64(n)+1e-9 {
		t.Errorf("cost %v, want %v", res.Cost, 0.001*float64(n))
	}
	if res.Locations[0] != "Meadow" || !slices.Contains(res.Locations, "Wooden Shed") {
		t.Errorf("locations %v: want Meadow first, and the Shed", res.Locations)
	}
	seen := map[string]bool{}
	for _, l := range res.Locations {
		if seen[l] {
			t.Errorf("location %q listed twice in %v", l, res.Locations)
		}
		seen[l] = true
	}
	rewards := 0
	for _, st := range res.History {
		rewards += st.Reward
		if len(st.Repairs) > 0 {
			t.Errorf("step %d: repairs %+v in a well-formed reply", st.Step, st.Repairs)
		}
	}
	if rewards != stories.MaxScore {
		t.Errorf("rewards add up to %d, want %d", rewards, stories.MaxScore)
	}
	if _, err := a.Step(context.Background()); !errors.Is(err, ErrGameOver) {
		t.Errorf("Step after the end: %v, want ErrGameOver", err)
	}
	// The result marshals with the earlier Python agent's names.
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	for _, k := range []string{"final_score", "max_score", "moves", "locations_visited", "game_completed", "steps", "tokens", "cost", "stopped_by", "history"} {
		if _, ok := m[k]; !ok {
			t.Errorf("RunResult JSON lacks %q", k)
		}
	}
}

// fakeTool is a tool whose results a test writes.
type fakeTool struct {
	name   string
	params map[string]any
	calls  []map[string]any
	answer func(args map[string]any) (tools.Result, error)
}

func (f *fakeTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: f.name, Description: "a fake " + f.name, Parameters: f.params}
}

func (f *fakeTool) Call(ctx context.Context, args map[string]any) (tools.Result, error) {
	f.calls = append(f.calls, args)
	if f.answer == nil {
		return tools.Result{Text: "ok"}, nil
	}
	return f.answer(args)
}

// textGame is a foreign server's play_action: text only, in the earlier Python agent's
// formats, no structured content.
func textGame() *fakeTool {
	score, moves := 0, 0
	return &fakeTool{
		name: "play_action",
		params: map[string]any{"type": "object", "required": []any{"action"},
			"properties": map[string]any{"action": map[string]any{"type": "string"}}},
		answer: func(args map[string]any) (tools.Result, error) {
			moves++
			a, _ := args["action"].(string)
			switch a {
			case "take coin":
				score += 5
				return tools.Result{Text: fmt.Sprintf("Taken.\n\n+5 points! (Total: %d)", score)}, nil
			case "die":
				return tools.Result{Text: fmt.Sprintf("You die.\n\n[Score: %d | Moves: %d]\n\nGAME OVER", score, moves)}, nil
			}
			return tools.Result{Text: fmt.Sprintf("You %s.\n\n[Score: %d | Moves: %d]", a, score, moves)}, nil
		},
	}
}

func TestForeignServerTextFormats(t *testing.T) {
	mem := &fakeTool{name: "memory", answer: func(map[string]any) (tools.Result, error) {
		return tools.Result{Text: "Current State:\n- Location: Cellar\n- Score: 0\n- Moves: 0\n- Game: x\n\nRecent Actions:\n  (none yet)\n\nCurrent Observation:\nA damp cellar."}, nil
	}}
	a := New(Defaults())
	a.Tools = tools.NewRegistry(textGame(), mem)
	a.LLM = llm.NewScripted().Text(textCall("wave")).Text(textCall("take coin")).Text(textCall("die"))
	res, err := a.Run(context.Background(), 10)
	if err != nil {
		t.Fatal(err)
	}
	if a.History[0].Prompt == nil || !strings.Contains(a.History[0].Prompt[len(a.History[0].Prompt)-1].Content, "A damp cellar.") {
		t.Errorf("first prompt lacks the memory tool's observation: %+v", a.History[0].Prompt)
	}
	if got := res.History[1]; got.Reward != 5 || got.Score != 5 {
		t.Errorf("take coin: reward %d score %d, want 5 and 5", got.Reward, got.Score)
	}
	if !res.GameCompleted || res.StoppedBy != StopDone || res.Moves != 3 || res.FinalScore != 5 {
		t.Errorf("got completed %v stopped by %q moves %d score %d; want GAME OVER read after 3 moves with 5 points", res.GameCompleted, res.StoppedBy, res.Moves, res.FinalScore)
	}
	if !reflect.DeepEqual(res.Locations, []string{"Cellar"}) {
		t.Errorf("locations %v, want [Cellar] from the memory text", res.Locations)
	}
}

func TestPolicyRunsWithoutAnLLM(t *testing.T) {
	a := lanternAgent(t, Defaults(), nil)
	a.Policy = &listPolicy{cmds: []string{"west", "open toolbox", "take lantern"}}
	res, err := a.Run(context.Background(), 10)
	if err != nil {
		t.Fatal(err)
	}
	if res.StoppedBy != StopPolicy || res.Steps != 3 || res.Error != "" {
		t.Fatalf("stopped by %q after %d steps, error %q; want the policy's end after 3", res.StoppedBy, res.Steps, res.Error)
	}
	if st := res.History[2]; st.Policy != "list" || st.Prompt != nil || st.Reply != nil || !strings.Contains(st.Observation, "Taken") {
		t.Errorf("policy step: %+v", st)
	}
	if !reflect.DeepEqual(res.Locations, []string{"Meadow", "Wooden Shed"}) {
		t.Errorf("locations %v, want [Meadow Wooden Shed]", res.Locations)
	}
}

// listPolicy plays a list of commands, exactly as given, then ErrDone.
type listPolicy struct {
	cmds  []string
	views []View
}

func (p *listPolicy) Name() string { return "list" }

func (p *listPolicy) Next(ctx context.Context, v View) (Action, error) {
	p.views = append(p.views, v)
	if len(p.views) > len(p.cmds) {
		return Action{}, ErrDone
	}
	return Action{Tool: "play_action", Args: map[string]any{"action": p.cmds[len(p.views)-1]}}, nil
}

// TestWallLimit runs in a synctest bubble: the model's 20ms answers and
// the 150ms wall limit are on the bubble's clock, so the test takes no
// real time and cannot be starved by a busy machine.
func TestWallLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := llm.NewScripted()
		s.Fallback = func(llm.Request) (*llm.Reply, error) {
			time.Sleep(20 * time.Millisecond) // a model that takes 20ms to answer
			return &llm.Reply{Content: textCall("wait")}, nil
		}
		cfg := Defaults()
		cfg.LoopLimit = 0
		cfg.Limits.MaxWall = 150 * time.Millisecond
		a := lanternAgent(t, cfg, s)
		start := time.Now()
		res, err := a.Run(context.Background(), 1000)
		if err != nil {
			t.Fatal(err)
		}
		if res.StoppedBy != StopWall || res.Error != "" || res.Steps == 0 {
			t.Fatalf("stopped by %q after %d steps, error %q; want the wall limit after some steps", res.StoppedBy, res.Steps, res.Error)
		}
		if d := time.Since(start); d > 200*time.Millisecond {
			t.Errorf("Run took %v with a 150ms limit and 20ms steps", d)
		}
	})
}

// A server that says the game has no move count ("moves": null) gets a
// result whose moves are unknown (null in JSON), even where its text
// prints "Moves: 0"; one that says 0 keeps 0.
func TestMovesUnknownIsNull(t *testing.T) {
	for _, c := range []struct {
		name  string
		moves any
		want  string
	}{{"unknown", nil, `"moves":null`}, {"at move 0", 0.0, `"moves":0`}} {
		game := &fakeTool{name: "play_action",
			params: map[string]any{"type": "object", "required": []any{"action"},
				"properties": map[string]any{"action": map[string]any{"type": "string"}}},
			answer: func(map[string]any) (tools.Result, error) {
				return tools.Result{Text: "You wait.\n\n[Score: 0 | Moves: 0]", Structured: map[string]any{
					"observation": "You wait.", "score": 0.0, "moves": c.moves}}, nil
			}}
		a := New(Defaults())
		a.Tools = tools.NewRegistry(game)
		a.LLM = llm.NewScripted().Text(textCall("wait"))
		res, err := a.Run(context.Background(), 1)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Count(string(b), c.want) != 2 || res.MovesUnknown != (c.moves == nil) {
			t.Errorf("%s: result and its step should say %s (unknown %v): %s", c.name, c.want, res.MovesUnknown, b)
		}
	}
}

// Two rooms of one name (Advent's two "In Forest") count as two where the
// server gives their object numbers; the same room seen again counts once.
func TestRoomsCountedByID(t *testing.T) {
	ids := []float64{5, 7, 5}
	n := 0
	game := &fakeTool{name: "play_action",
		params: map[string]any{"type": "object", "required": []any{"action"},
			"properties": map[string]any{"action": map[string]any{"type": "string"}}},
		answer: func(map[string]any) (tools.Result, error) {
			id := ids[min(n, len(ids)-1)]
			n++
			return tools.Result{Text: "Trees.", Structured: map[string]any{
				"observation": "Trees.", "location": "In Forest", "location_id": id}}, nil
		}}
	a := New(Defaults())
	a.Tools = tools.NewRegistry(game)
	a.LLM = llm.NewScripted().Text(textCall("east")).Text(textCall("west")).Text(textCall("east"))
	res, err := a.Run(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	if res.LocationsVisited != 2 || !reflect.DeepEqual(res.Locations, []string{"In Forest", "In Forest"}) {
		t.Errorf("visited %d %v, want the two In Forest rooms (ids 5 and 7)", res.LocationsVisited, res.Locations)
	}
}
