package eval

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
)

// The environment a task's commands run in: the user's (less its secrets,
// see tools.SafeEnv), plus what makes the go command work offline in a
// throwaway module.

// FindGo returns the go command's path: on PATH, else in $GOROOT/bin, else
// in the usual install folders (/usr/local/go, /usr/lib/go).
func FindGo() (string, error) {
	if p, err := exec.LookPath("go"); err == nil {
		return p, nil
	}
	for _, root := range []string{os.Getenv("GOROOT"), "/usr/local/go", "/usr/lib/go"} {
		if root == "" {
			continue
		}
		p := filepath.Join(root, "bin", "go")
		if info, err := os.Stat(p); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", errors.New("the go command is not on PATH, nor in GOROOT: install Go (https://go.dev/dl) or put it on PATH")
}

// TaskEnv returns the "NAME=value" variables a task's commands get on top
// of the user's environment: the go command's folder at the head of PATH
// when it is not on PATH, GOFLAGS=-mod=mod, GOTOOLCHAIN=local, GOPROXY=off,
// GOWORK=off and GOENV=off (no network, no toolchain download, no go.work
// from a parent folder, no setting an agent saved with go env -w), and a
// GOCACHE (and GOPATH) that can be written: the user's own build cache, so
// that builds are fast, or a folder under the temporary directory when
// there is no usable home.
func TaskEnv() []string {
	env := []string{"GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOPROXY=off", "GOWORK=off", "GOENV=off"}
	if _, err := exec.LookPath("go"); err != nil {
		if p, err := FindGo(); err == nil {
			env = append(env, "PATH="+filepath.Dir(p)+string(os.PathListSeparator)+os.Getenv("PATH"))
		}
	}
	if os.Getenv("GOCACHE") == "" {
		env = append(env, "GOCACHE="+userDir(os.UserCacheDir, "go-build", "grue-go-build"))
	}
	if os.Getenv("GOPATH") == "" {
		env = append(env, "GOPATH="+userDir(os.UserHomeDir, "go", "grue-gopath"))
	}
	return env
}

// userDir returns name in the folder base gives (the user's cache or
// home) when that folder is there, as the go command would use it, and
// otherwise fallback under the temporary directory: a home that does not
// exist (HOME=/nonexistent for a service) is not made.
func userDir(base func() (string, error), name, fallback string) string {
	if d, err := base(); err == nil && filepath.IsAbs(d) {
		if info, err := os.Stat(d); err == nil && info.IsDir() {
			return filepath.Join(d, name)
		}
	}
	return filepath.Join(os.TempDir(), fallback)
}
