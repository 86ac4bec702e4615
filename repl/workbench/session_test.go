package workbench

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/grue-lab/grue/repl"
)

// newSession starts a session on the default story, writing to a buffer.
func newSession(t testing.TB) (*Session, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	s, err := New(Options{REPL: repl.Options{Stdout: &out, Stderr: &out, Stdin: strings.NewReader("")}, Policy: "explorer"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, &out
}

// evalOK evaluates a cell that must succeed and returns its output.
func evalOK(t *testing.T, s *Session, src string) string {
	t.Helper()
	res, err := s.Eval(context.Background(), src)
	if err != nil {
		t.Fatalf("Eval(%q): %v", src, err)
	}
	return res.Output
}

// TestEval: the session's game is g, and grue's packages are bound and
// imported.
func TestEval(t *testing.T) {
	s, _ := newSession(t)
	for _, tc := range []struct {
		src      string
		want     string // the output, exactly
		contains []string
	}{
		{src: `g.Info().Location`, want: "Meadow\n"},
		{src: `import "github.com/grue-lab/grue/game"`, want: ""}, // imported already: no error
		{src: `g.Step("look")`, contains: []string{"game.StepResult", "Observation", "Meadow", "Info ", "Moves: 1"}},
		{src: `:type g.Step`, want: "func(string) (game.StepResult, error)\n"},
		{src: `stories.DefaultName`, want: "lantern\n"},
		{src: `len(harness.PolicyNames()) > 0`, want: "true\n"},
	} {
		res, err := s.Eval(context.Background(), tc.src)
		switch {
		case err != nil:
			t.Errorf("Eval(%q): %v", tc.src, err)
		case tc.contains == nil && res.Output != tc.want:
			t.Errorf("Eval(%q) printed %q, want %q", tc.src, res.Output, tc.want)
		}
		for _, c := range tc.contains {
			if !strings.Contains(res.Output, c) {
				t.Errorf("Eval(%q) printed %q, want it to contain %q", tc.src, res.Output, c)
			}
		}
	}
}

func TestEvalValues(t *testing.T) {
	s, _ := newSession(t)
	res, err := s.Eval(context.Background(), `g.Step("north")`)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Values) != 2 || res.Values[0].Type().String() != "game.StepResult" || res.Values[1].IsValid() {
		t.Fatalf("Values = %v, want a game.StepResult and a nil error", res.Values)
	}
	vals, err := s.EvalValues(context.Background(), `g.Info().Moves`)
	if err != nil || len(vals) != 1 || vals[0].Int() != 1 {
		t.Fatalf("EvalValues(g.Info().Moves) = %v, %v; want 1", vals, err)
	}
}

func TestDefineAndReset(t *testing.T) {
	s, _ := newSession(t)
	type rec struct{ Name string }
	if err := s.Define("r", &rec{"hello"}); err != nil {
		t.Fatal(err)
	}
	evalOK(t, s, `g.Step("north")`)
	evalOK(t, s, ":step 2")
	old := s.Episode()
	if out := evalOK(t, s, ":reset"); !strings.Contains(out, "session reset: game: lantern (seed 1), policy: explorer") {
		t.Fatalf(":reset printed %q", out)
	}
	if out := evalOK(t, s, "len(ep.Agent.History)"); out != "0\n" || s.Episode() == old {
		t.Errorf("after :reset ep has %q steps: want a new episode", out)
	}
	if _, err := old.Step(context.Background()); err == nil {
		t.Error("the episode before :reset still plays: :reset must close it")
	}
	if out := evalOK(t, s, "r.Name + \" again\""); out != "hello again\n" {
		t.Errorf("after :reset r.Name printed %q: Define'd values must stay", out)
	}
	if out := evalOK(t, s, "g.Info().Moves"); out != "0\n" {
		t.Errorf("after :reset the game has %q moves, want a fresh game", out)
	}
	if s.Game() == nil || s.Game().Moves() != 0 {
		t.Error("Game() is not the fresh game")
	}
	ep := s.Episode()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := ep.Step(context.Background()); err == nil {
		t.Error("the session's episode still plays after Close")
	}
}

func TestOptions(t *testing.T) {
	var out bytes.Buffer
	s, err := New(Options{REPL: repl.Options{Stdout: &out}, NoGame: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Eval(context.Background(), "g"); err == nil {
		t.Error("NoGame: g is defined")
	}
	if s.Banner() != "no game" || s.Game() != nil || s.Episode() != nil {
		t.Errorf("NoGame: banner %q, game %v, episode %v", s.Banner(), s.Game(), s.Episode())
	}
	if _, err := New(Options{Game: "/nonexistent/story.z5"}); err == nil || !strings.Contains(err.Error(), "open game") {
		t.Errorf("New with a missing story: %v", err)
	}
	// A Setup of the caller's runs after the workbench's.
	ran := false
	s2, err := New(Options{REPL: repl.Options{Stdout: &out, Setup: func(s *repl.Session) error {
		ran = true
		return nil
	}}, NoEpisode: true})
	if err != nil || !ran {
		t.Fatalf("New with a Setup: %v, ran %v", err, ran)
	}
	s2.Close()
}

// TestMagics: :help, :doc, :who, :type and :table know grue's packages
// and the session's g and ep.
func TestMagics(t *testing.T) {
	s, _ := newSession(t)
	for _, tc := range []struct {
		src  string
		want []string // the output contains each
		err  string
	}{
		{src: ":help", want: []string{"The session's game is the variable g", "The agent's episode is ep", ":step [N]", ":prompt", ":doc SYMBOL", "Packages agent, fmt, game, harness, llm,", ":quit"}},
		{src: ":help imports", want: []string{"github.com/grue-lab/grue/game ", "Package game is grue's game layer"}},
		{src: ":doc game", want: []string{"package game // import \"github.com/grue-lab/grue/game\"", "func Open(nameOrPath string, opts ...Option) (*Game, error)", "type Game struct ..."}},
		{src: ":doc game.Open", want: []string{"func Open(nameOrPath string, opts ...Option) (*Game, error)", "    Open finds the story nameOrPath"}},
		{src: ":doc game.Game.Step", want: []string{"func (g *Game) Step(action string) (StepResult, error)", "Step plays one command"}},
		{src: ":doc g.Step", want: []string{"func (g *Game) Step(action string) (StepResult, error)"}},
		{src: ":doc g", want: []string{"g *game.Game", "type Game struct", "Game is one running story"}},
		{src: ":doc zmachine.Files", want: []string{"type Files interface"}},
		{src: ":doc github.com/grue-lab/grue/game/stories", want: []string{"package stories", "func Default() (name string, data []byte)"}},
		{src: ":doc game.Nonesuch", err: "game has no exported Nonesuch"},
		{src: ":who", want: []string{"│ ep ", "*harness.Episode", "harness.Episode{Variant: \"\", Game: \"lan", "│ ctx ", "the running cell's context", "│ g ", "*game.Game", "│ game ", "import", "github.com/grue-lab/grue/game"}},
		{src: ":type g.Info()", want: []string{"game.Info\n"}},
		{src: ":table g.Object(1)", want: []string{"│ Field ", "│ Name ", "Class"}},
		{src: ":play take the sky", want: []string{"step 1: play_action {\"action\":\"take the sky\"} -> Meadow (score 0)\n", "    thought: played at the REPL with :play\n"}},
		{src: ":play", err: "usage: :play COMMAND"},
	} {
		res, err := s.Eval(context.Background(), tc.src)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Eval(%q): error %v, want %q", tc.src, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Eval(%q): %v", tc.src, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(res.Output, w) {
				t.Errorf("Eval(%q) printed\n%s\nwant it to contain %q", tc.src, res.Output, w)
			}
		}
		if strings.Contains(res.Output, "[Score:") {
			t.Errorf("Eval(%q) printed the server's score line:\n%s", tc.src, res.Output)
		}
	}
}

func TestCompletions(t *testing.T) {
	s, _ := newSession(t)
	for _, tc := range []struct {
		line   string
		prefix string
		want   []string // among the candidates
		not    []string
	}{
		{"gam", "gam", []string{"game"}, nil},
		{"game.Op", "Op", []string{"Open"}, []string{"New"}},
		{"g.St", "St", []string{"Step", "StateHash", "Story"}, []string{"Score"}},
		{"g.Info().", "", nil, nil}, // a call: not completed
		{"zmachine.Fi", "Fi", []string{"Files"}, []string{"_Files"}},
		{"ep.F", "F", []string{"Fork"}, nil},
		{"ep.Agent.Hi", "Hi", []string{"History"}, nil},
		{"ep.Agent.Sy", "Sy", []string{"System"}, nil},
		{"agent.NewEx", "NewEx", []string{"NewExplorer"}, nil},
		{"memory.Str", "Str", []string{"Strategy"}, []string{"_Strategy"}},
		{"harness.Com", "Com", []string{"Compare", "CompareOptions", "Comparison"}, nil},
		{":st", "st", []string{"step"}, nil},
		{":pr", "pr", []string{"prompt"}, nil},
	} {
		got, prefix := s.Completions(tc.line, len(tc.line))
		if prefix != tc.prefix {
			t.Errorf("Completions(%q) prefix %q, want %q", tc.line, prefix, tc.prefix)
		}
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("Completions(%q) = %v, want %q among them", tc.line, got, w)
			}
		}
		for _, w := range tc.not {
			if slices.Contains(got, w) {
				t.Errorf("Completions(%q) = %v, without %q", tc.line, got, w)
			}
		}
	}
}

