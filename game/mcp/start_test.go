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

// TestInProcessClientMakesNoMCPServer: an in-process client lists and calls
// the tools without the mcp-go server, which is made only when a transport
// needs it, with the same tools the client listed.
func TestInProcessClientMakesNoMCPServer(t *testing.T) {
	c, err := NewInProcessClient()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	infos, err := c.ToolInfos(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CallTool(ctx, "play_action", map[string]any{"action": "look"}); err != nil {
		t.Fatal(err)
	}
	if c.srv.mcp != nil {
		t.Fatal("the in-process client made the mcp-go server")
	}
	served := c.srv.MCPServer().ListTools()
	if len(served) != len(infos) {
		t.Fatalf("the mcp-go server has %d tools, the client listed %d", len(served), len(infos))
	}
	for _, in := range infos {
		if served[in.Name] == nil {
			t.Errorf("the mcp-go server has no tool %s", in.Name)
		}
	}
}
