package game

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/grue-lab/grue/game/stories"
)

var gainRE = regexp.MustCompile(`\[(?:Your|The) score has just gone up by (\w+) points?\.\]`)

var numberWords = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
	"six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "fifteen": 15, "twenty": 20}

// TestLantern plays the default story's walkthrough, opened by name and by
// "", and checks score, moves and location against the text and the end.
func TestLantern(t *testing.T) {
	for _, name := range []string{"lantern", ""} {
		t.Run(strconv.Quote(name), func(t *testing.T) {
			t.Setenv(GamesEnv, "")
			g, err := Open(name, Seed(12))
			if err != nil {
				t.Fatal(err)
			}
			e, ok := g.Entry()
			if !ok || e.Name != "lantern" || !e.Builtin || g.MaxScore() != 60 || g.Name() != "lantern" {
				t.Fatalf("entry %+v, %v; name %q", e, ok, g.Name())
			}
			if loc, _ := g.Location(); loc != "Meadow" {
				t.Errorf("starts in %q", loc)
			}
			cmds, err := e.Commands()
			if err != nil || len(cmds) == 0 {
				t.Fatalf("walkthrough: %v, %d commands", err, len(cmds))
			}
			var res StepResult
			for i, c := range cmds {
				res, err = g.Step(c)
				if err != nil {
					t.Fatal(err)
				}
				want := 0
				if m := gainRE.FindStringSubmatch(res.Observation); m != nil {
					if want, err = strconv.Atoi(m[1]); err != nil {
						want = numberWords[m[1]]
					}
				}
				if res.Reward != want {
					t.Errorf("step %d %q: reward %d, the text says %d", i+1, c, res.Reward, want)
				}
				if res.Info.Moves != i+1 {
					t.Errorf("step %d %q: moves %d", i+1, c, res.Info.Moves)
				}
				if res.Done != (i == len(cmds)-1) {
					t.Errorf("step %d %q: done %v", i+1, c, res.Done)
				}
			}
			if !res.Done || !res.Victory || res.Info.Score != 60 || g.Score() != g.MaxScore() {
				t.Errorf("end: %+v", res)
			}
			if len(g.Map().Rooms()) < 10 {
				t.Errorf("the walkthrough saw only %d rooms:\n%s", len(g.Map().Rooms()), g.Map())
			}
		})
	}
	if stories.MaxScore != 60 {
		t.Errorf("stories.MaxScore %d", stories.MaxScore)
	}
}