// TestRunFile: a script imports grue's packages; a notebook runs in a
// workbench session of its own, headed by the banner of the session that
// saved it.
func TestRunFile(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "ok.go")
	src := `package main

import (
	"fmt"
	"os"

	"github.com/grue-lab/grue/game"
)

type quiet struct{}

func (quiet) ReadFile(name string) ([]byte, error) { return nil, os.ErrNotExist }

func main() {
	g, err := game.Open("")
	if err != nil {
		panic(err)
	}
	r, _ := g.Step("west")
	fmt.Println(os.Args[1:], r.Info.Location)
}
`
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := RunFile(context.Background(), script, []string{"-v", "x"}, Options{REPL: repl.Options{Stdout: &out, Stderr: &out}}); err != nil || out.String() != "[-v x] Wooden Shed\n" {
		t.Errorf("RunFile(ok.go) = %q, %v", out.String(), err)
	}

	s, _ := newSession(t)
	evalOK(t, s, `g.Step("west")`)
	evalOK(t, s, ":step")
	nb := filepath.Join(dir, "notes.md")
	evalOK(t, s, ":save "+nb)
	data, err := os.ReadFile(nb)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "game: lantern (seed 1), policy: explorer") {
		t.Errorf("the notebook lacks the session's banner:\n%s", data)
	}
	out.Reset()
	if err := RunFile(context.Background(), nb, nil, Options{REPL: repl.Options{Stdout: &out, Stderr: &out}, Policy: "walkthrough"}); err != nil {
		t.Fatalf("RunFile(notes.md): %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "Wooden Shed") || !strings.Contains(out.String(), "step 1: play_action {\"action\":\"west\"}") {
		t.Errorf("RunFile(notes.md) printed\n%s", out.String())
	}
	// :run of a notebook starts a session of its own: the outer one keeps
	// its game and episode.
	ep, g := s.Episode(), s.Game()
	if out := evalOK(t, s, ":run "+nb); !strings.Contains(out, "--- [2] :step") {
		t.Errorf(":run notes.md printed\n%s", out)
	}
	if s.Episode() != ep || s.Game() != g || len(ep.Agent.History) != 1 {
		t.Errorf("after :run the session's episode or game changed: %p, %p, %d steps", s.Episode(), s.Game(), len(ep.Agent.History))
	}
	if _, err := ep.Step(context.Background()); err != nil {
		t.Errorf("the session's episode after :run: %v (the notebook's session closed it?)", err)
	}
}

func BenchmarkNew(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s, err := New(Options{REPL: repl.Options{Stdout: &bytes.Buffer{}}})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Eval(context.Background(), "g.Info()"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEval(b *testing.B) {
	s, _ := newSession(b)
	for i := 0; i < b.N; i++ {
		if _, err := s.Eval(context.Background(), "g.Info().Score + 1"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlay is a step of the session's game through :play, the way a
// user steps it by hand.
func BenchmarkPlay(b *testing.B) {
	s, _ := newSession(b)
	for i := 0; i < b.N; i++ {
		if _, err := s.Eval(context.Background(), ":play look"); err != nil {
			b.Fatal(err)
		}
	}
}
