package game

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var scoreRE = regexp.MustCompile(`Your score is (-?\d+)`)

// roomNames returns the names of the rooms of a catalog game: the children
// of its rooms object.
func roomNames(g *Game) map[string]bool {
	e, _ := g.Entry()
	names := map[string]bool{}
	for _, o := range g.WorldObjects() {
		if o.Parent == e.Rooms {
			names[o.Name] = true
		}
	}
	return names
}

func hasObject(objs []Object, id uint16) bool {
	for _, o := range objs {
		if o.ID == id {
			return true
		}
	}
	return false
}

// TestZork1Walkthrough plays the whole Zork I walkthrough at seed 12 and
// holds what the tree says against what the text says at every step.
func TestZork1Walkthrough(t *testing.T) {
	g := openTest(t, "zork1.z3")
	cmds := walkthrough(t, "zork1.walkthrough.txt")
	rooms := roomNames(g)
	if len(rooms) < 60 {
		t.Fatalf("only %d rooms under the rooms object", len(rooms))
	}
	var titles, scores, takes int
	for i, cmd := range cmds {
		before := g.Inventory()
		res, err := g.Step(cmd)
		if err != nil {
			t.Fatalf("step %d %q: %v", i+1, cmd, err)
		}
		obs := res.Observation
		where := func() string {
			return "step " + strconv.Itoa(i+1) + " " + strconv.Quote(cmd) + ": " + strconv.Quote(obs)
		}

		// A room title names the player's room: the title on the first
		// line, or the last one when the player moved more than once
		// ("Wait" in the boat) or something came before it ("(magic boat)").
		title := ""
		for _, line := range strings.Split(obs, "\n") {
			line = strings.TrimSpace(line)
			if k := strings.Index(line, ", in the "); k > 0 {
				line = line[:k] // "Frigid River, in the magic boat"
			}
			if rooms[line] {
				title = line
			}
		}
		if title != "" {
			titles++
			if res.Info.Location != title {
				t.Errorf("%s: text says %q, tree says %q", where(), title, res.Info.Location)
			}
		}
		if name, id := g.Location(); name != res.Info.Location || id != res.Info.LocationID {
			t.Errorf("%s: Info %q/%d, Location %q/%d", where(), res.Info.Location, res.Info.LocationID, name, id)
		}

		// The score the game prints is the score in the machine.
		if m := scoreRE.FindStringSubmatch(obs); m != nil {
			scores++
			if n, _ := strconv.Atoi(m[1]); n != res.Info.Score {
				t.Errorf("%s: text score %d, machine score %d", where(), n, res.Info.Score)
			}
		}
		// And on a fork, now and then, without disturbing the main game.
		if i%40 == 0 {
			f, err := g.Fork()
			if err != nil {
				t.Fatal(err)
			}
			fr, err := f.Step("score")
			if err != nil {
				t.Fatal(err)
			}
			m := scoreRE.FindStringSubmatch(fr.Observation)
			if m == nil {
				t.Fatalf("%s: score on a fork: %q", where(), fr.Observation)
			}
			scores++
			if n, _ := strconv.Atoi(m[1]); n != g.Score() {
				t.Errorf("%s: fork says score %d, machine %d", where(), n, g.Score())
			}
		}

		// What is taken is carried; what is dropped is not.
		lc := strings.ToLower(cmd)
		after := g.Inventory()
		if (strings.HasPrefix(lc, "get ") || strings.HasPrefix(lc, "take ")) && obs == "Taken." {
			takes++
			var added []Object
			for _, o := range after {
				if !hasObject(before, o.ID) {
					added = append(added, o)
				}
			}
			if len(added) != 1 {
				t.Errorf("%s: inventory gained %v", where(), added)
			} else if lc == "get egg" && !strings.Contains(added[0].Name, "egg") {
				t.Errorf("%s: took %q", where(), added[0].Name)
			}
			for _, o := range after {
				if o.Parent != g.Player() {
					t.Errorf("%s: inventory object %q has parent %d", where(), o.Name, o.Parent)
				}
			}
		}
		if strings.HasPrefix(lc, "drop ") && obs == "Dropped." && len(after) != len(before)-1 {
			t.Errorf("%s: inventory %d before, %d after", where(), len(before), len(after))
		}

		last := i == len(cmds)-1
		if res.Done != last {
			t.Fatalf("%s: Done=%v", where(), res.Done)
		}
		if last {
			if !res.Victory || res.Info.Score != 350 || res.Info.MaxScore != 350 {
				t.Errorf("%s: victory %v, score %d/%d", where(), res.Victory, res.Info.Score, res.Info.MaxScore)
			}
			if res.Info.Moves != 394 {
				t.Errorf("final moves %d, the game says 394", res.Info.Moves)
			}
		}
	}
	if titles < 150 || scores < 5 || takes < 10 {
		t.Errorf("checked only %d room titles, %d scores, %d takes", titles, scores, takes)
	}
	t.Logf("checked %d room titles, %d scores, %d takes", titles, scores, takes)
}

