package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/game/glulx"
	"github.com/grue-lab/grue/internal/testgames"
)

// TestPlayTerminalGlulx plays a Glulx story in the terminal loop: its
// status window is the status line, shown in reverse video when it
// changes, and the game's prompt is the line editor's.
func TestPlayTerminalGlulx(t *testing.T) {
	data, err := os.ReadFile(testgames.Path(t, filepath.Join("glulx", "corpus", "Advent-i641.ulx")))
	if err != nil {
		t.Fatal(err)
	}
	gm, err := glulx.NewMachine(data, glulx.MachineOptions{Seed: 1, Width: 60})
	if err != nil {
		t.Fatal(err)
	}
	rl := &fakeReadline{lines: []string{"in"}, errs: []error{nil}}
	var out strings.Builder
	if err := playTerminal(glulxTerminal{gm}, rl, &out, 60, false); err != nil {
		t.Fatal(err)
	}
	screen := out.String()
	for _, want := range []string{"\x1b[7m At End Of Road", " 36/0 ", "\x1b[7m Inside Building", " 36/1 ", "You are inside a building"} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%q", want, screen)
		}
	}
	if len(rl.prompts) < 2 || rl.prompts[0] != ">" {
		t.Errorf("prompts %q, want the game's >", rl.prompts)
	}
}
