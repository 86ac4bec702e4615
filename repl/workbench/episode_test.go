package workbench

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/repl"
)

// interruptGrace is at least how long repl gives an interrupted cell to
// end by itself before it stops the interpreter.
const interruptGrace = 250 * time.Millisecond

// noModel clears the environment that configures a model.
func noModel(t *testing.T) {
	t.Helper()
	for _, k := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "HF_TOKEN", "GRUE_MODEL", "GRUE_PRICES"} {
		t.Setenv(k, "")
	}
}

// modelServer starts a fake OpenAI endpoint whose model answers every
// request with reply, and points the environment at it.
func modelServer(t *testing.T, model, reply string) *llmtest.Server {
	t.Helper()
	noModel(t)
	srv := llmtest.NewServer()
	t.Cleanup(srv.Close)
	srv.Fallback(func(llmtest.Request) llmtest.Response { return llmtest.Text(reply) })
	t.Setenv("OPENAI_BASE_URL", srv.URL())
	t.Setenv("GRUE_MODEL", model)
	return srv
}

func newSessionWith(t *testing.T, opts Options) (*Session, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	opts.REPL.Stdout, opts.REPL.Stderr, opts.REPL.Stdin = &out, &out, strings.NewReader("")
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, &out
}

// TestBannerSaysWhoPlays: a session's agent is the configured model, or
// the explorer with the reason there is no model.
func TestBannerSaysWhoPlays(t *testing.T) {
	noModel(t)
	for _, tc := range []struct {
		opts Options
		env  map[string]string
		want string
	}{
		{want: "game: lantern (seed 1), policy: explorer (no model configured: set OPENAI_API_KEY, OPENAI_BASE_URL and GRUE_MODEL, or HF_TOKEN; or start grue with --base-url and --model)"},
		{opts: Options{Seed: 7, Policy: "random"}, want: "game: lantern (seed 7), policy: random"},
		{opts: Options{Model: "m1", BaseURL: "http://127.0.0.1:9/v1"}, want: "game: lantern (seed 1), model: m1"},
		{env: map[string]string{"OPENAI_API_KEY": "sk-test-secret"}, want: "game: lantern (seed 1), model: " + llm.DefaultOpenAIModel},
		{env: map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "GRUE_MODEL": "env-model"}, opts: Options{Model: "flag-model"}, want: "model: flag-model"},
	} {
		for k, v := range tc.env {
			t.Setenv(k, v)
		}
		s, _ := newSessionWith(t, tc.opts)
		if got := s.Banner(); !strings.Contains(got, tc.want) || strings.Contains(got, "sk-test-secret") {
			t.Errorf("Options %+v, env %v: banner %q, want %q", tc.opts, tc.env, got, tc.want)
		}
		for k := range tc.env {
			t.Setenv(k, "")
		}
	}
	if _, err := New(Options{Policy: "llm"}); err == nil || !strings.Contains(err.Error(), "policy llm: no model configured") {
		t.Errorf("New with policy llm and no model: %v", err)
	}
	// An endpoint or a model without the other is a model meant: the
	// session does not start, rather than play a baseline in its place.
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{BaseURL: "http://127.0.0.1:9/v1"}, "policy llm: llm: no model named, and http://127.0.0.1:9/v1 did not list its models"},
		{Options{Model: "m1"}, "policy llm: no endpoint for model m1: set OPENAI_API_KEY or OPENAI_BASE_URL, or start grue with --base-url (or start grue with --policy explorer for a baseline)"},
	} {
		var out bytes.Buffer
		tc.opts.REPL.Stdout, tc.opts.REPL.Stderr, tc.opts.REPL.Stdin = &out, &out, strings.NewReader("")
		if s, err := New(tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v): %v, want %q", tc.opts, err, tc.want)
			if s != nil {
				s.Close()
			}
		}
	}
	if _, err := New(Options{Policy: "genius"}); err == nil || !strings.Contains(err.Error(), `unknown policy "genius"`) {
		t.Errorf("New with an unknown policy: %v", err)
	}
}

