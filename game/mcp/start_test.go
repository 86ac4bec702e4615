package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/grue-lab/grue/game/stories"
)

// TestServerGameFailsToStart: a story that loads but fails before its first
// prompt (here an illegal opcode at its first instruction) does not stop
// the server being made; the first call that plays it says why.
func TestServerGameFailsToStart(t *testing.T) {
	_, data := stories.Default()
	story := append([]byte(nil), data...)
	pc := int(story[6])<<8 | int(story[7])
	story[pc], story[pc+1], story[pc+2] = 0x00, 0, 0 // 2OP:0, which no version has
	path := filepath.Join(t.TempDir(), "broken.z5")
	if err := os.WriteFile(path, story, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := NewServer(WithGame(path))
	if err != nil {
		t.Fatalf("NewServer of a story that fails at its first instruction: %v", err)
	}
	defer s.Close()
	for range 2 { // the session's first call, and its next
		req := mcpgo.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "play_action", map[string]any{"action": "look"}
		res, err := s.handlers["play_action"](context.WithValue(context.Background(), sessionKey{}, "a"), req)
		if err != nil {
			t.Fatal(err)
		}
		if r := toolResult(res); !r.IsError || !strings.Contains(r.Text, "illegal opcode") {
			t.Errorf("play_action on a story that cannot start: %q (error %v); want the illegal opcode named", r.Text, r.IsError)
		}
	}
}
