package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/grue-lab/grue/internal/cli"
)

func grue(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// grue completion prints each shell's script, and the scripts' helper
// completes grue agent's flags with their values.
func TestCompletion(t *testing.T) {
	for shell, sign := range map[string]string{"bash": "complete -o default -F __start_grue grue", "zsh": "#compdef grue", "fish": "complete -c grue"} {
		out, errs, code := grue(t, "completion", shell)
		if code != 0 || !strings.Contains(out, sign) {
			t.Errorf("completion %s: exit %d, %s; script lacks %q", shell, code, errs, sign)
		}
	}
	out, _, _ := grue(t, "__complete", "agent", "--policy", "")
	if !strings.Contains(out, "walkthrough\nexplorer\n") {
		t.Errorf("--policy completes to\n%s", out)
	}
	out, _, _ = grue(t, "__complete", "agent", "--drop-param", "")
	if !strings.Contains(out, "stream_options\n") {
		t.Errorf("--drop-param completes to\n%s", out)
	}
	out, _, _ = grue(t, "__complete", "")
	for _, sub := range []string{"agent", "play", "completion", "exp"} {
		if !strings.Contains(out, sub) {
			t.Errorf("subcommands complete without %s:\n%s", sub, out)
		}
	}
}

// grue --version says what grue version says.
func TestVersionFlag(t *testing.T) {
	flag, _, code := grue(t, "--version")
	cmd, _, _ := grue(t, "version")
	if code != 0 || flag != "grue "+cli.Version()+"\n" || flag != cmd {
		t.Errorf("--version %q (exit %d), version %q", flag, code, cmd)
	}
}
