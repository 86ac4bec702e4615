//go:build !linux

package sandbox

import (
	"errors"
	"os"
	"os/exec"
)

// errNotLinux refuses to run a command unconfined.
var errNotLinux = errors.New("run_shell confines commands only on Linux")

// Config is what the helper is told; see the Linux version.
type Config struct {
	NS         bool
	CPUSeconds uint64
	Memory     uint64
	FileSize   uint64
	Procs      uint64
	UID        int
}

// The helper's answers; see the Linux version.
const (
	StatusExit   = "exit"
	StatusSignal = "signal"
	StatusProcs  = "procs"
	StatusNSFail = "nsfail"
	StatusFail   = "fail"
)

// Command fails: commands are confined only on Linux.
func Command(dir, command string, cfg Config, env []string, out, status *os.File) (*exec.Cmd, error) {
	return nil, errNotLinux
}

// MakeUndumpable fails: commands are confined only on Linux.
func MakeUndumpable() error { return errNotLinux }
