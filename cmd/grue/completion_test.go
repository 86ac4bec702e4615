package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent/memory"
	"github.com/grue-lab/grue/harness/export"
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

// The lists of names come from their packages' tables: --memory and
// grue exp export's --format complete to exactly agent/memory's strategies
// and harness/export's formats, and the help names each of them.
func TestNamesFromTables(t *testing.T) {
	for _, c := range []struct {
		args  []string
		names []string
		docs  []string
	}{
		{[]string{"agent", "--memory"}, memory.Names(), nil},
		{[]string{"exp", "export", "x", "--format"}, export.FormatNames(), formatDocs()},
	} {
		out, errs, code := grue(t, append(append([]string{"__complete"}, c.args...), "")...)
		got := strings.Split(strings.TrimSpace(out), "\n")
		if code != 0 || len(got) == 0 || !strings.HasPrefix(got[len(got)-1], ":") {
			t.Fatalf("%v completes: exit %d, %q %s", c.args, code, out, errs)
		}
		if !slices.Equal(got[:len(got)-1], c.names) {
			t.Errorf("%v completes to %q, want %q", c.args, got[:len(got)-1], c.names)
		}
		help, _, _ := grue(t, append(c.args[:len(c.args)-1:len(c.args)-1], "--help")...)
		flag := c.args[len(c.args)-1]
		line := ""
		for _, l := range strings.Split(help, "\n") {
			if strings.Contains(l, "  "+flag+" ") {
				line = l
			}
		}
		if want := strings.Join(c.names, ", "); !strings.Contains(line, want) {
			t.Errorf("%v --help says %q, not %q", c.args[:len(c.args)-1], line, want)
		}
		for _, d := range c.docs {
			if !strings.Contains(help, d) {
				t.Errorf("%v --help does not say %q", c.args[:len(c.args)-1], d)
			}
		}
	}
}

// formatDocs are the first lines of the formats' help texts.
func formatDocs() []string {
	var docs []string
	for _, f := range export.Formats() {
		docs = append(docs, strings.SplitN(f.Doc, "\n", 2)[0])
	}
	return docs
}
