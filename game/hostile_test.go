package game

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grue-lab/grue/internal/boundedfile"
)

// TestOpenRefusesDevicesAndHugeFiles: a story named /dev/zero, a named
// pipe or a file past MaxStorySize is refused at once with an error that
// names it, instead of growing memory without end or blocking forever.
func TestOpenRefusesDevicesAndHugeFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.z5")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.z5")
	if err := os.WriteFile(big, make([]byte, MaxStorySize+1), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want error
	}{{"/dev/zero", boundedfile.ErrNotRegular}, {fifo, boundedfile.ErrNotRegular}, {big, boundedfile.ErrTooLarge}} {
		done := make(chan error, 1)
		go func() {
			_, _, err := LoadStory(c.path)
			if err == nil {
				_, err = Open(c.path)
			}
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.path) {
				t.Errorf("LoadStory(%s): %v, want %v naming the file", c.path, err, c.want)
			}
			if _, err := Open(c.path); !errors.Is(err, c.want) {
				t.Errorf("Open(%s): %v, want %v", c.path, err, c.want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("LoadStory(%s) still running after 5s", c.path)
		}
	}
}

// TestSaveRestoreCommandsKeepPlaying: typing the game's own save and
// restore commands answers their file prompt with the game's in-memory
// slot, so play goes on (it used to leave the machine waiting for a file
// name, and every later command failed), and restore brings back the
// saved state.
func TestSaveRestoreCommandsKeepPlaying(t *testing.T) {
	t.Setenv(GamesEnv, "")
	g, err := Open("lantern", Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	loc0, _ := g.Location()
	for _, cmd := range []string{"save", "save"} { // the second overwrites
		r, err := g.Step(cmd)
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		if !strings.Contains(r.Observation, "Ok") {
			t.Errorf("%s: %q, want the game's Ok", cmd, r.Observation)
		}
	}
	moved := false
	for _, dir := range []string{"north", "south", "east", "west"} {
		if _, err := g.Step(dir); err != nil {
			t.Fatalf("%s after save: %v", dir, err)
		}
		if loc, _ := g.Location(); loc != loc0 {
			moved = true
			break
		}
	}
	if !moved {
		t.Fatalf("could not leave %s", loc0)
	}
	r, err := g.Step("restore")
	if err != nil {
		t.Fatalf("restore: %v", err)
	}
	if loc, _ := g.Location(); loc != loc0 {
		t.Errorf("after restore in %q, want %q (%q)", loc, loc0, r.Observation)
	}
	if _, err := g.Step("look"); err != nil {
		t.Errorf("look after restore: %v", err)
	}
}
