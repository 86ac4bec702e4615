// Package boundedfile reads files that a user (or a config file, or a
// client) names without trusting what is there: only a regular file is
// read, and at most a given number of bytes of it.
//
// os.ReadFile on a name an attacker chose can hang the process (a named
// pipe with no writer blocks the open and the read forever) or exhaust its
// memory (/dev/zero, /dev/urandom, a huge file); a directory or a device
// gives errors nobody can act on. [ReadFile] refuses anything but a
// regular file before reading a byte, opens with O_NONBLOCK (so a pipe
// swapped in between the check and the open does not block either) and
// O_NOCTTY, checks the open file again, and stops reading one byte past
// the limit. Its errors name the path and say what is wrong: what the
// file is instead, or the limit it exceeds; they match [ErrNotRegular] and
// [ErrTooLarge] with errors.Is.
package boundedfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

var (
	// ErrNotRegular is matched (errors.Is) by the error of a file that
	// is a directory, a named pipe, a device, a socket or anything else
	// that is not a regular file.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge is matched (errors.Is) by the error of a file longer
	// than the limit it was read with.
	ErrTooLarge = errors.New("file too large")
)

// Error is the error of a file [ReadFile] refuses: Path, what it is
// (Kind, for a file that is not regular) or the Limit it exceeds, and Err,
// [ErrNotRegular] or [ErrTooLarge].
type Error struct {
	Path  string
	Kind  string // "a directory", "a named pipe", ... for ErrNotRegular
	Limit int64  // the limit in bytes, for ErrTooLarge
	Err   error
}

// Error says what is wrong with which file, such as "/dev/zero: a device,
// not a regular file" or "prompt.txt: larger than the limit of 1 MiB
// (1048576 bytes)".
func (e *Error) Error() string {
	if errors.Is(e.Err, ErrTooLarge) {
		return fmt.Sprintf("%s: larger than the limit of %s", e.Path, FormatSize(e.Limit))
	}
	return fmt.Sprintf("%s: %s, not a regular file", e.Path, e.Kind)
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// Open opens the regular file at path for reading (symbolic links
// followed), for a caller that reads it as a stream and bounds what it
// reads itself; anything but a regular file is refused, as by [ReadFile],
// without blocking on a named pipe.
func Open(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &Error{Path: path, Kind: kind(fi.Mode()), Err: ErrNotRegular}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	if fi, err = f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = &Error{Path: path, Kind: kind(fi.Mode()), Err: ErrNotRegular}
		}
		return nil, err
	}
	return f, nil
}

// ReadFile reads the regular file at path (symbolic links followed), or
// returns an error without reading a byte when it is anything else, and
// an [*Error] matching [ErrTooLarge] when it holds more than limit bytes
// (limit must be positive). A missing or unreadable file gives os's
// error, which names the path too.
func ReadFile(path string, limit int64) ([]byte, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("read %s: limit %d is not positive", path, limit)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := check(path, fi, limit); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The file may have been swapped for another between the Stat and
	// the open: check the one that is open.
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := check(path, fi, limit); err != nil {
		return nil, err
	}
	b, err := readAll(f, fi.Size(), limit)
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit { // it grew since the Stat
		return nil, &Error{Path: path, Limit: limit, Err: ErrTooLarge}
	}
	return b, nil
}

// readAll reads r to its end or to one byte past limit, whichever comes
// first, into a buffer made for size bytes (the file's size when it was
// opened) and one more, as os.ReadFile does: io.ReadAll's buffer starts at
// 512 bytes and doubles, which for a story file of a few hundred kilobytes
// is ten allocations and copies, a measurable part of grue agent's start
// (docs/performance.md). A file that grew or shrank since is still read
// whole, to the limit.
func readAll(r io.Reader, size, limit int64) ([]byte, error) {
	// A limit of gigabytes is a bound, not a size to allocate.
	size = min(max(size, 0), limit, 64<<20)
	b := make([]byte, 0, size+1)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if int64(len(b)) > limit {
			return b, nil
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // grow: the file was longer than its size
		}
	}
}

// check refuses a file that is not regular or is larger than limit.
func check(path string, fi fs.FileInfo, limit int64) error {
	if !fi.Mode().IsRegular() {
		return &Error{Path: path, Kind: kind(fi.Mode()), Err: ErrNotRegular}
	}
	if fi.Size() > limit {
		return &Error{Path: path, Limit: limit, Err: ErrTooLarge}
	}
	return nil
}

// kind says in words what a file that is not regular is.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0, m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a special file"
}

// FormatSize writes n bytes for people: "1 MiB (1048576 bytes)", or
// "512 bytes" below a KiB.
func FormatSize(n int64) string {
	const kib = 1 << 10
	switch {
	case n >= kib<<20 && n%(kib<<20) == 0:
		return fmt.Sprintf("%d GiB (%d bytes)", n/(kib<<20), n)
	case n >= kib<<10 && n%(kib<<10) == 0:
		return fmt.Sprintf("%d MiB (%d bytes)", n/(kib<<10), n)
	case n >= kib && n%kib == 0:
		return fmt.Sprintf("%d KiB (%d bytes)", n/kib, n)
	}
	return fmt.Sprintf("%d bytes", n)
}
