package game

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/internal/testgames"
)

// dfrotzTranscript plays cmds on the story at path under dfrotz with
// seed and returns its replies (SplitTranscript).
func dfrotzTranscript(t *testing.T, path string, seed string, cmds []string) []string {
	t.Helper()
	path, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(testgames.Dfrotz(t), "-m", "-p", "-q", "-s", seed, "-w", "80", path)
	cmd.Stdin = strings.NewReader(strings.Join(cmds, "\n") + "\n")
	cmd.Dir = t.TempDir()
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("dfrotz: %v", err)
	}
	return SplitTranscript(out.String())
}

// TestCheckWalkthroughZork1 replays the Zork I walkthrough on the story
// as an unknown game against dfrotz's transcript with the same seed:
// location, score and ending agree state by state, and the game is won at
// the end.
func TestCheckWalkthroughZork1(t *testing.T) {
	cmds := walkthrough(t, "zork1.walkthrough.txt")
	ref := dfrotzTranscript(t, testgames.Path(t, "zork1.z3"), "12", cmds)
	g, err := New(uncatalogued(t, "zork1.z3", 44, false), "story", Seed(12))
	if err != nil {
		t.Fatal(err)
	}
	c, err := CheckWalkthrough(g, cmds, ref)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(c)
	if !c.OK() || !c.Ended || !c.Won || c.Headings < 100 {
		for _, s := range c.States {
			if !s.LocationOK || !s.ScoreOK || !s.EndOK {
				t.Logf("%+v", s)
			}
		}
		t.Errorf("%v; want every state to agree and a win", c)
	}
}

// TestCheckWalkthroughStory checks the comparison on the infocom3 test
// story: a state where grue missed the ending would be counted.
func TestCheckWalkthroughStory(t *testing.T) {
	cmds := []string{"north", "south", "take", "score", "win"}
	ref := dfrotzTranscript(t, filepath.Join("testdata", "stories", "infocom3.z3"), "1", cmds)
	c, err := CheckWalkthrough(openInfocom3(t), cmds, ref)
	if err != nil {
		t.Fatal(err)
	}
	last := c.States[len(c.States)-1]
	if !c.OK() || !c.Won || c.Headings != 2 || c.States[3].RefScore != 5 || !last.RefEnd {
		t.Errorf("%v (states %+v); want all agreeing, a win, 2 headings, score 5 printed", c, c.States)
	}
	// The same transcript against a game that never ends disagrees.
	c, _ = CheckWalkthrough(openInfocom3(t), cmds[:4], ref[:5])
	if c.EndErrors != 0 {
		t.Errorf("no ending in the first four: %v", c)
	}
	bad := append(append([]string{}, ref[:5]...), "You have found the way out.\n\nYour score is 10 (total of 10 points), in 5 moves.\n\n(Type RESTART, RESTORE, or QUIT):")
	c, _ = CheckWalkthrough(openInfocom3(t), []string{"north", "south", "take", "score", "wait"}, bad)
	if c.EndErrors != 1 || c.OK() {
		t.Errorf("an ending grue did not see: %v, want one ending error", c)
	}
}
