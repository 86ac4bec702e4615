package zmachine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// Files is where a Machine keeps the files a game saves and restores.
type Files interface {
	ReadFile(name string) ([]byte, error)
	WriteFile(name string, data []byte) error
}

// MemFiles keeps save files in memory. It is safe for concurrent use.
type MemFiles struct {
	mu    sync.Mutex
	files map[string][]byte
}

// NewMemFiles returns an empty in-memory file store.
func NewMemFiles() *MemFiles { return &MemFiles{files: map[string][]byte{}} }

func (f *MemFiles) ReadFile(name string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b, ok := f.files[name]
	if !ok {
		return nil, fmt.Errorf("%s: %w", name, os.ErrNotExist)
	}
	return append([]byte(nil), b...), nil
}

func (f *MemFiles) WriteFile(name string, data []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.files[name] = append([]byte(nil), data...)
	return nil
}

// DirFiles keeps save files in a directory, as a terminal interpreter does.
// Names are taken relative to the directory; names that would leave it are
// refused.
type DirFiles string

func (d DirFiles) path(name string) (string, error) {
	if name == "" || !filepath.IsLocal(name) {
		return "", fmt.Errorf("file name %q is not a plain name inside %s", name, string(d))
	}
	return filepath.Join(string(d), name), nil
}

func (d DirFiles) ReadFile(name string) ([]byte, error) {
	p, err := d.path(name)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}

// WriteFile writes through a temporary file and a rename, so that a crash
// never leaves half a save file.
func (d DirFiles) WriteFile(name string, data []byte) error {
	p, err := d.path(name)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".save-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), p)
}
