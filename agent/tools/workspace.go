package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Defaults of a Workspace's limits.
const (
	DefaultShellTimeout = 30 * time.Second
	DefaultMaxOutput    = 16 << 10 // bytes of run_shell output
	DefaultMaxRead      = 64 << 10 // bytes read_file returns
	DefaultMaxWrite     = 1 << 20  // bytes write_file accepts
)

// Workspace is a folder a coding agent works in, and the tools that work
// on it: read_file, write_file and run_shell.
//
// The file tools are confined to Dir by os.Root: no path, "..", absolute
// path or symbolic link reaches outside it (an absolute path inside Dir is
// taken as relative to it). run_shell runs `sh -c` with Dir as its
// working directory, an environment without the user's secrets and a time
// limit that kills its whole process group; it is not a sandbox (a command
// can still cd elsewhere: run untrusted agents in a container).
type Workspace struct {
	// Dir is the workspace's folder; it must exist.
	Dir string
	// ShellTimeout limits one run_shell command (DefaultShellTimeout
	// when 0).
	ShellTimeout time.Duration
	// MaxOutput caps the output run_shell returns; the middle of a longer
	// output is cut (DefaultMaxOutput when 0).
	MaxOutput int
	// MaxRead caps what read_file returns (DefaultMaxRead when 0).
	MaxRead int
	// MaxWrite caps what write_file accepts (DefaultMaxWrite when 0).
	MaxWrite int
	// Env holds extra "NAME=value" variables for run_shell, added after
	// the filtered environment (see SafeEnv) and not filtered themselves.
	Env []string
}

// Tools returns read_file, write_file and run_shell on w.
func (w *Workspace) Tools() []Tool {
	return []Tool{&ReadFileTool{W: w}, &WriteFileTool{W: w}, &RunShellTool{W: w}}
}

func orDefault(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// open opens the workspace's root. A workspace that is not there is a Go
// error: the task's setup went wrong, not the model.
func (w *Workspace) open() (*os.Root, error) {
	if w.Dir == "" {
		return nil, errors.New("workspace: no Dir")
	}
	r, err := os.OpenRoot(w.Dir)
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	return r, nil
}

// errOutside is the answer to a path that leads out of the workspace.
var errOutside = errors.New("the path leads outside the workspace")

// rel turns a model's path into one relative to the workspace. An
// absolute path is accepted when it lies in Dir; os.Root checks the rest.
func (w *Workspace) rel(p string) (string, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return "", errors.New("a path is needed")
	}
	if !filepath.IsAbs(p) {
		return p, nil
	}
	p = filepath.Clean(p)
	for _, dir := range w.dirNames() {
		r, err := filepath.Rel(dir, p)
		if err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return r, nil
		}
	}
	return "", errOutside
}

// dirNames are the names Dir goes by: as given, absolute, and with its
// symbolic links resolved.
func (w *Workspace) dirNames() []string {
	names := []string{filepath.Clean(w.Dir)}
	if abs, err := filepath.Abs(w.Dir); err == nil {
		names = append(names, abs)
	}
	if real, err := filepath.EvalSymlinks(w.Dir); err == nil {
		names = append(names, real)
	}
	return names
}

// pathError says in a sentence why an os.Root operation on p failed.
func pathError(verb, p string, err error) Result {
	var why string
	switch {
	case errors.Is(err, errOutside):
		why = errOutside.Error()
	case errors.Is(err, fs.ErrNotExist):
		why = "no such file or directory"
	case errors.Is(err, fs.ErrPermission):
		why = "permission denied"
	default:
		why = err.Error()
		var pe *fs.PathError
		if errors.As(err, &pe) {
			why = pe.Err.Error()
		}
		if strings.Contains(why, "escapes") {
			why = errOutside.Error()
		}
	}
	return errorf("cannot %s %s: %s", verb, p, why)
}
