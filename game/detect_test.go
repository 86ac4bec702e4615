package game

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/game/validactions"
	"github.com/grue-lab/grue/game/zmachine"
	"github.com/grue-lab/grue/internal/testgames"
)

// corpusScores is what each corpus game prints for SCORE at its start: its
// maximum score, or 0 for a game that keeps none (its SCORE says "out of a
// possible 0" or gives no score at all). The corpus README lists the
// maxima it knows; the others were read from the games under dfrotz.
var corpusScores = map[string]int{
	"amish": 0, "break-in": 150, "building": 250, "bunny": 60, "candy": 41,
	"causality": 0, "cavetrip": 500, "cheater": 0, "cia": 0, "death": 100,
	"fable": 50, "frozen": 0, "lily": 10, "mansion": 68, "minster": 50,
	"parallel": 150, "piracy_2": 0, "sherbet": 30, "spot": 1000,
}

// openCorpus opens corpus/NAME.z5 and presses Return through any "press a
// key" screens before the first prompt.
func openCorpus(t *testing.T, name string) *Game {
	t.Helper()
	return openCorpusTB(t, name)
}

// openCorpusTB is openCorpus for tests and benchmarks.
func openCorpusTB(t testing.TB, name string) *Game {
	t.Helper()
	g, err := Open(testgames.Path(t, filepath.Join("corpus", name+".z5")))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5 && g.Machine().State() == zmachine.WaitKey; i++ {
		if _, err := g.Step(""); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestScoringCorpus checks that grue finds, in games nobody catalogued,
// the maximum score and the globals holding score and turns, and says so
// when a game keeps no score: never a negative number.
func TestScoringCorpus(t *testing.T) {
	for name, want := range corpusScores {
		t.Run(name, func(t *testing.T) {
			g := openCorpus(t, name)
			s := g.Scoring()
			if want == 0 {
				if s.HasScore || g.MaxScore() != 0 || s.Reason == "" {
					t.Errorf("a game without a score: got %+v, want HasScore false, MaxScore 0 and a reason", s)
				}
				return
			}
			if !s.HasScore || g.MaxScore() != want || s.ScoreGlobal < 0 {
				t.Errorf("got %+v, want a score out of %d read from a global", s, want)
			}
			if s.Method != "score command probe" {
				t.Errorf("method %q, want the score command probe", s.Method)
			}
		})
	}
}

// TestScoringComputed checks the Phoenix library games, whose SCORE
// computes the score rather than printing a global: the maximum is found,
// the score is reported as unreadable, and Parc's is found only once its
// opening question is answered.
func TestScoringComputed(t *testing.T) {
	for _, c := range []struct {
		name   string
		answer string
		max    int
	}{{"BrandX", "", 300}, {"Parc", "n", 400}} {
		t.Run(c.name, func(t *testing.T) {
			g := openCorpus(t, c.name)
			if c.answer != "" {
				if g.MaxScore() != 0 {
					t.Errorf("max score %d before the question is answered", g.MaxScore())
				}
				if _, err := g.Step(c.answer); err != nil {
					t.Fatal(err)
				}
			}
			s := g.Scoring()
			if g.MaxScore() != c.max || s.HasScore || s.Reason == "" {
				t.Errorf("got %+v, want max %d, HasScore false and a reason", s, c.max)
			}
		})
	}
}

// TestScoreMatchesGame plays a few commands in each corpus game and checks
// that Score and Moves equal what the game's own SCORE prints then.
func TestScoreMatchesGame(t *testing.T) {
	script := []string{"look", "inventory", "north", "south", "east", "take all", "west", "up", "down", "wait", "examine me"}
	for name, want := range corpusScores {
		t.Run(name, func(t *testing.T) {
			g := openCorpus(t, name)
			for _, cmd := range script {
				if g.Done() || g.Machine().State() != zmachine.WaitLine {
					break
				}
				if _, err := g.Step(cmd); err != nil {
					t.Fatal(err)
				}
			}
			if g.Machine().State() != zmachine.WaitLine {
				t.Skipf("%s is not at a prompt after the script", name)
			}
			f, err := g.Fork()
			if err != nil {
				t.Fatal(err)
			}
			r, err := f.Step("score")
			if err != nil {
				t.Fatal(err)
			}
			var score, moves = -1, -1
			for _, n := range scoreNumbers(r.Observation) {
				switch {
				case n.kind == numScore && score < 0:
					score = n.value
				case n.kind == numMoves && moves < 0:
					moves = n.value
				}
			}
			if want > 0 && score != g.Score() {
				t.Errorf("Score() = %d, the game says %d: %q", g.Score(), score, r.Observation)
			}
			if moves >= 0 && g.Scoring().MovesGlobal >= 0 && moves != g.Moves() {
				t.Errorf("Moves() = %d, the game says %d: %q", g.Moves(), moves, r.Observation)
			}
			if g.Score() < 0 || g.MaxScore() < 0 || g.Moves() < 0 {
				t.Errorf("negative figures: score %d max %d moves %d", g.Score(), g.MaxScore(), g.Moves())
			}
		})
	}
}

// TestScoreNumbers pins down how the numbers of a SCORE reply are told
// apart.
func TestScoreNumbers(t *testing.T) {
	for _, c := range []struct {
		reply             string
		score, max, moves int
	}{
		{"You have so far scored 3 out of a possible 50, in 12 turns.", 3, 50, 12},
		{"If you were to stop now, you would score 0 points out of\na maximum of 300.", 0, 300, -1},
		{"Your score is 10 (total of 350 points), in 25 moves.", 10, 350, 25},
		{"You have achieved 0 out of 250 experience points.", 0, 250, -1},
		{"However, you have used 7 moves.", -1, -1, 7},
	} {
		got := map[numberKind]int{numScore: -1, numMax: -1, numMoves: -1}
		for _, n := range scoreNumbers(c.reply) {
			if got[n.kind] == -1 {
				got[n.kind] = n.value
			}
		}
		if got[numScore] != c.score || got[numMax] != c.max || got[numMoves] != c.moves {
			t.Errorf("%q: score %d max %d moves %d, want %d %d %d", c.reply, got[numScore], got[numMax], got[numMoves], c.score, c.max, c.moves)
		}
	}
}

// TestScoringKnownGame checks that a catalogued game keeps the catalog's
// facts.
func TestScoringKnownGame(t *testing.T) {
	g, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	s := g.Scoring()
	if s.Method != "catalog" || !s.HasScore || s.MaxScore != g.entry.MaxScore || !strings.Contains(g.Name(), "lantern") {
		t.Errorf("lantern: %+v", s)
	}
}

// TestLocationCorpus checks that grue finds the player and the location in
// every corpus game, Inform library or not (the Phoenix library's games
// keep neither in global 0: their player is found as the object that moves
// when the player walks), and that walking somewhere changes the location.
func TestLocationCorpus(t *testing.T) {
	names := []string{"BrandX", "Parc"}
	for name := range corpusScores {
		names = append(names, name)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			g := openCorpus(t, name)
			if name == "Parc" {
				if _, err := g.Step("n"); err != nil { // its opening question
					t.Fatal(err)
				}
			}
			room, from := g.Location()
			if g.Player() == 0 || from == 0 {
				t.Fatalf("player %d, location %d: want both known", g.Player(), from)
			}
			if name == "parallel" && room != "Bedroom" {
				// Its rooms' names are printed by routines: the name
				// comes from the status line.
				t.Errorf("location %q, want Bedroom", room)
			}
			switch name {
			case "amish", "spot", "piracy_2", "break-in", "sherbet":
				// Every move is refused in the first room (break-in's
				// player sits on a chair, sherbet's rides in a procession).
				return
			case "cia":
				// Its SOUTH describes the lobby but leaves the player in
				// the street (dfrotz shows the same).
				return
			}
			for _, dir := range validactions.Directions() {
				f, err := g.Fork()
				if err != nil {
					t.Fatal(err)
				}
				if _, err := f.Step(dir); err != nil {
					continue
				}
				if _, to := f.Location(); to != 0 && to != from {
					return
				}
			}
			t.Errorf("no direction changes the location from %d", from)
		})
	}
}

