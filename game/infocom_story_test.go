package game

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/game/zmachine"
	"github.com/grue-lab/grue/internal/testgames"
)

// infocomStories are the game package's own test stories and their
// inform6 switches, as testdata/stories/build.sh builds them.
var infocomStories = []struct {
	source, output string
	switches       []string
}{
	{"infocom3.inf", "infocom3.z3", []string{"-q", "-w", "-v3", "-~S"}},
	{"nomax.inf", "nomax.z5", []string{"-q", "-w", "-v5", "-~S"}},
	{"time3.inf", "time3.z3", []string{"-q", "-w", "-v3", "-~S"}},
	{"timescore3.inf", "timescore3.z3", []string{"-q", "-w", "-v3", "-~S"}},
	{"sunglasses3.inf", "sunglasses3.z3", []string{"-q", "-w", "-v3", "-~S"}},
	{"infocom5.inf", "infocom5.z5", []string{"-q", "-w", "-v5", "-~S"}},
	{"libend.inf", "libend.z5", []string{"-q", "-w", "-v5", "-~S", "+include_path=/usr/share/inform6/library"}},
}

// TestInfocomStoriesRebuild compiles the test stories and checks that
// the committed story files are what their sources make.
func TestInfocomStoriesRebuild(t *testing.T) {
	inform := testgames.Tool(t, "inform6", "inform6-compiler")
	dir, err := filepath.Abs(filepath.Join("testdata", "stories"))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range infocomStories {
		out := filepath.Join(t.TempDir(), b.output)
		cmd := exec.Command(inform, append(append([]string{}, b.switches...), filepath.Join(dir, b.source), out)...)
		cmd.Dir = dir
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("inform6 %s: %v\n%s", b.source, err, msg)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(dir, b.output))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("testdata/stories/%s differs from what %s compiles to: run testdata/stories/build.sh and commit", b.output, b.source)
		}
	}
}

// openInfocom3 starts testdata/stories/infocom3.z3, a version 3 story
// without the Inform library that keeps score and ends as Infocom's
// games do.
func openInfocom3(t *testing.T) *Game { return openOwnStory(t, "infocom3.z3") }

// openOwnStory starts testdata/stories/NAME.
func openOwnStory(t *testing.T, name string) *Game {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "stories", name))
	if err != nil {
		t.Fatal(err)
	}
	s, err := zmachine.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(s, strings.TrimSuffix(name, filepath.Ext(name)))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// step plays cmd and fails the test on an error.
