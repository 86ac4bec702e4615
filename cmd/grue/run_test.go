package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/internal/cli"
)

func TestRunExitStatus(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.z5")
	if err := os.WriteFile(junk, []byte("not a story file"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GRUE_GAMES", "")
	for _, tc := range []struct {
		args   []string
		status int
		stdout string
		stderr string
	}{
		{[]string{"version"}, cli.ExitOK, "grue ", ""},
		{nil, cli.ExitOK, "", ""}, // the REPL, reading no cells from an empty stdin
		{[]string{"--help"}, cli.ExitOK, "Usage:", ""},
		{[]string{"play", filepath.Join(dir, "missing.z5")}, cli.ExitError, "", "grue play: story "},
		{[]string{"play", junk}, cli.ExitError, "", "grue play: " + junk + ": "},
		{[]string{"play", "--frobnicate", junk}, cli.ExitUsage, "", "Run 'grue play --help' for usage."},
		{[]string{"play", "a.z5", "b.z5"}, cli.ExitUsage, "", "grue play: accepts at most 1 arg(s), received 2"},
		{[]string{"play", "--height", "300", junk}, cli.ExitUsage, "", "grue play: --height 300: want 1 to 255"},
		{[]string{"nonesuch"}, cli.ExitUsage, "", `grue: unknown command "nonesuch" for "grue"`},
	} {
		var stdout, stderr strings.Builder
		status := run(tc.args, strings.NewReader(""), &stdout, &stderr)
		if status != tc.status || !strings.Contains(stdout.String(), tc.stdout) || !strings.Contains(stderr.String(), tc.stderr) {
			t.Errorf("grue %s: status %d, stdout %q, stderr %q; want status %d, stdout with %q, stderr with %q",
				strings.Join(tc.args, " "), status, stdout.String(), stderr.String(), tc.status, tc.stdout, tc.stderr)
		}
	}
}
