package stories

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/internal/testgames"

	"github.com/grue-lab/grue/game/zmachine"
)

const (
	wonText  = "*** You have won ***"
	diedText = "*** You have died ***"
)

var maxScoreText = fmt.Sprintf("scored %d out of a possible %d", MaxScore, MaxScore)

// TestRebuild checks that the committed story file is what its source
// compiles to, so the two cannot drift apart.
func TestRebuild(t *testing.T) {
	inform := testgames.Tool(t, "inform6", "apt-get install -y inform6-compiler inform6-library")
	const lib = "/usr/share/inform6/library"
	if _, err := os.Stat(filepath.Join(lib, "parser.h")); err != nil {
		testgames.Missing(t, "%s", "Inform 6 standard library not found in "+lib)
	}
	out := filepath.Join(t.TempDir(), "lantern.z5")
	cmd := exec.Command(inform, "-q", "-w", "-v5", "-e", "-~S",
		"+include_path="+lib, "lantern.inf", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("inform6: %v\n%s", err, msg)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	_, want := Default()
	if !bytes.Equal(got, want) {
		t.Fatalf("lantern.inf compiles to %d bytes that differ from the committed lantern.z5 (%d bytes): run build.sh", len(got), len(want))
	}
}

// play runs cmds through grue's Z-machine and returns everything printed.
func play(t *testing.T, cmds []string) (string, *zmachine.Machine) {
	t.Helper()
	_, data := Default()
	story, err := zmachine.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	m, err := zmachine.New(story, zmachine.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	out, err := m.Start()
	all.WriteString(out)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	for i, c := range cmds {
		if m.State() == zmachine.Halted {
			t.Fatalf("the game halted before command %d (%q)", i+1, c)
		}
		out, err := m.Step(c)
		all.WriteString("\n>" + c + "\n" + out)
		if err != nil {
			t.Fatalf("command %d (%q): %v\n%s", i+1, c, err, all.String())
		}
	}
	return all.String(), m
}

// TestWalkthroughWins plays the walkthrough and checks that it wins with the
// maximum score, in grue's Z-machine and in dfrotz.
func TestWalkthroughWins(t *testing.T) {
	cmds := Walkthrough()
	if len(cmds) == 0 {
		t.Fatal("empty walkthrough")
	}
	t.Run("grue", func(t *testing.T) {
		text, m := play(t, cmds)
		if strings.Contains(text, diedText) {
			t.Fatalf("the walkthrough dies:\n%s", text)
		}
		// Only the last reply may end the game.
		last := text[strings.LastIndex(text, "\n>"+cmds[len(cmds)-1]+"\n"):]
		for _, want := range []string{wonText, maxScoreText} {
			if !strings.Contains(last, want) {
				t.Errorf("the last reply lacks %q:\n%s", want, last)
			}
		}
		// Library 6.12 draws a version 5 status line itself (it fills the
		// sline1 global only in version 3), so read the score from there.
		if sl, want := m.StatusLine(), fmt.Sprintf("Score: %d ", MaxScore); !strings.Contains(sl, want) {
			t.Errorf("status line %q lacks %q", sl, want)
		}
	})
	t.Run("dfrotz", func(t *testing.T) {
		text := runDfrotz(t, cmds)
		// dfrotz 2.54 prints no bold text, and the library prints
		// "*** You have won ***" in bold, so look for the score and the
		// end-of-game question instead.
		if strings.Contains(text, "You have died") {
			t.Fatalf("the walkthrough dies under dfrotz:\n%s", text)
		}
		for _, want := range []string{maxScoreText, "Would you like to RESTART"} {
			if !strings.Contains(text, want) {
				t.Errorf("dfrotz transcript lacks %q:\n%s", want, text)
			}
		}
	})
}

// runDfrotz plays cmds through dfrotz and returns what it printed.
func runDfrotz(t *testing.T, cmds []string) string {
	t.Helper()
	dfrotz := testgames.Tool(t, "dfrotz", "apt-get install -y frotz", "/usr/games/dfrotz")
	_, data := Default()
	dir := t.TempDir()
	story := filepath.Join(dir, "lantern.z5")
	if err := os.WriteFile(story, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, dfrotz, "-m", "-p", "-q", "-s", "1", "-w", "255", story)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(strings.Join(cmds, "\n") + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("dfrotz: %v\nstderr: %s", err, stderr.String())
	}
	return stdout.String()
}

// TestDeath checks that the grue is deadly: walking into the dark without
// a light gets the player eaten on the second turn there.
func TestDeath(t *testing.T) {
	for name, cmds := range map[string][]string{
		"dark":  {"north", "north", "north"},
		"cliff": {"up", "jump"},
	} {
		t.Run(name, func(t *testing.T) {
			text, _ := play(t, cmds)
			if !strings.Contains(text, diedText) {
				t.Fatalf("no death after %q:\n%s", cmds, text)
			}
			if strings.Contains(text, wonText) {
				t.Fatalf("a death that wins:\n%s", text)
			}
		})
	}
}
