package glk_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/game/glk"
	"github.com/grue-lab/grue/game/glulx"
	"github.com/grue-lab/grue/internal/testgames"
)

// scenarios are command scripts for what Glk does beyond printing:
// saving and restoring through the file prompt (an empty name, a name
// with a folder, a missing file), transcripts, restart and quit asking
// for confirmation, empty lines, a line longer than cheapglk reads at once.
var scenarios = map[string][]string{
	"files": {"look", "save", "one", "take lamp", "restore", "one", "inventory", "script", "trans", "look",
		"unscript", "save", "", "restore", "nosuchfile", "save", "/tmp/no/such/folder/x", "restart", "y", "look"},
	"input": {"quit", "n", "restart", "n", "undo", "undo", "again", "oops", "", "", "look " + strings.Repeat("x", 300),
		"verbose", "brief", "version", "quit", "y"},
}

// lateGlk is the VM's Glk, made after the VM (it reads the VM's memory).
type lateGlk struct{ g *glk.Glk }

func (l *lateGlk) Call(s uint32, a []uint32) (uint32, error) { return l.g.Call(s, a) }
func (l *lateGlk) PutChar(c byte) error                      { return l.g.PutChar(c) }
func (l *lateGlk) PutUniChar(c uint32) error                 { return l.g.PutUniChar(c) }
func (l *lateGlk) StreamWrite(id uint32, p []byte) error     { return l.g.StreamWrite(id, p) }
func (l *lateGlk) StreamReader(id uint32) (io.Reader, error) { return l.g.StreamReader(id) }

// playOneWindow plays a story on the VM with this Glk as cheapglk's one
// window, and returns its main text as cheapglk writes it (Latin-1).
func playOneWindow(t *testing.T, data []byte, lines []string) []byte {
	t.Helper()
	image, res, err := glulx.StoryBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	p := &lateGlk{}
	vm, err := glulx.New(image, p, glulx.Options{Seed: 1, Wait: glk.ErrWait, Exit: glk.ErrExit})
	if err != nil {
		t.Fatal(err)
	}
	opts := glk.Options{OneWindow: true, GameFile: data}
	if res != nil {
		opts.Resources = res
	}
	p.g = glk.New(vm, opts)
	var out strings.Builder
	err = vm.Run()
	out.WriteString(p.g.TakeOutput())
	for _, l := range lines {
		if err != nil || vm.State() == glulx.Halted {
			break
		}
		if err = p.g.SendLine(l); err == nil {
			err = vm.Run()
		}
		out.WriteString(p.g.TakeOutput())
	}
	if err == nil && vm.State() != glulx.Halted {
		p.g.EndInput()
		err = vm.Run()
		out.WriteString(p.g.TakeOutput())
	}
	if err != nil && !errors.Is(err, glk.ErrExit) {
		t.Errorf("grue: %v", err)
	}
	return glk.Latin1(out.String())
}

// TestScenariosAgainstGlulxe plays the scenarios on an Inform 6 and two
// Inform 7 stories, on glulxe over cheapglk and on grue with this Glk
// as cheapglk's one window: the text must be the same, byte for byte.
func TestScenariosAgainstGlulxe(t *testing.T) {
	script := filepath.Join(testgames.Dir(), "..", "reference", "glulx", "build-glulxe")
	if _, err := os.Stat(script); err != nil {
		testgames.Missing(t, "the reference glulxe's sources are not at %s: %v", script, err)
	}
	testgames.Tool(t, "gcc", "apt-get install -y gcc make")
	built, err := exec.Command(script).Output()
	if err != nil {
		testgames.Missing(t, "build-glulxe failed: %v", err)
	}
	bin := strings.TrimSpace(string(built))
	for _, name := range []string{"Advent-i641.ulx", "i7-min-10-1-2.ulx", "The_Dungeon.gblorb"} {
		story := testgames.Path(t, filepath.Join("glulx", "corpus", name))
		data, err := os.ReadFile(story)
		if err != nil {
			t.Fatal(err)
		}
		for sname, lines := range scenarios {
			t.Run(name+"/"+sname, func(t *testing.T) {
				// glulxe writes its files beside the story: run it on a copy,
				// named without a folder. (With a folder, cheapglk's prompt
				// decides whether to add ".glksave" by reading past the typed
				// name into uninitialized bytes, and a restore may look for
				// another file than the save wrote.)
				dir := t.TempDir()
				copyPath := filepath.Join(dir, name)
				if err := os.WriteFile(copyPath, data, 0o644); err != nil {
					t.Fatal(err)
				}
				cmd := exec.Command(bin, "-q", "-w", "80", "--rngseed", "1", name)
				cmd.Dir = dir
				cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
				want, _ := cmd.Output()
				got := playOneWindow(t, data, lines)
				if !bytes.Equal(want, got) {
					t.Errorf("differs from glulxe:\n%s", lineDiff(want, got))
				}
			})
		}
	}
}

func lineDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b || i >= len(w) || i >= len(g) {
			return fmt.Sprintf("line %d:\n glulxe: %q\n grue:   %q", i+1, a, b)
		}
	}
	return "identical lines"
}