// TestEpisodeWithModel: with a model configured, :step asks it, and
// :prompt shows exactly the messages of the next request.
func TestEpisodeWithModel(t *testing.T) {
	srv := modelServer(t, "test-model", "THOUGHT: the cave looks promising\nTOOL: play_action\nARGS: {\"action\": \"north\"}")
	s, _ := newSessionWith(t, Options{})
	if b := s.Banner(); b != "game: lantern (seed 1), model: test-model" {
		t.Fatalf("banner %q", b)
	}
	prompt := evalOK(t, s, ":prompt")
	out := evalOK(t, s, ":step")
	for _, want := range []string{
		"step 1: play_action {\"action\":\"north\"} -> Cave Mouth (score 0)\n",
		"    thought: the cave looks promising\n",
		"    Daylight reaches a few paces into the cave",
	} {
		if !strings.Contains(out, want) {
			t.Errorf(":step printed\n%s\nwant %q", out, want)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Model != "test-model" {
		t.Fatalf("the model got %d requests (%+v), want 1 for test-model", len(reqs), reqs)
	}
	var sent strings.Builder
	writeMessages(&sent, reqs[0].LLMMessages())
	if prompt != sent.String() {
		t.Errorf(":prompt showed\n%s\nbut the model was sent\n%s", prompt, sent.String())
	}
	if strings.Contains(prompt, "policy plays this episode") {
		t.Error(":prompt says a policy plays an episode that the model plays")
	}
}

// TestStepAndPlay: :step and :play step the episode that ep holds, and
// :play is recorded in its history.
// TestBaselineGetsValidActions: the explorer that plays when there is no
// model gets every game tool, so it moves by valid actions, not by trying
// every compass direction from the first room.
func TestBaselineGetsValidActions(t *testing.T) {
	noModel(t)
	s, _ := newSessionWith(t, Options{})
	if got := evalOK(t, s, "_, ok := ep.Agent.Tools.Get(\"valid_actions\")\nok"); got != "true\n" {
		t.Fatalf("the explorer's tools lack valid_actions: %q", got)
	}
	out := evalOK(t, s, ":step 3")
	for _, bad := range []string{"northeast", "northwest", "southeast", "southwest"} {
		if strings.Contains(out, "{\"action\":\""+bad+"\"}") {
			t.Errorf("the explorer tried %s, which Lantern's meadow lacks:\n%s", bad, out)
		}
	}
}

func TestStepAndPlay(t *testing.T) {
	noModel(t)
	s, _ := newSessionWith(t, Options{Policy: "walkthrough"})
	out := evalOK(t, s, ":step 2")
	if !strings.Contains(out, "step 1: play_action {\"action\":\"west\"} -> Wooden Shed (score 0)\n") ||
		!strings.Contains(out, "step 2: play_action {\"action\":\"open toolbox\"}") ||
		!strings.Contains(out, "after 2 steps: score 0 of 60, 2 moves, 2 rooms, in Wooden Shed\n") {
		t.Errorf(":step 2 printed\n%s", out)
	}
	out = evalOK(t, s, ":play take lantern")
	if !strings.Contains(out, "step 3: play_action {\"action\":\"take lantern\"} -> Wooden Shed (score 5, +5)\n") {
		t.Errorf(":play printed\n%s", out)
	}
	if got := evalOK(t, s, "ep.Agent.History[2].Policy + \" \" + fmt.Sprint(ep.Agent.Score)"); got != "user 5\n" {
		t.Errorf("the played step is recorded as %q, want the user's, with the score 5", got)
	}
	// ep = alt: the magics follow the variable.
	evalOK(t, s, "alt, _ := ep.Fork()\nep = alt")
	evalOK(t, s, ":play south")
	if got := evalOK(t, s, "len(alt.Agent.History)"); got != "4\n" {
		t.Errorf("after ep = alt, :play played elsewhere: alt has %q steps", got)
	}
	if n := len(s.b.episode.Agent.History); n != 3 {
		t.Errorf("the first episode has %d steps after ep = alt, want 3", n)
	}
	if g := evalOK(t, s, "g.Info().Moves"); g != "0\n" {
		t.Errorf("the episode's steps moved g: %q moves", g)
	}
	for _, tc := range []struct{ src, err string }{
		{":step 0", "usage: :step [N]"},
		{":step x", "usage: :step [N]"},
		{":play", "usage: :play COMMAND"},
	} {
		if _, err := s.Eval(context.Background(), tc.src); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("Eval(%q): %v, want %q", tc.src, err, tc.err)
		}
	}
	// The game ends: :step stops at the step that ended it, and then says
	// the game is over.
	s2, _ := newSessionWith(t, Options{Policy: "walkthrough"})
	out = evalOK(t, s2, ":step 100")
	if !strings.Contains(out, "GAME OVER\n") || !strings.Contains(out, "after 38 steps: score 60 of 60") || strings.Contains(out, "step 39") {
		t.Errorf(":step 100 on the walkthrough printed\n%s", out)
	}
	if _, err := s2.Eval(context.Background(), ":step"); err == nil || !strings.Contains(err.Error(), "the game is over") {
		t.Errorf(":step after the end: %v", err)
	}
}

func TestNoEpisode(t *testing.T) {
	s, _ := newSessionWith(t, Options{NoEpisode: true})
	if _, err := s.Eval(context.Background(), "ep"); err == nil {
		t.Error("NoEpisode: ep is defined")
	}
	for _, m := range []string{":step", ":prompt"} {
		if _, err := s.Eval(context.Background(), m); err == nil || !strings.Contains(err.Error(), "no agent episode") {
			t.Errorf("%s without an episode: %v", m, err)
		}
	}
	// :play plays in g instead.
	if out := evalOK(t, s, ":play north"); !strings.Contains(out, "Cave Mouth") || !strings.Contains(out, "[Score: 0 | Moves: 1]") {
		t.Errorf(":play without an episode printed\n%s", out)
	}
	if s.Banner() != "game: lantern (seed 1)" {
		t.Errorf("banner %q", s.Banner())
	}
}

// TestCtx: the session's ctx is the running cell's context, so that
// cancelling the cell (Ctrl-C) stops a long ep.Run, which returns by
// itself: the cell ends as interrupted, the steps played are kept, none
// is played after, and the session goes on.
func TestCtx(t *testing.T) {
	s, _ := newSessionWith(t, Options{Policy: "random"})
	if got := evalOK(t, s, "ctx.Err() == nil"); got != "true\n" {
		t.Fatalf("ctx.Err() == nil printed %q", got)
	}
	evalOK(t, s, `type slow struct{}
func (slow) Name() string { return "slow" }
func (slow) Next(c context.Context, v agent.View) (agent.Action, error) {
	time.Sleep(2 * time.Millisecond)
	return agent.Action{Tool: "play_action", Args: map[string]any{"action": "wait"}}, nil
}
ep.Agent.Policy = slow{}
ep.Agent.Limits = agent.Limits{}
after := 0`)
	ctx, cancel := context.WithTimeout(context.Background(), 400*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := s.Eval(ctx, "r, err := ep.Run(ctx, 100000)\nafter++")
	if !errors.Is(err, repl.ErrInterrupted) {
		t.Errorf("the cancelled cell: %v, want interrupted", err)
	}
	// The cell's goroutine ended before Eval returned (else the error
	// says it goes on in the background), and ep.Run plays in the
	// caller's goroutine: no step is played after the cell.
	if err != nil && strings.Contains(err.Error(), "background") {
		t.Errorf("the cancelled cell goes on: %v", err)
	}
	if d := time.Since(start); d > interruptGrace+time.Second {
		t.Errorf("the cancelled cell took %s", d)
	}
	// The run returned by itself, within the cell: its result is there,
	// and the statement after it did not run.
	if got := evalOK(t, s, "fmt.Println(r.StoppedBy, err, after)"); !strings.HasPrefix(got, "cancelled context canceled 0\n") {
		t.Errorf("after the interrupt: %q, want the run stopped by cancellation and the next statement not run", got)
	}
	n := len(s.Episode().Agent.History)
	if n < 2 || n > 1000 {
		t.Errorf("the interrupted run played %d steps: want some, far fewer than asked", n)
	}
	for _, st := range s.Episode().Agent.History {
		if st.Args["action"] != "wait" {
			t.Errorf("the interrupted run recorded %s: a step the policy did not choose", st.String())
		}
	}
	if got := evalOK(t, s, "ctx.Err() == nil"); got != "true\n" {
		t.Errorf("the next cell's ctx is done: %q", got)
	}
}

// TestEpisodeDisplay: an episode is shown by its summary, alone and in a
// table, and steps in a table by their main fields.
func TestEpisodeDisplay(t *testing.T) {
	s, _ := newSessionWith(t, Options{Policy: "walkthrough"})
	evalOK(t, s, ":step 3")
	out := evalOK(t, s, "ep")
	for _, want := range []string{"&harness.Episode\n", "  Player    \"walkthrough\"\n", "  Steps     3\n", "  Score     5\n", "  Location  \"Wooden Shed\"\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("ep printed\n%s\nwant %q", out, want)
		}
	}
	if strings.Contains(out, "Agent") || strings.Contains(out, "Client") {
		t.Errorf("ep printed its agent or client:\n%s", out)
	}
	evalOK(t, s, "alt, _ := ep.Fork()")
	out = evalOK(t, s, ":table --csv []*harness.Episode{ep, alt, nil}")
	if !strings.Contains(out, "Variant,Game,Seed,Player,Steps,Score,MaxScore,Moves,Rooms,Location,Done,Tokens,Cost,Error\n,lantern,1,walkthrough,3,5,60,3,2,Wooden Shed,false,0,0,\nfork1,lantern,1,walkthrough,3,5,60,3,2,Wooden Shed,false,0,0,\nnil,") {
		t.Errorf(":table of episodes printed\n%s", out)
	}
	out = evalOK(t, s, ":table --md ep.Agent.History")
	if !strings.Contains(out, "| Step | Tool | Args | Thought | Observation | Location | Score | Reward | Error |") ||
		!strings.Contains(out, "| 3 | play_action | {\"action\":\"take lantern\"} | walkthrough: command 3 of 38 | Taken.") {
		t.Errorf(":table of steps printed\n%s", out)
	}
	out = evalOK(t, s, "ep.Agent.History")
	if !strings.Contains(out, "│ Step │ Tool ") || strings.Contains(out, "LLMTime") {
		t.Errorf("a slice of steps printed\n%s", out)
	}
	// One step alone prints its own line.
	if out := evalOK(t, s, "&ep.Agent.History[0]"); out != "step 1: play_action {\"action\":\"west\"} -> Wooden Shed (score 0)\n" {
		t.Errorf("a *agent.Step printed %q", out)
	}
}

// BenchmarkStep is :step on the default story with baseline policies:
// the cost of a step by hand in the REPL, printing included. The session
// starts afresh (untimed) when a game ends.
func BenchmarkStep(b *testing.B) {
	for _, policy := range []string{"walkthrough", "random", "explorer"} {
		b.Run(policy, func(b *testing.B) {
			s, err := New(Options{REPL: repl.Options{Stdout: &bytes.Buffer{}}, Policy: policy})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			ctx := context.Background()
			for i := 0; i < b.N; i++ {
				if _, err := s.Eval(ctx, ":step"); err != nil {
					b.Fatal(err)
				}
				if s.Episode().Agent.Done {
					b.StopTimer()
					if _, err := s.Eval(ctx, ":reset"); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
			}
		})
	}
}