func step(t *testing.T, g *Game, cmd string) StepResult {
	t.Helper()
	r, err := g.Step(cmd)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestInfocomStoryScoreAndLocation checks score, maximum, moves and
// location on a version 3 score story: the maximum from its SCORE line,
// the location from global 0 (the room, also while the player sits in a
// box), the player found though its name is "player".
func TestInfocomStoryScoreAndLocation(t *testing.T) {
	g := openInfocom3(t)
	if s := g.Scoring(); !s.HasScore || g.MaxScore() != 10 || s.ScoreGlobal != 1 || s.MovesGlobal != 2 {
		t.Errorf("scoring %+v, want score in global 1, moves in global 2, out of 10", s)
	}
	if name := g.Machine().ObjectName(g.Player()); name != "player" {
		t.Errorf("player %d %q, want the object called player", g.Player(), name)
	}
	playing(t, g, []playState{
		{"north", "Dark Cellar", 0, 1},
		{"south", "Great Hall", 0, 2},
		{"take", "Great Hall", 5, 3},
		{"enter", "Great Hall", 5, 4},
		{"exit", "Great Hall", 5, 5},
		{"help", "Great Hall", 5, 6},
	})
}

// playState is a command and the location, score and moves after it.
type playState struct {
	cmd          string
	loc          string
	score, moves int
}

// playing plays each state's command on g and checks that the game plays
// on, at that location, score and moves.
func playing(t *testing.T, g *Game, states []playState) {
	t.Helper()
	for _, w := range states {
		r := step(t, g, w.cmd)
		if r.Done || r.Info.Location != w.loc || r.Info.Score != w.score || r.Info.Moves != w.moves {
			t.Errorf("after %q: done %v, location %q, score %d, moves %d; want playing at %q, %d, %d\n%s",
				w.cmd, r.Done, r.Info.Location, r.Info.Score, r.Info.Moves, w.loc, w.score, w.moves, r.Observation)
		}
	}
}

// TestInfocomStoryEndings checks the endings of a game without the Inform
// library's deadflag: a win at the maximum score and a death, each seen
// from the final score and the RESTART, RESTORE or QUIT question; the
// game plays on once RESTART answers it; QUIT halts it, a loss.
func TestInfocomStoryEndings(t *testing.T) {
	t.Run("win", func(t *testing.T) {
		g := openInfocom3(t)
		if r := step(t, g, "win"); !r.Done || !r.Victory || r.Info.Score != 10 {
			t.Errorf("win: done %v, victory %v, score %d; want a victory at 10\n%s", r.Done, r.Victory, r.Info.Score, r.Observation)
		}
	})
	t.Run("die", func(t *testing.T) {
		g := openInfocom3(t)
		if r := step(t, g, "die"); !r.Done || r.Victory {
			t.Errorf("die: done %v, victory %v; want a loss\n%s", r.Done, r.Victory, r.Observation)
		}
		if r := step(t, g, "restart"); r.Done || r.Info.Location != "Great Hall" {
			t.Errorf("restart: done %v at %q; want the game playing again in the Great Hall", r.Done, r.Info.Location)
		}
	})
	t.Run("quit", func(t *testing.T) {
		g := openInfocom3(t)
		step(t, g, "take")
		if r := step(t, g, "quit"); !r.Done || r.Victory || g.Machine().State() != zmachine.Halted {
			t.Errorf("quit: done %v, victory %v, machine %v; want a halted loss", r.Done, r.Victory, g.Machine().State())
		}
	})
}

// TestMovesAfterQuestion checks that the moves counter does not depend on
// when grue probed the game: a story whose SCORE gives no maximum is
// probed again after each turn, and a probe made while a question waits
// (its answer to SCORE is "Wrong: 2 tries left") must not replace the
// score and turns globals found before; the moves then count on, after a
// Save and Restore too.
func TestMovesAfterQuestion(t *testing.T) {
	g := openOwnStory(t, "nomax.z5")
	step(t, g, "dig")
	saved := g.Save()
	// The answers to the question are not turns: the story counts
	// only the commands of its main loop.
	cmds, moves := []string{"wait", "ask", "guess", "swordfish", "wait"}, []int{2, 3, 3, 3, 4}
	for i, cmd := range cmds {
		if r := step(t, g, cmd); r.Info.Moves != moves[i] || r.Info.Score != 2 {
			t.Errorf("after %q: moves %d, score %d; want %d and 2 (scoring %+v)", cmd, r.Info.Moves, r.Info.Score, moves[i], g.Scoring())
		}
	}
	if s := g.Scoring(); !s.HasScore || s.MaxScore != 0 || s.Reason == "" {
		t.Errorf("scoring %+v: want a score whose maximum is unknown, and why", s)
	}
	if err := g.Restore(saved); err != nil {
		t.Fatal(err)
	}
	cmds, moves = []string{"ask", "guess", "swordfish", "wait"}, []int{2, 2, 2, 3}
	for i, cmd := range cmds {
		if r := step(t, g, cmd); r.Info.Moves != moves[i] || r.Info.Score != 2 {
			t.Errorf("after the restore, %q: moves %d, score %d; want %d and 2 (scoring %+v)", cmd, r.Info.Moves, r.Info.Score, moves[i], g.Scoring())
		}
	}
}

// TestTimeGameHasNoScore checks a version 3 time game (Flags 1 bit 1):
// its status line globals hold the hours and minutes, not a score and
// moves, so the score and the moves are unknown, not 9 and 5 (nor 0).
func TestTimeGameHasNoScore(t *testing.T) {
	g := openOwnStory(t, "time3.z3")
	r := step(t, g, "wait")
	if s := g.Scoring(); s.HasScore || s.Reason == "" || g.MaxScore() != 0 {
		t.Errorf("scoring %+v: want no score, and why", s)
	}
	if i := r.Info; i.ScoreKnown || i.MovesKnown || i.Score != 0 || i.Moves != 0 {
		t.Errorf("info %+v: want score and moves unknown", i)
	}
	if r.Info.Location != "Bedroom" {
		t.Errorf("location %q, want Bedroom", r.Info.Location)
	}
}

// TestScoreKnown checks that a score game says its score and moves are
// read from it, even while they are 0.
func TestScoreKnown(t *testing.T) {
	g := openInfocom3(t)
	if i := g.Info(); !i.ScoreKnown || !i.MovesKnown || i.Score != 0 || i.MaxScore != 10 {
		t.Errorf("info %+v: want score 0 of 10 and moves, known", i)
	}
	g = openOwnStory(t, "nomax.z5")
	if i := g.Info(); !i.ScoreKnown || !i.MovesKnown || i.MaxScore != 0 {
		t.Errorf("nomax: info %+v: want score and moves known, the maximum unknown (0)", i)
	}
}

// TestInfocom5Story checks a version 5 story laid out as Infocom's later
// games: the score in a global of its own (not the status line's global
// 1), read from "Your score is N of a possible 40, in T turns."; the win
// seen at the final question (Planetfall's "(Type RESTART, RESTORE, or
// QUIT.)"), and still over after a wrong answer to it; and two things
// that look like endings while the game plays on at its command prompt:
// a flag that makes every turn print a "*** ... ***" banner (the probe
// takes it for deadflag, as Planetfall was declared over at command 357
// of 399), and a hint that prints a score line and the question.
func TestInfocom5Story(t *testing.T) {
	g := openOwnStory(t, "infocom5.z5")
	if s := g.Scoring(); !s.HasScore || s.MaxScore != 40 || s.ScoreGlobal != 8 || s.MovesGlobal != 6 {
		t.Errorf("scoring %+v, want score in global 8, turns in global 6, out of 40", s)
	}
	playing(t, g, []playState{
		{"down", "Cargo Hold", 0, 1},
		{"search", "Cargo Hold", 10, 2},
		{"hint", "Cargo Hold", 10, 3},
		{"up", "Upper Deck", 10, 4},
		{"ring", "Upper Deck", 10, 5},
		{"wait", "Upper Deck", 10, 6},
		{"wait", "Upper Deck", 10, 7},
	})
	if r := step(t, g, "win"); !r.Done || !r.Victory || r.Info.Score != 40 {
		t.Errorf("win: done %v, victory %v, score %d; want a victory at 40\n%s", r.Done, r.Victory, r.Info.Score, r.Observation)
	}
	if r := step(t, g, "look"); !r.Done || !r.Victory {
		t.Errorf("a wrong answer to the final question: done %v, victory %v; want the victory to stand\n%s", r.Done, r.Victory, r.Observation)
	}
	if r := step(t, g, "restart"); r.Done || r.Info.Location != "Upper Deck" || r.Info.Score != 0 {
		t.Errorf("restart: done %v at %q, score %d; want the game playing again from the start", r.Done, r.Info.Location, r.Info.Score)
	}
	if r := step(t, g, "die"); !r.Done || r.Victory {
		t.Errorf("die: done %v, victory %v; want a loss\n%s", r.Done, r.Victory, r.Observation)
	}
	g = openOwnStory(t, "infocom5.z5")
	if r := step(t, g, "quit"); !r.Done || r.Victory || g.Machine().State() != zmachine.Halted {
		t.Errorf("quit: done %v, victory %v, machine %v; want a halted loss", r.Done, r.Victory, g.Machine().State())
	}
}

// TestLibraryEndings checks the Inform library's endings on a story of
// its own: deadflag 2 a victory, 1 a death, 3 (a DeathMessage of the
// game's, "*** You have escaped ***") over but not won; each still over
// after a wrong answer to the final question, and playing again after
// RESTART; a banner the game prints in play ends nothing.
func TestLibraryEndings(t *testing.T) {
	g := openOwnStory(t, "libend.z5")
	if r := step(t, g, "examine sign"); r.Done || !strings.Contains(r.Observation, "*** You have won ***") {
		t.Errorf("examine sign: done %v; want the game playing on past the sign's banner\n%s", r.Done, r.Observation)
	}
	for _, c := range []struct {
		cmd     string
		victory bool
	}{{"win", true}, {"perish", false}, {"escape", false}} {
		if r := step(t, g, c.cmd); !r.Done || r.Victory != c.victory {
			t.Errorf("%s: done %v, victory %v; want over, victory %v\n%s", c.cmd, r.Done, r.Victory, c.victory, r.Observation)
		}
		if r := step(t, g, "xyzzy"); !r.Done || r.Victory != c.victory {
			t.Errorf("%s, then a wrong answer: done %v, victory %v; want the ending to stand\n%s", c.cmd, r.Done, r.Victory, r.Observation)
		}
		if r := step(t, g, "restart"); r.Done || r.Info.Location != "Yard" {
			t.Errorf("%s, then restart: done %v at %q; want playing in the Yard", c.cmd, r.Done, r.Info.Location)
		}
	}
}

// TestTimeGameWithScore checks a version 3 time game that keeps a score
// only SCORE prints, as Cutthroats (out of 250) and Seastalker do: the
// header flag makes globals 1 and 2 the clock, not score and moves, and
// the score, its maximum and the turns are found apart from them (grue
// read such games as 0 out of 0).
func TestTimeGameWithScore(t *testing.T) {
	g := openOwnStory(t, "timescore3.z3")
	if s := g.Scoring(); !s.HasScore || s.MaxScore != 250 || s.ScoreGlobal != 5 || s.MovesGlobal != 4 {
		t.Errorf("scoring %+v: want the score in global 5 out of 250, the turns in global 4", s)
	}
	step(t, g, "wait")
	r := step(t, g, "dive")
	if i := r.Info; !i.ScoreKnown || i.Score != 25 || i.MaxScore != 250 || !i.MovesKnown || i.Moves != 2 {
		t.Errorf("after dive: info %+v; want score 25 of 250 in 2 moves", i)
	}
}

// TestScoreAfterReturn checks a game whose SCORE waits for RETURN before
// it prints the score, as The Hitchhiker's Guide's does: the probe
// answers the pause and finds the maximum, 400, in the line after (grue
// read the Guide's maximum as 0).
func TestScoreAfterReturn(t *testing.T) {
	g := openOwnStory(t, "sunglasses3.z3")
	if s := g.Scoring(); !s.HasScore || s.MaxScore != 400 || s.ScoreGlobal != 1 || s.MovesGlobal != 2 {
		t.Errorf("scoring %+v: want the status line's score and turns, out of 400", s)
	}
	if r := step(t, g, "lie"); r.Info.Score != 12 || r.Info.MaxScore != 400 || r.Info.Moves != 1 {
		t.Errorf("after lie: info %+v; want 12 of 400 in 1 move", r.Info)
	}
}

// TestLocationWithContainer checks that the location stays the room while
// the player sits in something there, and that the container is named
// beside it.
func TestLocationWithContainer(t *testing.T) {
	g := openInfocom3(t)
	r := step(t, g, "enter")
	if i := r.Info; i.Location != "Great Hall" || i.Container != "wooden box" || i.ContainerID == 0 {
		t.Errorf("in the box: location %q, container %q (%d); want the Great Hall and the wooden box", i.Location, i.Container, i.ContainerID)
	}
	r = step(t, g, "exit")
	if i := r.Info; i.Location != "Great Hall" || i.Container != "" || i.ContainerID != 0 {
		t.Errorf("out of the box: location %q, container %q (%d); want the Great Hall and no container", i.Location, i.Container, i.ContainerID)
	}
}

// TestInformLocationWrongPlayer checks that an Inform game whose player
// was found wrong, in no room with a name (here the library's compass, an
// object out of play), still reports the room its status line names.
func TestInformLocationWrongPlayer(t *testing.T) {
	g := openOwnStory(t, "libend.z5")
	if loc, _ := g.Location(); loc != "Yard" {
		t.Fatalf("location %q, want Yard", loc)
	}
	compass := uint16(0)
	for o := 1; o <= g.objects; o++ {
		if g.m.ObjectName(uint16(o)) == "compass" {
			compass = uint16(o)
		}
	}
	if compass == 0 {
		t.Fatal("no compass object")
	}
	g.player = compass
	if loc, _ := g.Location(); loc != "Yard" {
		t.Errorf("with the player taken for the compass: location %q, want Yard", loc)
	}
}

// TestLibraryEndingsCorpus checks the endings of the corpus games whose
// deadflag grue finds, on each game's own library: the flag set, a turn
// ends the game where the library asks its final question (read apart
// from the command prompt), a death and not a win, and a wrong answer to
// the question leaves it over.
func TestLibraryEndingsCorpus(t *testing.T) {
	for _, name := range []string{"break-in", "bunny", "candy", "causality", "cavetrip", "cheater", "cia",
		"death", "fable", "frozen", "lily", "mansion", "minster", "parallel", "piracy_2", "sherbet", "spot"} {
		t.Run(name, func(t *testing.T) {
			g := openCorpus(t, name)
			eg := g.Scoring().EndGlobal
			if eg < 0 {
				t.Fatalf("no end flag found (scoring %+v)", g.Scoring())
			}
			if r := step(t, g, "wait"); r.Done {
				t.Fatalf("over after a wait\n%s", r.Observation)
			}
			if err := g.Machine().SetGlobal(eg, 1); err != nil {
				t.Fatal(err)
			}
			if r := step(t, g, "wait"); !r.Done || r.Victory {
				t.Errorf("deadflag 1, then a turn: done %v, victory %v; want a death\n%s", r.Done, r.Victory, r.Observation)
			}
			if r := step(t, g, "xyzzy"); !r.Done || r.Victory {
				t.Errorf("a wrong answer to the final question: done %v, victory %v; want the death to stand\n%s", r.Done, r.Victory, r.Observation)
			}
		})
	}
}
