package boundedfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// OpenIn opens the regular file name inside the folder root for reading,
// as [Open] does, and refuses a name that leaves the folder: an absolute
// name, one with "..", or a symbolic link (anywhere on the way) that
// points out of it. It is the reader of the files of a folder whose
// contents are not to be trusted, such as a run directory made
// elsewhere: whatever its files say, nothing outside it is read.
func OpenIn(root, name string) (*os.File, error) {
	r, err := openRoot(root, name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return OpenInRoot(r, name)
}

// OpenInRoot is [OpenIn] in an open [os.Root].
func OpenInRoot(r *os.Root, name string) (*os.File, error) {
	path := filepath.Join(r.Name(), name)
	fi, err := r.Stat(name)
	if err != nil {
		return nil, fullPath(err, path)
	}
	if !fi.Mode().IsRegular() {
		return nil, &Error{Path: path, Kind: kind(fi.Mode()), Err: ErrNotRegular}
	}
	f, err := r.OpenFile(name, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, fullPath(err, path)
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

// ReadFileIn reads the regular file name inside the folder root, as
// [ReadFile] does (at most limit bytes), refusing a name that leaves the
// folder as [OpenIn] does.
func ReadFileIn(root, name string, limit int64) ([]byte, error) {
	r, err := openRoot(root, name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return ReadFileInRoot(r, name, limit)
}

// ReadFileInRoot is [ReadFileIn] in an open [os.Root].
func ReadFileInRoot(r *os.Root, name string, limit int64) ([]byte, error) {
	path := filepath.Join(r.Name(), name)
	if limit <= 0 {
		return nil, fmt.Errorf("read %s: limit %d is not positive", path, limit)
	}
	f, err := OpenInRoot(r, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := check(path, fi, limit); err != nil {
		return nil, err
	}
	b, err := readAll(f, fi.Size(), limit)
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &Error{Path: path, Limit: limit, Err: ErrTooLarge}
	}
	return b, nil
}

// openRoot opens the folder root, saying which file was to be read in it
// when it cannot.
func openRoot(root, name string) (*os.Root, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", filepath.Join(root, name), err)
	}
	return r, nil
}

// fullPath makes the path of an os.Root error (the name inside the root)
// the whole path, so that the error says which file.
func fullPath(err error, path string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: strings.TrimSuffix(pe.Op, "at"), Path: path, Err: pe.Err}
	}
	return err
}
