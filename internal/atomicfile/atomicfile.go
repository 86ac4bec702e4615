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
	"fmt"
	"io/fs"
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
