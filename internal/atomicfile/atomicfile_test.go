package atomicfile_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/grue-lab/grue/internal/atomicfile"
)

// leftovers returns the temporary files left in dir.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	tmp, err := filepath.Glob(filepath.Join(dir, atomicfile.TempPrefix+"*"))
	if err != nil {
		t.Fatal(err)
	}
	return tmp
}

func TestWriteCreatesAndReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "manifest.json")
	if err := atomicfile.Write(path, []byte("a long first version\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", fi.Mode().Perm())
	}
	// A shorter version replaces the file whole: nothing of the longer
	// one is left at its end.
	if err := atomicfile.Write(path, []byte("short\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "short\n" {
		t.Errorf("file holds %q, want %q", b, "short\n")
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v after the rewrite, want 0644", fi.Mode().Perm())
	}
	if tmp := leftovers(t, dir); len(tmp) > 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}

func TestWriteRelativePath(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := atomicfile.Write("out.json", []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "out.json")); err != nil || string(b) != "{}\n" {
		t.Errorf("out.json: %q, %v", b, err)
	}
}

func TestWriteFailsCleanly(t *testing.T) {
	dir := t.TempDir()
	// The folder does not exist: nothing is made.
	missing := filepath.Join(dir, "absent", "x.json")
	err := atomicfile.Write(missing, []byte("x"), 0o644)
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("writing into a missing folder: %v; want an error naming %s", err, missing)
	}
	if _, err := os.Stat(filepath.Dir(missing)); !os.IsNotExist(err) {
		t.Errorf("the missing folder was made: %v", err)
	}

	// The target is a folder with a file in it: the rename fails, the
	// folder stays as it was and no temporary file is left.
	target := filepath.Join(dir, "busy")
	if err := os.MkdirAll(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(target, "keep"), []byte("kept"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = atomicfile.Write(target, []byte("x"), 0o644)
	if err == nil || !strings.Contains(err.Error(), target) {
		t.Errorf("writing over a folder: %v; want an error naming %s", err, target)
	}
	if b, err := os.ReadFile(filepath.Join(target, "keep")); err != nil || string(b) != "kept" {
		t.Errorf("the folder's file after a failed write: %q, %v", b, err)
	}
	if tmp := leftovers(t, dir); len(tmp) > 0 {
		t.Errorf("temporary files left after a failed write: %v", tmp)
	}
}

// Readers racing writers see one version whole, never an empty or
// partial file; the last write leaves a whole version.
func TestWriteConcurrentReadersSeeWholeFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	version := func(i int) []byte {
		return bytes.Repeat([]byte(fmt.Sprintf("version %03d;", i)), 2000) // 24 kB
	}
	whole := func(b []byte) bool {
		if len(b) != len(version(0)) {
			return false
		}
		return bytes.Equal(b, bytes.Repeat(b[:12], 2000))
	}
	if err := atomicfile.Write(path, version(0), 0o644); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	done := make(chan struct{})
	var bad []string
	var mu sync.Mutex
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				b, err := os.ReadFile(path)
				if err != nil || !whole(b) {
					mu.Lock()
					bad = append(bad, fmt.Sprintf("%d bytes, %v", len(b), err))
					mu.Unlock()
				}
			}
		}()
	}
	var writers sync.WaitGroup
	for w := range 4 {
		writers.Add(1)
		go func() {
			defer writers.Done()
			for i := range 25 {
				if err := atomicfile.Write(path, version(1+w*25+i), 0o644); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	writers.Wait()
	close(done)
	wg.Wait()
	if len(bad) > 0 {
		t.Errorf("%d reads saw a broken file, the first: %s", len(bad), bad[0])
	}
	if b, _ := os.ReadFile(path); !whole(b) {
		t.Errorf("the file after the writes is not one whole version (%d bytes)", len(b))
	}
	if tmp := leftovers(t, dir); len(tmp) > 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}
