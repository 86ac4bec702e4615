package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInProcess: grue runs the fast commands itself and hands the rest,
// help and the REPL included, to grue-workbench.
func TestInProcess(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, false}, // the REPL
		{[]string{"play"}, true},
		{[]string{"play", "--help"}, true},
		{[]string{"games", "zork1"}, true},
		{[]string{"serve", "--http", ":0"}, true},
		{[]string{"agent", "--policy", "random"}, true},
		{[]string{"version"}, true},
		{[]string{"--version"}, true},
		{[]string{"-v"}, true},
		{[]string{"--version", "extra"}, false},
		{[]string{"exp", "run", "x.yaml"}, false},
		{[]string{"run", "notes.md"}, false},
		{[]string{"web"}, false},
		{[]string{"eval"}, false},
		{[]string{"code"}, false},
		{[]string{"help"}, false},
		{[]string{"help", "play"}, false},
		{[]string{"--help"}, false},
		{[]string{"--game", "zork1"}, false},
		{[]string{"--seed", "3", "play"}, false}, // root flags are the REPL's
		{[]string{"completion", "bash"}, false},
		{[]string{"__complete", "play", "--se"}, true},
		{[]string{"__completeNoDesc", "agent", "--policy", ""}, true},
		{[]string{"__complete", ""}, false}, // the commands: all of them
		{[]string{"__complete", "exp", ""}, false},
		{[]string{"frobnicate"}, false},
	} {
		if got := InProcess(tc.args); got != tc.want {
			t.Errorf("InProcess(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

// TestFindWorkbench: $GRUE_WORKBENCH must name an executable file; an
// error says which and why.
func TestFindWorkbench(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "wb")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(WorkbenchEnv, exe)
	if got, err := FindWorkbench(); err != nil || got != exe {
		t.Errorf("FindWorkbench() = %q, %v; want %q", got, err, exe)
	}
	for path, want := range map[string]string{
		plain:                         "permission denied",
		dir:                           "not a regular file",
		filepath.Join(dir, "missing"): "no such file",
	} {
		t.Setenv(WorkbenchEnv, path)
		if _, err := FindWorkbench(); err == nil || !strings.Contains(err.Error(), "$GRUE_WORKBENCH") || !strings.Contains(err.Error(), want) {
			t.Errorf("$GRUE_WORKBENCH=%s: error %v, want one naming $GRUE_WORKBENCH and %q", path, err, want)
		}
	}
	// Unset, and with nothing beside the test binary or on PATH: the error
	// says how to install it.
	t.Setenv(WorkbenchEnv, "")
	t.Setenv("PATH", dir)
	if _, err := FindWorkbench(); err == nil || !strings.Contains(err.Error(), "go install ./cmd/...") {
		t.Errorf("no grue-workbench anywhere: error %v", err)
	}
	// On PATH.
	onPath := filepath.Join(dir, WorkbenchBinary)
	if err := os.WriteFile(onPath, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := FindWorkbench(); err != nil || got != onPath {
		t.Errorf("FindWorkbench() = %q, %v; want %q from PATH", got, err, onPath)
	}
}
