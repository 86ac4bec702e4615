package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
)

// WorkbenchBinary is the name of the binary that holds the commands grue
// does not link: the REPL, run, web, exp, eval and code. It is installed
// beside grue (go install ./cmd/...).
const WorkbenchBinary = "grue-workbench"

// WorkbenchEnv, when set, is the path of the grue-workbench binary that
// grue executes, in place of the one beside grue or on PATH.
const WorkbenchEnv = "GRUE_WORKBENCH"

// inProcess are the commands that grue runs itself; they are the ones whose
// start-up is measured (docs/performance.md), and they link nothing of the
// REPL, the harness, the web UI or the plots.
var inProcess = []string{"play", "games", "serve", "agent", "version"}

// InProcess reports whether grue runs the command line args itself, rather
// than executing grue-workbench with them. Only a command line that begins
// with one of this package's commands (or asks for the version, or
// completes one of those commands' words) stays in process: everything
// else, the REPL with no arguments and help included, is grue-workbench's,
// whose command tree has every command.
func InProcess(args []string) bool {
	if len(args) == 0 {
		return false // the REPL
	}
	switch args[0] {
	case "--version", "-v":
		return len(args) == 1
	case "__complete", "__completeNoDesc": // cobra's shell completion
		return len(args) > 2 && slices.Contains(inProcess, args[1])
	}
	return slices.Contains(inProcess, args[0])
}

// Main runs grue's command line, os.Args, with the process's standard
// streams, and returns the exit status: in process when InProcess says so,
// otherwise by replacing the process with grue-workbench and the same
// arguments (which does not return when it works).
func Main() int {
	args := os.Args[1:]
	if InProcess(args) {
		handsOff = true
		root := NewRoot(os.Stdin, os.Stdout, os.Stderr)
		// grue completion is grue-workbench's (InProcess sends it there):
		// cobra's command, help texts and all, made at every Execute, was
		// 1 % of grue serve's start.
		root.CompletionOptions.DisableDefaultCmd = true
		return Execute(root, args, os.Stderr)
	}
	code, err := runWorkbench(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "grue: %v\n", err)
	}
	return code
}

// runWorkbench replaces the process with grue-workbench, given args (see
// [FindWorkbench]); it returns only where that could not be done, with
// ExitError and why, or where there is no exec(2), with grue-workbench's
// exit status.
func runWorkbench(args []string) (int, error) {
	path, err := FindWorkbench()
	if err == nil {
		err = execWorkbench(path, args)
	}
	var es ExitStatus
	if errors.As(err, &es) {
		return es.Code, nil
	}
	return ExitError, err
}

// FindWorkbench returns the path of the grue-workbench binary: $GRUE_WORKBENCH
// when it is set, else the one in the directory of the running grue (the
// directory of its symbolic link, then the one the link resolves to), else
// the first on PATH.
func FindWorkbench() (string, error) {
	if p := os.Getenv(WorkbenchEnv); p != "" {
		if err := isExecutable(p); err != nil {
			return "", fmt.Errorf("$%s: %w", WorkbenchEnv, err)
		}
		return p, nil
	}
	name := WorkbenchBinary
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if self, err := os.Executable(); err == nil {
		dirs := []string{filepath.Dir(self)}
		if real, err := filepath.EvalSymlinks(self); err == nil && filepath.Dir(real) != dirs[0] {
			dirs = append(dirs, filepath.Dir(real))
		}
		for _, dir := range dirs {
			if p := filepath.Join(dir, name); isExecutable(p) == nil {
				return p, nil
			}
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("this command is run by %s, which is neither beside grue nor on PATH "+
		"(install both from a clone of grue with `go install ./cmd/...`, or set $%s to its path)",
		WorkbenchBinary, WorkbenchEnv)
}

// isExecutable returns nil when path is a regular file that someone may
// execute.
func isExecutable(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", path)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("%s: %w", path, fs.ErrPermission)
	}
	return nil
}
