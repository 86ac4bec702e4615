package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoneBinary: grue is one program. Built, copied alone into an empty
// folder and run there with PATH empty (no second binary to find, no go
// tool, no dfrotz), it answers --help, plays Zork I and runs the REPL's
// cells on the built-in story with no model.
func TestLoneBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds grue: not with -short")
	}
	built := buildGrue(t, t.TempDir())
	data, err := os.ReadFile(built)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "grue")
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	// Only what the commands need: no PATH, no model's variables.
	env := []string{"PATH=", "HOME=" + home, "TMPDIR=" + t.TempDir()}
	grue := func(t *testing.T, stdin string, args ...string) (stdout, stderr string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = dir, env
		cmd.Stdin = strings.NewReader(stdin)
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("grue %q: %v\nstdout: %s\nstderr: %s", args, err, out.String(), errOut.String())
		}
		return out.String(), errOut.String()
	}
	wantIn := func(t *testing.T, what, got string, wants ...string) {
		t.Helper()
		for _, w := range wants {
			if !strings.Contains(got, w) {
				t.Errorf("%s has no %q:\n%s", what, w, got)
			}
		}
	}

	t.Run("help", func(t *testing.T) {
		out, _ := grue(t, "", "--help")
		wantIn(t, "grue --help", out, "Usage:", "grue [command]", "play", "serve", "agent", "exp", "run")
	})

	t.Run("zork1", func(t *testing.T) {
		story := filepath.Join(gamesDir(t), "zork1.z3")
		if !fileExists(story) {
			if os.Getenv("CI") == "true" {
				t.Fatalf("no %s (set GRUE_GAMES): with CI=true a missing story file is a failure", story)
			}
			t.Skipf("no %s (set GRUE_GAMES)", story)
		}
		out, _ := grue(t, "open mailbox\nread leaflet\n", "play", "--plain", story)
		wantIn(t, "grue play zork1.z3", out, "West of House", "Opening the small mailbox reveals a leaflet.", "WELCOME TO ZORK!")
	})

	t.Run("repl", func(t *testing.T) {
		out, errOut := grue(t, "g.Info().Location\nfmt.Println(6 * 7)\n")
		if out != "--- [1] g.Info().Location\nMeadow\n--- [2] fmt.Println(6 * 7)\n42\n" {
			t.Errorf("the REPL's cells printed:\n%s", out)
		}
		wantIn(t, "the REPL's banner", errOut, "game: lantern (seed 1), policy: explorer")
	})
}
