package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeFile(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "cmds.txt")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadCommands(t *testing.T) {
	cmds, err := ReadCommands(writeFile(t, "# a walkthrough\r\nnorth\r\n\n  take lamp  \nsouth"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cmds, []string{"north", "take lamp", "south"}) {
		t.Errorf("commands %q", cmds)
	}
	for name, content := range map[string]string{
		"no command":   "# nothing\n\n",
		"a NUL":        "north\nso\x00uth\n",
		"a long line":  strings.Repeat("x", MaxCommandLen+1),
		"too many":     strings.Repeat("n\n", MaxCommands+1),
		"too big file": strings.Repeat("x\n", MaxCommandsBytes),
	} {
		if _, err := ReadCommands(writeFile(t, content)); err == nil {
			t.Errorf("%s: read as a command file", name)
		}
	}
	if _, err := ReadCommands(filepath.Join(t.TempDir(), "nope")); err == nil {
		t.Error("a missing file read")
	}
}

func TestCommandsPolicyReplaysThenIsDone(t *testing.T) {
	p := NewCommands([]string{"north", "south"}, "cmds.txt")
	if p.Name() != BaselineCommands {
		t.Errorf("name %q", p.Name())
	}
	var got []string
	for {
		a, err := p.Next(context.Background(), View{})
		if errors.Is(err, ErrDone) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, a.Args["action"].(string))
	}
	if !slices.Equal(got, []string{"north", "south"}) {
		t.Errorf("played %q", got)
	}
	if _, err := NewBaseline(BaselineCommands, 1, "lantern"); err == nil {
		t.Error("the commands baseline made without a file")
	}
}
