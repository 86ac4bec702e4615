package game

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/internal/testgames"
)

func openGlulxTest(t *testing.T, name string, opts ...Option) *Game {
	t.Helper()
	g, err := Open(testgames.Path(t, "glulx/corpus/"+name), append([]Option{Seed(1)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if !g.IsGlulx() || g.Machine() != nil || g.GlulxMachine() == nil {
		t.Fatalf("%s: opened as a Z-machine game", name)
	}
	return g
}

func TestParseStatus(t *testing.T) {
	for _, c := range []struct {
		line         string
		loc          string
		score, moves int
		known        bool
	}{
		{" At End Of Road                                      Score: 36    Moves: 1", "At End Of Road", 36, 1, true},
		{" -= Bedroom =-                                                  0/2", "-= Bedroom =-", 0, 2, true},
		{" Treasure Chamber          Score: -5     Turns: 12", "Treasure Chamber", -5, 12, true},
		{" Kitchen", "Kitchen", 0, 0, false},
		{" Hall                 9:05 am", "Hall", 0, 0, false},
		{"", "", 0, 0, false},
	} {
		st := parseStatus(c.line)
		if st.location != c.loc || st.score != c.score || st.moves != c.moves || st.scoreKnown != c.known {
			t.Errorf("parseStatus(%q) = %+v, want %q %d/%d known %v", c.line, st, c.loc, c.score, c.moves, c.known)
		}
	}
}

// An Inform 6 Glulx game is a research game: score, maximum, moves and
// the room read from it, undo, fork and restore through the machine's
// snapshots.
func TestGlulxAdvent(t *testing.T) {
	g := openGlulxTest(t, "Advent-i641.ulx")
	in := g.Info()
	if in.Score != 36 || !in.ScoreKnown || in.MaxScore != 350 || in.Moves != 0 || !in.MovesKnown || in.Location != "At End Of Road" {
		t.Fatalf("start: %+v", in)
	}
	if m := g.Scoring().Method; !strings.Contains(m, "score and turns in RAM") {
		t.Errorf("scoring method: %q", m)
	}
	start := g.Save()
	r, err := g.Step("in")
	if err != nil {
		t.Fatal(err)
	}
	if r.Info.Location != "Inside Building" || r.Info.Moves != 1 || r.Done || !strings.Contains(r.Observation, "Inside Building") {
		t.Fatalf("after in: %+v", r)
	}
	f, err := g.Fork()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Step("out"); err != nil {
		t.Fatal(err)
	}
	if loc, _ := f.Location(); loc != "At End Of Road" {
		t.Errorf("fork after out: %q", loc)
	}
	if loc, _ := g.Location(); loc != "Inside Building" {
		t.Errorf("the fork moved the game: %q", loc)
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if in := g.Info(); in.Location != "At End Of Road" || in.Moves != 0 {
		t.Errorf("after undo: %+v", in)
	}
	if err := g.Undo(); !errors.Is(err, ErrNoUndo) {
		t.Errorf("second undo: %v", err)
	}
	if err := f.Restore(start); err != nil {
		t.Fatal(err)
	}
	if in := f.Info(); in.Location != "At End Of Road" || in.Moves != 0 {
		t.Errorf("fork restored to the start: %+v", in)
	}
	// Z-machine features not yet read from a Glulx story say so.
	if _, err := g.ValidActions(); err == nil || !strings.Contains(err.Error(), "not available for Glulx") {
		t.Errorf("ValidActions: %v", err)
	}
	if g.Map() != nil || g.ValidActionsSearch() != nil {
		t.Error("map or valid actions search given for a Glulx game")
	}
	// The nil map is safe to use, and says it is not there.
	if m := g.Map(); m.Rooms() != nil || m.Current() != 0 || m.Path(1, 2) != nil || !strings.Contains(m.String(), "not available") {
		t.Errorf("nil map: %q", m.String())
	}
	rep := g.Report()
	if !rep.HasScore || rep.MaxScore != 350 || rep.Location != "At End Of Road" || rep.Title != "ADVENTURE" {
		t.Errorf("report: %+v", rep)
	}
	// A Z-machine state is refused.
	z := openTest(t, "zork1.z3")
	if err := g.Restore(z.Save()); err == nil {
		t.Error("a Z-machine state restored into a Glulx game")
	}
}

// An Inform 6 game won: the reward, the banner, victory.
func TestGlulxVictory(t *testing.T) {
	g := openGlulxTest(t, "Score_Notifications.ulx")
	if in := g.Info(); in.MaxScore != 5 || !in.ScoreKnown || in.Location != "Treasure Chamber" {
		t.Fatalf("start: %+v", in)
	}
	if m := g.Scoring().Method; !strings.Contains(m, "deadflag in RAM") {
		t.Errorf("scoring method: %q", m)
	}
	r, err := g.Step("take all")
	if err != nil {
		t.Fatal(err)
	}
	if !r.Done || !r.Victory || r.Reward != 5 || r.Info.Score != 5 {
		t.Fatalf("take all: done %v victory %v reward %d %+v", r.Done, r.Victory, r.Reward, r.Info)
	}
	// A wrong answer to the final question leaves it over and won.
	if r, err = g.Step("xyzzy"); err != nil || !r.Done || !r.Victory {
		t.Fatalf("after the end: %+v %v", r, err)
	}
	// RESTART plays again.
	if r, err = g.Step("restart"); err != nil || r.Done || r.Victory || r.Info.Score != 0 {
		t.Fatalf("restart: %+v %v", r, err)
	}
}

// An Inform 7 game: its status line's score/turns, the maximum its SCORE
// gives.
func TestGlulxInform7(t *testing.T) {
	g := openGlulxTest(t, "tw-cooking-hard-68kvf8x7TBd9Iq0P.ulx")
	in := g.Info()
	if in.MaxScore != 8 || !in.ScoreKnown || in.Score != 0 || in.Moves != 1 || in.Location != "-= Bedroom =-" {
		t.Fatalf("start: %+v", in)
	}
	if m := g.Scoring().Method; !strings.Contains(m, "score and turns in RAM") {
		t.Errorf("scoring method: %q", m)
	}
	r, err := g.Step("look")
	if err != nil {
		t.Fatal(err)
	}
	if r.Info.Moves != 2 {
		t.Errorf("moves after look: %d", r.Info.Moves)
	}
	// A second game of the story finds the same, without probing again.
	g2, err := NewGlulx(g.gx.story, "again", Seed(3))
	if err != nil {
		t.Fatal(err)
	}
	if g2.Scoring() != g.Scoring() || g2.gx.scoreAddr == 0 || g2.gx.scoreAddr != g.gx.scoreAddr {
		t.Errorf("second game's scoring: %+v", g2.Scoring())
	}
	// A game without a score says so and reports it unknown.
	n := openGlulxTest(t, "i7-min-6M62-g.ulx")
	if in := n.Info(); in.ScoreKnown || in.MovesKnown || in.MaxScore != 0 || in.Location != "Kitchen" {
		t.Errorf("scoreless game: %+v", in)
	}
	if s := n.Scoring(); s.HasScore || s.Reason == "" {
		t.Errorf("scoreless game's scoring: %+v", s)
	}
	// Inform 7's nominal score ("0 out of a possible 0") is no score;
	// the turns still count.
	z := openGlulxTest(t, "The_Basics.ulx")
	if in, s := z.Info(), z.Scoring(); in.ScoreKnown || !in.MovesKnown || s.HasScore || s.Reason != "SCORE gives a maximum of 0" {
		t.Errorf("nominal score: %+v %+v", in, s)
	}
	// A story not compiled by Inform: its status window is no known
	// layout, so the room is unknown.
	a := openGlulxTest(t, "model.ulx")
	if in := a.Info(); in.Location != "" || in.ScoreKnown || in.MovesKnown {
		t.Errorf("non-Inform story: %+v", in)
	}
}

// A Glulx file is hostile input like any story: one cut short is refused
// with the loader's reason, and LoadStory sends a Glulx story to
// LoadGlulxStory rather than failing as a bad Z-machine file.
func TestGlulxLoad(t *testing.T) {
	path := testgames.Path(t, "glulx/corpus/Advent-i641.ulx")
	if _, _, err := LoadStory(path); !errors.Is(err, ErrGlulxStory) {
		t.Errorf("LoadStory of a Glulx story: %v", err)
	}
	gs, name, err := LoadGlulxStory(path)
	if err != nil || name != "Advent-i641" {
		t.Fatalf("LoadGlulxStory: %q %v", name, err)
	}
	g, err := NewGlulx(gs, name, Seed(1))
	if err != nil || g.Info().MaxScore != 350 {
		t.Fatalf("NewGlulx: %v", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.ulx")
	if err := os.WriteFile(cut, data[:300], 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(cut); err == nil || !strings.Contains(err.Error(), "ended unexpectedly") {
		t.Errorf("a cut Glulx story: %v", err)
	}
	if _, err := NewGlulx(nil, "x"); err == nil {
		t.Error("NewGlulx(nil) started")
	}
	if _, err := NewGlulxStory([]byte("Glul")); err == nil {
		t.Error("a 4-byte Glulx story accepted")
	}
}