// TestEndGlobalCorpus checks that the end flag found in uncatalogued
// games (the Inform library's deadflag) decides Done and Victory: set to
// 1 it is a death, set to 2 a win, whatever the reply says.
func TestEndGlobalCorpus(t *testing.T) {
	for _, name := range []string{"candy", "minster", "cheater", "lily"} {
		t.Run(name, func(t *testing.T) {
			g := openCorpus(t, name)
			eg := g.Scoring().EndGlobal
			if eg < 0 {
				t.Fatalf("no end flag found: %+v", g.Scoring())
			}
			for _, c := range []struct {
				v             uint16
				done, victory bool
			}{{1, true, false}, {2, true, true}} {
				f, err := g.Fork()
				if err != nil {
					t.Fatal(err)
				}
				if err := f.Machine().SetGlobal(eg, c.v); err != nil {
					t.Fatal(err)
				}
				r, err := f.Step("wait")
				if err != nil {
					t.Fatal(err)
				}
				if r.Done != c.done || r.Victory != c.victory {
					t.Errorf("end flag %d: Done %v Victory %v, want %v %v (%q)", c.v, r.Done, r.Victory, c.done, c.victory, r.Observation)
				}
			}
			r, err := g.Step("wait")
			if err != nil || r.Done {
				t.Errorf("an ordinary turn ends the game: %v %q", err, r.Observation)
			}
		})
	}
}

// TestScoringStatusLine plays the test story that draws its own status
// line in the upper window and has no SCORE command, as Infocom's games of
// version 4 and 5 do: score and moves are read from the globals behind the
// status line.
func TestScoringStatusLine(t *testing.T) {
	g := openTestStory(t, "statusline.z5")
	s := g.Scoring()
	if s.Method != "status line" || !s.HasScore || s.ScoreGlobal < 0 || s.MovesGlobal < 0 {
		t.Fatalf("got %+v, want score and moves read through the status line", s)
	}
	for _, cmd := range []string{"climb", "wait", "climb"} {
		if _, err := g.Step(cmd); err != nil {
			t.Fatal(err)
		}
	}
	if g.Score() != 2 || g.Moves() != 3 {
		t.Errorf("score %d moves %d, want 2 and 3 (status line %q)", g.Score(), g.Moves(), g.Machine().StatusLine())
	}
	if g.MaxScore() != 0 {
		t.Errorf("max score %d: a status line gives none", g.MaxScore())
	}
}
