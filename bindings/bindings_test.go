package bindings

import (
	"slices"
	"strings"
	"testing"

	"github.com/grue-lab/grue/bindings/internal/gen"
)

func TestProjectPackagesAreBound(t *testing.T) {
	var got []string
	for _, p := range Packages(true) {
		got = append(got, p.Path)
	}
	want := slices.Clone(gen.Packages)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("Packages(true) = %v, want gen.Packages %v", got, want)
	}
	g, ok := Lookup("github.com/grue-lab/grue/game")
	if !ok || g.Name != "game" || !g.Symbols["Open"].IsValid() || !g.Symbols["Game"].IsValid() {
		t.Errorf("Lookup(game) = %+v, %v; want package game with Open and Game", g.Name, ok)
	}
	if f, ok := Lookup("fmt"); !ok || !f.Symbols["Sprintf"].IsValid() {
		t.Error("the standard library's fmt is not bound")
	}
	if _, ok := Lookup("github.com/grue-lab/grue/nonesuch"); ok {
		t.Error("Lookup found a package that is not bound")
	}
}

func TestDocOf(t *testing.T) {
	const game = "github.com/grue-lab/grue/game"
	for _, tc := range []struct{ name, decl, text string }{
		{"", "package game", "Package game is grue's game layer"},
		{"Open", "func Open(nameOrPath string, opts ...Option) (*Game, error)", "Open finds the story"},
		{"Game.Step", "func (g *Game) Step(action string) (StepResult, error)", "Step plays one command"},
		{"GamesEnv", `GamesEnv = "GRUE_GAMES"`, "GamesEnv names the environment variable"},
		{"Game", "type Game struct", "Game is one running story"},
	} {
		d, ok := DocOf(game, tc.name)
		if !ok || !strings.Contains(d.Decl, tc.decl) || !strings.HasPrefix(d.Text, tc.text) {
			t.Errorf("DocOf(game, %q) = %+v, %v; want decl with %q, text starting %q", tc.name, d, ok, tc.decl, tc.text)
		}
	}
	if _, ok := DocOf(game, "Nonesuch"); ok {
		t.Error("DocOf found a symbol that does not exist")
	}
	var names []string
	for _, d := range Docs(game) {
		names = append(names, d.Name)
	}
	if !slices.Contains(names, "Open") || !slices.Contains(names, "Game.Undo") || slices.Contains(names, "") {
		t.Errorf("Docs(game) = %v; want Open and Game.Undo, without the package entry", names)
	}
}

// TestInterfaceWrappers: the interfaces that a script implements to change
// the agent come with yaegi's wrapper types, without which a type written
// in a script cannot be given where the interface is wanted.
func TestInterfaceWrappers(t *testing.T) {
	for _, tc := range []struct{ pkg, iface string }{
		{"github.com/grue-lab/grue/agent", "Policy"},
		{"github.com/grue-lab/grue/agent", "PromptBuilder"},
		{"github.com/grue-lab/grue/agent/memory", "Strategy"},
		{"github.com/grue-lab/grue/agent/tools", "Tool"},
		{"github.com/grue-lab/grue/agent/llm", "Client"},
		{"github.com/grue-lab/grue/eval", "Verifier"},
	} {
		p, ok := Lookup(tc.pkg)
		if !ok {
			t.Errorf("%s is not bound", tc.pkg)
			continue
		}
		iface, wrapper := p.Symbols[tc.iface], p.Symbols["_"+tc.iface]
		if !iface.IsValid() || !wrapper.IsValid() {
			t.Errorf("%s.%s: interface bound %v, wrapper bound %v", p.Name, tc.iface, iface.IsValid(), wrapper.IsValid())
			continue
		}
		it := iface.Type().Elem()
		if wt := wrapper.Type().Elem(); !wt.Implements(it) {
			t.Errorf("%s.%s's wrapper %s does not implement it", p.Name, tc.iface, wt)
		}
	}
}
