package tools

import (
	"context"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent/llm"
)

func TestDescribeGameTools(t *testing.T) {
	reg, err := NewGameRegistry(context.Background(), inProcessClient(t), "play_action", "reset_game", "inventory")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(Describe(reg), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("Describe gave %d lines, want 3:\n%s", len(lines), Describe(reg))
	}
	for i, prefix := range []string{
		"- play_action(action: string): Send one command",
		"- reset_game(game?: string, seed?: number): Start a game again",
		"- inventory(): What the player carries",
	} {
		if !strings.HasPrefix(lines[i], prefix) {
			t.Errorf("line %d = %q, want it to start %q", i+1, lines[i], prefix)
		}
	}
}

func TestDescribeSpecTypes(t *testing.T) {
	s := llm.ToolSpec{
		Name:        "notes",
		Description: "Keep\n  notes.",
		Parameters: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"action": map[string]any{"type": "string", "enum": []any{"add", "list"}},
				"tags":   map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
				"text":   map[string]any{"type": "string"},
				"extra":  map[string]any{},
			},
			"required": []string{"text", "action"},
		},
	}
	want := "- notes(text: string, action: add|list, extra?: any, tags?: string[]): Keep notes."
	if got := DescribeSpec(s); got != want {
		t.Errorf("DescribeSpec = %q\nwant           %q", got, want)
	}
}
