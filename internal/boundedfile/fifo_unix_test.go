//go:build unix

package boundedfile

import (
	"errors"
	"os"
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

// TestOpenFIFO: Open refuses a named pipe without blocking, and opens a
// regular file.
func TestOpenFIFO(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("cannot make a named pipe here: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		f, err := Open(path)
		if err == nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) {
			t.Fatalf("Open(named pipe) = %v, want ErrNotRegular", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Open blocked on a named pipe")
	}
	if _, err := Open(dir); !errors.Is(err, ErrNotRegular) {
		t.Errorf("Open(directory) = %v, want ErrNotRegular", err)
	}
	regular := filepath.Join(dir, "ok.txt")
	if err := os.WriteFile(regular, []byte("ok"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(regular)
	if err != nil {
		t.Fatalf("Open(regular file) = %v", err)
	}
	f.Close()
}