// play runs commands and returns the observations.
func play(t *testing.T, g *Game, cmds []string) []string {
	t.Helper()
	var out []string
	for _, c := range cmds {
		r, err := g.Step(c)
		if err != nil {
			t.Fatalf("%q: %v", c, err)
		}
		out = append(out, r.Observation)
	}
	return out
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestBranching checks that Save/Restore, Fork, Undo and Reset give the
// same continuations, random events (the troll fight) included.
func TestBranching(t *testing.T) {
	cmds := walkthrough(t, "zork1.walkthrough.txt")
	head, tail := cmds[:25], cmds[25:45]
	g := openTest(t, "zork1.z3")
	play(t, g, head)
	saved, hash := g.Save(), g.StateHash()

	fork, err := g.Fork()
	if err != nil {
		t.Fatal(err)
	}
	want := play(t, g, tail)
	endHash := g.StateHash()

	if got := play(t, fork, tail); !equalStrings(got, want) {
		t.Errorf("fork continues differently:\n%q\nwant\n%q", got, want)
	}
	if fork.StateHash() != endHash {
		t.Error("fork ends in another state")
	}

	if err := g.Restore(saved); err != nil {
		t.Fatal(err)
	}
	if g.StateHash() != hash {
		t.Error("restore did not give back the saved state's hash")
	}
	if got := play(t, g, tail); !equalStrings(got, want) {
		t.Errorf("restored game continues differently:\n%q\nwant\n%q", got, want)
	}

	for range tail {
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if g.StateHash() != hash {
		t.Error("undoing the tail did not come back to the saved state")
	}
	if got := play(t, g, tail); !equalStrings(got, want) {
		t.Errorf("after undo the game continues differently")
	}

	// One undo after one step gives the same reply again.
	r1, _ := g.Step("look")
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	r2, _ := g.Step("look")
	if r1.Observation != r2.Observation || r1.Info != r2.Info {
		t.Errorf("undo then look: %q, first %q", r2.Observation, r1.Observation)
	}

	intro, err := g.Reset()
	if err != nil {
		t.Fatal(err)
	}
	if intro != g.Intro() || !strings.Contains(intro, "West of House") {
		t.Errorf("Reset returned %q", intro)
	}
	if err := g.Undo(); !errors.Is(err, ErrNoUndo) {
		t.Errorf("Undo after Reset: %v, want ErrNoUndo", err)
	}
	fresh := openTest(t, "zork1.z3")
	if g.StateHash() != fresh.StateHash() {
		t.Error("Reset game and a fresh game hash differently")
	}
	if got, want := play(t, g, head), play(t, fresh, head); !equalStrings(got, want) {
		t.Error("Reset game and a fresh game play differently")
	}
}

func TestStateHash(t *testing.T) {
	a, b := openTest(t, "zork1.z3"), openTest(t, "zork1.z3")
	once, twice := a.StateHash(), a.StateHash()
	if once != twice || once != b.StateHash() {
		t.Fatal("equal states hash differently")
	}
	h0 := a.StateHash()
	play(t, a, []string{"north"})
	if a.StateHash() == h0 {
		t.Fatal("hash unchanged after a move")
	}
	play(t, b, []string{"north"})
	if a.StateHash() != b.StateHash() {
		t.Fatal("same moves, different hashes")
	}
	// Undo gives back the hash of the state before the move.
	if err := a.Undo(); err != nil {
		t.Fatal(err)
	}
	if a.StateHash() != h0 {
		t.Fatal("hash after undo differs from the hash before the move")
	}
}

func TestWorldObjects(t *testing.T) {
	g := openTest(t, "zork1.z3")
	objs := g.WorldObjects()
	if len(objs) != 250 {
		t.Fatalf("Zork I has 250 objects, got %d", len(objs))
	}
	var mailbox *Object
	for i := range objs {
		if objs[i].ID != uint16(i+1) {
			t.Fatalf("object %d numbered %d", i+1, objs[i].ID)
		}
		if objs[i].Name == "small mailbox" {
			mailbox = &objs[i]
		}
	}
	_, loc := g.Location()
	if mailbox == nil || mailbox.Parent != loc {
		t.Fatalf("mailbox %+v not in the first room %d", mailbox, loc)
	}
	if got := g.Object(mailbox.ID); got.Name != mailbox.Name || len(got.Attributes) == 0 {
		t.Errorf("Object(%d) = %+v", mailbox.ID, got)
	}
	if len(g.Inventory()) != 0 {
		t.Errorf("starts carrying %v", g.Inventory())
	}
}

// TestEndTextAtPrompt checks that texts that look like endings end
// nothing while the game waits at its command prompt (a game prints such
// texts in play: a sign, a hint); the endings themselves are seen where
// the game reads its final answer (TestInfocom5Story, TestLibraryEndings).
func TestEndTextAtPrompt(t *testing.T) {
	g := openTest(t, "praxix.z5")
	if _, ok := g.Entry(); ok {
		t.Fatal("praxix is not in the catalog")
	}
	for _, text := range []string{
		"You fall.\n\n    *** You have died ***\n\n",
		"The crowd cheers.\n\n    *** You have won ***\n",
		"Your score is 5.\n\nWould you like to RESTART, RESTORE a saved game or QUIT?\n>",
		"Taken.",
	} {
		if done, victory := g.judge(text); done || victory {
			t.Errorf("judge(%q) at the command prompt = %v, %v; want playing", text, done, victory)
		}
	}
}

// TestLocationNames checks which names grue reports as a room and which
// it reports as an unknown location instead: an object without a name, a
// clock from a status line, a pronoun object.
func TestLocationNames(t *testing.T) {
	for name, want := range map[string]bool{
		"West of House": true, "Maze": true, "": false, "object#43": false,
		"10:23 am": false, "Time: 9:05": false, "it": false, "That": false, "them": false,
	} {
		if got := knownName(name); got != want {
			t.Errorf("knownName(%q) = %v, want %v", name, got, want)
		}
	}
}
