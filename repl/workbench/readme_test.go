package workbench

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// promptLine matches a line of a REPL session as the README shows it:
// the prompt, "[3]> " (or the older ">>> "), then the cell.
var promptLine = regexp.MustCompile(`^(?:\[\d+\]>|>>>) (.*)$`)

// TestREADMEBlock runs the REPL session that README.md shows, cell by
// cell as written there (trailing comments included), on the explorer
// baseline: a README whose example cannot be pasted fails here.
func TestREADMEBlock(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var cells []string
	for _, line := range strings.Split(string(data), "\n") {
		if m := promptLine.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			cells = append(cells, m[1])
		}
	}
	if len(cells) < 5 {
		t.Fatalf("README.md has %d REPL cells (lines starting [N]> or >>>), want its session", len(cells))
	}
	t.Chdir(t.TempDir()) // :save writes its notebook here
	s, _ := newSession(t)
	for _, c := range cells {
		if _, err := s.Eval(context.Background(), c); err != nil {
			t.Errorf("README cell %q: %v", c, err)
		}
	}
	// The comment after :play west stays out of the game.
	if out := evalOK(t, s, `ep.Agent.History[0].Args["action"]`); out != "west\n" {
		t.Errorf("the README's :play sent %q, want west", out)
	}
	saved, err := os.ReadFile("notes.md")
	if err != nil {
		t.Fatalf("the README's :save notes.md wrote nothing: %v", err)
	}
	if !strings.Contains(string(saved), "ep.Fork()") {
		t.Errorf("notes.md lacks the session's cells:\n%s", saved)
	}
}
