//go:build unix

package boundedfile

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadFileFIFO is the attack of a config naming a named pipe that
// nobody writes: os.ReadFile blocks on it forever.
func TestReadFileFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("cannot make a named pipe here: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ReadFile(path, 1<<20)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), path+": a named pipe") {
			t.Fatalf("err = %v, want the named pipe refused", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ReadFile blocked on a named pipe")
	}
}
