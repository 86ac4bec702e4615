// Package testgames finds what grue's tests need from outside the
// repository: the shared story files, in the folder $GRUE_GAMES names
// (../shared/games beside the repository by default), and tools such as
// dfrotz and inform6. A test that lacks one is skipped with the reason, or,
// under CI=true, fails: CI must never pass by skipping.
package testgames

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// Env is the environment variable naming the folder of story files.
const Env = "GRUE_GAMES"

// Dir returns the folder of story files: $GRUE_GAMES, taken relative to the
// repository root (where go.mod is) when it is relative and a folder there,
// or else ../shared/games beside the repository.
func Dir() string {
	root := moduleRoot()
	dir := os.Getenv(Env)
	if dir == "" {
		return filepath.Join(root, "..", "shared", "games")
	}
	if filepath.IsAbs(dir) {
		return dir
	}
	if p := filepath.Join(root, dir); isDir(p) {
		return p
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

// Path returns the path of a file in Dir, skipping the test (failing it
// under CI) when it is missing.
func Path(tb testing.TB, name string) string {
	tb.Helper()
	p := filepath.Join(Dir(), name)
	if _, err := os.Stat(p); err != nil {
		Missing(tb, "story file %s not found (set %s to the folder holding it): %v", name, Env, err)
	}
	return p
}

// Tool finds a program on PATH or at one of the other places given,
// skipping the test (failing it under CI) when it is not installed;
// install says how to install it.
func Tool(tb testing.TB, name, install string, also ...string) string {
	tb.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, p := range also {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	Missing(tb, "%s not found (%s)", name, install)
	return ""
}

// Dfrotz finds dfrotz, the reference interpreter, as Tool does.
func Dfrotz(tb testing.TB) string {
	tb.Helper()
	return Tool(tb, "dfrotz", "apt-get install -y frotz", "/usr/games/dfrotz")
}

// InCI reports whether missing test inputs must fail rather than skip.
func InCI() bool {
	ok, _ := strconv.ParseBool(os.Getenv("CI"))
	return ok
}

// Missing skips the test, or fails it under CI=true, for a missing input.
func Missing(tb testing.TB, format string, args ...any) {
	tb.Helper()
	msg := fmt.Sprintf(format, args...)
	if InCI() {
		tb.Fatal(msg + " (CI=true: missing inputs are failures)")
	}
	tb.Skip(msg)
}

// moduleRoot finds the folder holding go.mod, walking up from the package
// folder a test runs in.
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return "."
	}
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
