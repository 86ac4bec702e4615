// Package atomicfile writes a file so that a crash, a full disk or a
// concurrent reader never sees it half written: the file holds either its
// old contents or all of the new ones.
//
// Write puts the data in a temporary file in the same folder (a rename
// is atomic only within one file system), syncs it to disk, renames it
// over the file and syncs the folder, so that the rename survives a
// crash too. Readers that open the file during a Write see the old file;
// concurrent Writes of the same file leave one of them whole.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// TempPrefix starts the name of the temporary file Write makes beside its
// target (".tmp-<name>-<random>"), so that a folder listing can tell one
// left by a crash from a real file.
const TempPrefix = ".tmp-"

// Write writes data to the file at path, creating it or replacing it
// whole, with permissions perm (set as given, not masked by the umask).
// The folder must exist. On an error the file at path is as it was and
// the temporary file is removed; the error names path.
//
// When path is a symbolic link, the link is replaced by the file, not
// followed.
func Write(path string, data []byte, perm fs.FileMode) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, TempPrefix+base+"-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	syncDir(dir)
	return nil
}

// syncDir makes a rename in dir durable. It is best effort: some systems
// (Windows) cannot open or sync a folder, and the data itself is synced
// already.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	d.Sync()
	d.Close()
}

// WriteIn is [Write] of the file name inside the folder root: the
// temporary file and the file are made inside it, and a name that leaves
// it (with "..", or through a symbolic link to a folder outside) is
// refused, so that a folder whose contents are not to be trusted (a run
// directory made elsewhere) cannot make it write elsewhere. The folder of
// name must exist.
func WriteIn(root *os.Root, name string, data []byte, perm fs.FileMode) error {
	path := filepath.Join(root.Name(), name)
	dir, base := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	var f *os.File
	var tmp string
	var err error
	for range 10000 {
		tmp = filepath.Join(dir, fmt.Sprintf("%s%s-%d", TempPrefix, base, rand.Uint32()))
		f, err = root.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = root.Rename(tmp, name)
	}
	if err != nil {
		root.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if d, err := root.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
