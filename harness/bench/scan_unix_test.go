//go:build unix

package bench

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/grue-lab/grue/harness"
)

// The games folder is the user's but hostile input all the same: links
// are not followed, a FIFO is not read (it would block), folders past
// MaxDepth are not walked, and a file too big for a story is refused.
func TestScanIsBounded(t *testing.T) {
	p, dir, content := fakeProtocol(t)
	outside := t.TempDir()
	mustWrite(t, filepath.Join(outside, "alpha.z5"), content)
	if err := os.Symlink(filepath.Join(outside, "alpha.z5"), filepath.Join(dir, "link.z5")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.z5"), 0o644); err != nil {
		t.Fatal(err)
	}
	deep := filepath.Join(dir, "a", "b", "c", "d")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(deep, "alpha.z5"), content)
	games, err := Identify(p, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a := status(games)["alpha"]; a.Status != harness.GameMissing {
		t.Errorf("alpha found through a link or too deep: %+v", a)
	}
	mustWrite(t, filepath.Join(dir, "huge.z5"), make([]byte, MaxStorySize+1))
	if _, err := Identify(p, dir, nil); err == nil || !strings.Contains(err.Error(), "not a story file") {
		t.Errorf("a file past MaxStorySize: %v", err)
	}
}
