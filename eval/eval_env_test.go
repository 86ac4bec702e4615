package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTaskEnv(t *testing.T) {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".cache"), 0o755)
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("GOCACHE", "")
	t.Setenv("GOPATH", "")
	env := TaskEnv()
	for name, want := range map[string]string{
		"GOFLAGS":     "-mod=mod",
		"GOTOOLCHAIN": "local",
		"GOPROXY":     "off",
		"GOWORK":      "off",
		"GOCACHE":     filepath.Join(home, ".cache", "go-build"),
		"GOPATH":      filepath.Join(home, "go"),
	} {
		if got := envValue(env, name); got != want {
			t.Errorf("%s=%q, want %q", name, got, want)
		}
	}

	// A home that is not there (a service's, or a test script's) is not
	// made: the go command gets folders under the temporary directory.
	t.Setenv("HOME", filepath.Join(home, "nonexistent"))
	env = TaskEnv()
	if got := envValue(env, "GOCACHE"); got != filepath.Join(os.TempDir(), "grue-go-build") {
		t.Errorf("GOCACHE=%q", got)
	}
	if got := envValue(env, "GOPATH"); got != filepath.Join(os.TempDir(), "grue-gopath") {
		t.Errorf("GOPATH=%q", got)
	}
	if _, err := os.Stat(filepath.Join(home, "nonexistent")); err == nil {
		t.Error("TaskEnv made the missing home")
	}

	// The user's own settings stand.
	t.Setenv("GOCACHE", "/somewhere/cache")
	if got := envValue(TaskEnv(), "GOCACHE"); got != "" {
		t.Errorf("GOCACHE set again to %q over the user's", got)
	}
}

// envValue returns the value of name in env ("NAME=value" entries; the
// last one wins, as for exec.Cmd).
func envValue(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if n, val, ok := strings.Cut(kv, "="); ok && n == name {
			v = val
		}
	}
	return v
}
