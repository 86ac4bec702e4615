package zmachine_test

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/grue-lab/grue/game/zmachine"
	"github.com/grue-lab/grue/internal/testgames"
)

// TestUndoDepthDifferential plays corpus games with few undo slots under
// dfrotz (-u N) and grue (UndoSlots N), with scripts that undo more turns
// than the slots hold, so that the oldest states are forgotten, and undo
// runs out, as in Frotz. grue keeps only the newest undo state's memory
// whole and the others as differences (undo.go): a wrong difference shows
// as a game that undoes to the wrong place.
func TestUndoDepthDifferential(t *testing.T) {
	dfrotz := testgames.Dfrotz(t)
	for _, name := range []string{"lily", "piracy_2", "spot"} {
		path := testgames.Path(t, filepath.Join("corpus", name+".z5"))
		story := loadGame(t, "corpus/"+name+".z5")
		for _, slots := range []int{1, 3} {
			t.Run(fmt.Sprintf("%s/slots%d", name, slots), func(t *testing.T) {
				t.Parallel()
				// Runs of moves, each followed by more undos than there
				// are slots; then moves again, to show where undo left
				// the game.
				moves := randomScript(t, story, 3, 48)
				var lines []string
				for i := 0; i < len(moves); i += 6 {
					lines = append(lines, moves[i:min(i+6, len(moves))]...)
					for range slots + 1 + i%3 {
						lines = append(lines, "undo")
					}
					lines = append(lines, "look")
				}
				const width = 255
				ref := dfrotzWarnings.ReplaceAllString(runDfrotz(t, dfrotz, path, 3, width, lines, "-u", strconv.Itoa(slots)), "")
				got := runGrue(story, zmachine.Options{Seed: 3, Width: width, Files: zmachine.DirFiles(t.TempDir()), Name: name, UndoSlots: slots}, lines)
				if report := compareTranscripts(ref, got, lines); report != "" {
					t.Errorf("grue differs from dfrotz -u %d\n%s", slots, report)
				}
				if n := strings.Count(normalize(ref), "turn undone"); n < 4 {
					t.Errorf("dfrotz undid %d turns; the script is meant to undo many", n)
				}
			})
		}
	}
}
