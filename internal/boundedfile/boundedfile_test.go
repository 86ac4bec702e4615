package boundedfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadFileRegular(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "prompt.txt")
	if err := os.WriteFile(path, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int64{5, 6, 1 << 20} {
		b, err := ReadFile(path, limit)
		if err != nil || string(b) != "hello" {
			t.Errorf("ReadFile(limit %d) = %q, %v; want hello", limit, b, err)
		}
	}
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(link, 10); err != nil || string(b) != "hello" {
		t.Errorf("through a symbolic link: %q, %v; want hello", b, err)
	}
}

// TestReadAllSizeIsAHint reads files whose length differs from the size
// they had when opened (they grew or shrank since), in reads of one byte:
// each is read whole up to the limit, or to one byte past it.
func TestReadAllSizeIsAHint(t *testing.T) {
	for _, tc := range []struct {
		text        string
		size, limit int64
		want        string
	}{
		{"hello", 5, 10, "hello"},
		{"hello, world", 5, 100, "hello, world"}, // grew
		{"hi", 5, 10, "hi"},                      // shrank
		{"", 5, 10, ""},
		{"hello, world", 0, 100, "hello, world"},
		{"hello, world", 5, 6, "hello, "}, // grew past the limit: one byte more
		{"hello", 5, 5, "hello"},
		{"hello", 1 << 40, 1 << 50, "hello"}, // a size too large to allocate
	} {
		b, err := readAll(iotest.OneByteReader(strings.NewReader(tc.text)), tc.size, tc.limit)
		if err != nil || string(b) != tc.want {
			t.Errorf("readAll(%q, size %d, limit %d) = %q, %v; want %q", tc.text, tc.size, tc.limit, b, err, tc.want)
		}
	}
	if _, err := readAll(iotest.TimeoutReader(strings.NewReader("hello")), 5, 10); !errors.Is(err, iotest.ErrTimeout) {
		t.Errorf("a failing read: %v, want %v", err, iotest.ErrTimeout)
	}
}

func TestReadFileTooLarge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(path, make([]byte, 2048), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path, 1024)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	for _, want := range []string{path, "1 KiB (1024 bytes)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
}

// TestReadFileDevZero is the attack of a config naming /dev/zero: before,
// reading it grew memory until the process died.
func TestReadFileDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	_, err := ReadFile("/dev/zero", 1<<20)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "/dev/zero: a device") {
		t.Fatalf("err = %v, want /dev/zero refused as a device", err)
	}
	link := filepath.Join(t.TempDir(), "innocent.txt")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(link, 1<<20); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("a link to /dev/zero: err = %v, want ErrNotRegular", err)
	}
}

func TestReadFileDirectory(t *testing.T) {
	dir := t.TempDir()
	_, err := ReadFile(dir, 1<<20)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), dir+": a directory") {
		t.Fatalf("err = %v, want the directory refused", err)
	}
}

func TestReadFileMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope")
	_, err := ReadFile(path, 10)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), path) {
		t.Fatalf("err = %v, want not-exist naming the path", err)
	}
}

func TestReadFileBadLimit(t *testing.T) {
	if _, err := ReadFile("x", 0); err == nil {
		t.Fatal("a limit of 0 was accepted")
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int64]string{
		100: "100 bytes", 1024: "1 KiB (1024 bytes)", 1500: "1500 bytes",
		1 << 20: "1 MiB (1048576 bytes)", 3 << 30: "3 GiB (3221225472 bytes)",
	} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
}
