package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/grue-lab/grue/agent/tools/internal/sandbox"
)

// Defaults of a Workspace's limits.
const (
	DefaultShellTimeout = 30 * time.Second
	DefaultMaxOutput    = 16 << 10 // bytes of run_shell output
	DefaultMaxRead      = 64 << 10 // bytes read_file returns
	DefaultMaxWrite     = 1 << 20  // bytes write_file accepts
	// DefaultMaxWorkspace is the bytes all the workspace's files may hold
	// for write_file to add to them.
	DefaultMaxWorkspace = 512 << 20
	// DefaultMaxCPU is the CPU time of each process run_shell starts.
	DefaultMaxCPU = 2 * time.Minute
	// DefaultMaxMemory is the address space of each process run_shell
	// starts (RLIMIT_AS): enough for the go command and the programs it
	// builds; `go test -race` needs far more.
	DefaultMaxMemory = 4 << 30
	// DefaultMaxFileSize is the size a file written by a run_shell
	// process can reach.
	DefaultMaxFileSize = 128 << 20
	// DefaultMaxProcs is the processes and threads run_shell may have at
	// once.
	DefaultMaxProcs = 1024
)

// Workspace is a folder a coding agent works in, and the tools that work
// on it: read_file, write_file and run_shell.
//
// The file tools are confined to Dir by os.Root: no path, "..", absolute
// path or symbolic link reaches outside it (an absolute path inside Dir is
// taken as relative to it). They refuse FIFOs, devices and sockets, and
// files with more than one hard link, whose other names may lie outside.
// write_file keeps the workspace's files under MaxWorkspace bytes in all.
//
// run_shell runs `sh -c` with Dir as its working directory, an
// environment without secrets (SafeEnv), no capabilities, and resource
// limits; on Linux it runs in new user, PID and mount namespaces where
// the system allows them, so that it cannot see grue's processes, and
// grue makes itself non-dumpable so that no command can read its
// environment or memory (the package doc of agent/tools/internal/sandbox
// says how, and what is best-effort). At the time limit every process the command started is
// killed, setsid or not. It is not a filesystem sandbox: a command can
// read and write what grue's user can outside Dir, so run untrusted
// agents as an unprivileged user or in a container.
//
// A limit left 0 takes its default; a negative MaxCPU, MaxMemory,
// MaxFileSize, MaxProcs or MaxWorkspace means none.
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
	// MaxWorkspace caps the bytes the workspace's files hold in all:
	// write_file refuses to go past it (DefaultMaxWorkspace when 0).
	// Commands of run_shell are held only by MaxFileSize per file.
	MaxWorkspace int64
	// MaxCPU caps the CPU time of each process of a run_shell command
	// (RLIMIT_CPU; DefaultMaxCPU when 0), rounded up to a second.
	MaxCPU time.Duration
	// MaxMemory caps the address space of each process of a run_shell
	// command in bytes (RLIMIT_AS; DefaultMaxMemory when 0).
	MaxMemory int64
	// MaxFileSize caps the size of a file a run_shell command writes
	// (RLIMIT_FSIZE; DefaultMaxFileSize when 0).
	MaxFileSize int64
	// MaxProcs caps the processes (and threads) of a run_shell command
	// (RLIMIT_NPROC, and a count of the PID namespace's processes, since
	// the kernel does not hold root to RLIMIT_NPROC; DefaultMaxProcs when
	// 0).
	MaxProcs int
	// ShellUID, when above 0 and grue runs as root, is the uid (and
	// gid) run_shell's commands run as, instead of uid 0 without
	// capabilities: root-owned files are then out of their reach, and
	// RLIMIT_NPROC holds. Dir, and every folder a command needs to write
	// (the go command's build cache), must be reachable and writable to
	// that uid; grue changes no owner. It is an error when grue is not
	// root.
	ShellUID int
	// ShellNetwork lets run_shell commands reach the network. Without
	// it, where namespaces can be made, a command runs in a new network
	// namespace with no interface but a loopback that is down: it can
	// connect to nothing, not even 127.0.0.1. In the fallback mode
	// (no user namespaces) a command has grue's network whatever this
	// says (docs/security.md).
	ShellNetwork bool
	// Env holds extra "NAME=value" variables for run_shell, added after
	// the filtered environment (see SafeEnv) and not filtered themselves.
	Env []string

	// noNamespaces runs commands without the new namespaces, as on a
	// system without user namespaces (for tests).
	noNamespaces bool
}

// limit64 returns v, def when v is 0, and 0 (none) when v is negative.
func limit64(v, def int64) uint64 {
	switch {
	case v < 0:
		return 0
	case v == 0:
		return uint64(def)
	}
	return uint64(v)
}

// maxWorkspace is the cap write_file holds the workspace to; 0 is none.
func (w *Workspace) maxWorkspace() int64 {
	return int64(limit64(w.MaxWorkspace, DefaultMaxWorkspace))
}

// sandboxConfig returns the limits a run_shell command runs under.
func (w *Workspace) sandboxConfig() sandbox.Config {
	cpu := limit64(int64(w.MaxCPU), int64(DefaultMaxCPU))
	return sandbox.Config{
		NS:         !w.noNamespaces,
		CPUSeconds: (cpu + uint64(time.Second) - 1) / uint64(time.Second),
		Memory:     limit64(w.MaxMemory, DefaultMaxMemory),
		FileSize:   limit64(w.MaxFileSize, DefaultMaxFileSize),
		Procs:      limit64(int64(w.MaxProcs), DefaultMaxProcs),
		UID:        w.ShellUID,
		Network:    w.ShellNetwork,
	}
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
	case errors.Is(err, errNotRegular):
		why = errNotRegular.Error()
	case errors.Is(err, errLinked):
		why = errLinked.Error()
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
	return Errorf("cannot %s %s: %s", verb, p, why)
}
