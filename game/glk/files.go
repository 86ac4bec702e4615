package glk

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// FileStore holds the files a story reads and writes, by the names Glk
// gives them (fileref_create_by_name's name cleaned as cheapglk cleans
// it, with its suffix: "notes.glkdata", "game.glksave"). A missing file
// is an error wrapping [fs.ErrNotExist].
type FileStore interface {
	ReadFile(name string) ([]byte, error)
	WriteFile(name string, data []byte) error
	Remove(name string) error
}

// MaxFileSize bounds one file a story writes (64 MiB), MaxFiles the
// number of files a [MemFiles] holds and MaxMemFiles their bytes.
const (
	MaxFileSize = 64 << 20
	MaxFiles    = 256
	MaxMemFiles = 256 << 20
)

// memFilesLimit is MaxMemFiles, lowered by tests.
var memFilesLimit = MaxMemFiles

// MemFiles is a [FileStore] in memory: the session's file slots, lost
// when the process ends. The zero value is not ready; use [NewMemFiles].
// It is safe for concurrent use.
type MemFiles struct {
	mu    sync.Mutex
	files map[string][]byte
	size  int // bytes of all files
}

// NewMemFiles returns an empty [MemFiles].
func NewMemFiles() *MemFiles { return &MemFiles{files: map[string][]byte{}} }

// ReadFile returns a copy of the file's bytes.
func (m *MemFiles) ReadFile(name string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.files[name]
	if !ok {
		return nil, fmt.Errorf("glk: file %q: %w", name, fs.ErrNotExist)
	}
	return append([]byte(nil), b...), nil
}

// WriteFile replaces the file's bytes with a copy of data.
func (m *MemFiles) WriteFile(name string, data []byte) error {
	if len(data) > MaxFileSize {
		return fmt.Errorf("glk: file %q: %d bytes is over the %d-byte limit", name, len(data), MaxFileSize)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	old, ok := m.files[name]
	if !ok && len(m.files) >= MaxFiles {
		return fmt.Errorf("glk: file %q: already %d files", name, MaxFiles)
	}
	if m.size-len(old)+len(data) > memFilesLimit {
		return fmt.Errorf("glk: file %q: the session's files would be over %d bytes", name, memFilesLimit)
	}
	m.size += len(data) - len(old)
	m.files[name] = append([]byte(nil), data...)
	return nil
}

// Remove deletes the file.
func (m *MemFiles) Remove(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.files[name]; !ok {
		return fmt.Errorf("glk: file %q: %w", name, fs.ErrNotExist)
	}
	m.size -= len(m.files[name])
	delete(m.files, name)
	return nil
}

// Clone returns a copy of the store, for a fork of the game whose files
// must not be the original's.
func (m *MemFiles) Clone() *MemFiles {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := &MemFiles{files: make(map[string][]byte, len(m.files)), size: m.size}
	for n, b := range m.files {
		c.files[n] = b // never changed in place: WriteFile replaces
	}
	return c
}

// Names lists the files, sorted.
func (m *MemFiles) Names() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	names := make([]string, 0, len(m.files))
	for n := range m.files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// DirFiles is a [FileStore] in one directory of the host: the files a
// story names are files of that directory, and nothing outside it (no
// path separators, no "..", no symbolic link out: an [os.Root] confines
// every access).
type DirFiles struct {
	root *os.Root
}

// NewDirFiles opens the directory dir as a [FileStore].
func NewDirFiles(dir string) (*DirFiles, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("glk: files directory: %w", err)
	}
	return &DirFiles{root: r}, nil
}

// Close releases the directory.
func (d *DirFiles) Close() error { return d.root.Close() }

func checkName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`+"\x00") || filepath.IsAbs(name) {
		return fmt.Errorf("glk: file name %q is not a plain name", name)
	}
	return nil
}

// ReadFile reads the file name of the directory.
func (d *DirFiles) ReadFile(name string) ([]byte, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	f, err := d.root.Open(name)
	if err != nil {
		return nil, fmt.Errorf("glk: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("glk: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("glk: file %q is not a regular file: %w", name, fs.ErrNotExist)
	}
	if st.Size() > MaxFileSize {
		return nil, fmt.Errorf("glk: file %q: %d bytes is over the %d-byte limit", name, st.Size(), MaxFileSize)
	}
	b := make([]byte, st.Size())
	n, err := f.Read(b)
	if err != nil && n != len(b) {
		return nil, fmt.Errorf("glk: reading %q: %w", name, err)
	}
	return b[:n], nil
}

// WriteFile writes the file name of the directory.
func (d *DirFiles) WriteFile(name string, data []byte) error {
	if err := checkName(name); err != nil {
		return err
	}
	if len(data) > MaxFileSize {
		return fmt.Errorf("glk: file %q: %d bytes is over the %d-byte limit", name, len(data), MaxFileSize)
	}
	f, err := d.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("glk: %w", err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("glk: writing %q: %w", name, err)
	}
	return nil
}

// Remove deletes the file name of the directory.
func (d *DirFiles) Remove(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	if err := d.root.Remove(name); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("glk: file %q: %w", name, fs.ErrNotExist)
		}
		return fmt.Errorf("glk: %w", err)
	}
	return nil
}
