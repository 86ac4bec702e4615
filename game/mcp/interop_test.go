package mcp

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/internal/testgames"
)

// TestClientAgainstSDKServer plays grue's MCP client against a game server
// written with the official TypeScript SDK (testdata/mcpinterop, installed
// by npm ci): a peer grue did not write.
func TestClientAgainstSDKServer(t *testing.T) {
	node := testgames.Tool(t, "node", "apt-get install -y nodejs")
	dir := filepath.Join("testdata", "mcpinterop")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		testgames.Missing(t, "the MCP SDK is not installed (npm ci in %s): %v", dir, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := NewStdioClient(ctx, node, filepath.Join(dir, "toy-server.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	tools, err := c.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"inventory", "memory", "play_action"}; !slices.Equal(tools, want) {
		t.Errorf("tools %v, want %v", tools, want)
	}
	r, err := c.CallTool(ctx, "play_action", map[string]any{"action": "north"})
	if err != nil || r.IsError {
		t.Fatalf("play_action north: %v %+v", err, r)
	}
	if !strings.Contains(r.Text, "Vault") || r.String("location") != "Vault" || r.Int("moves") != 1 {
		t.Errorf("play_action north: %+v", r)
	}
	r, err = c.CallTool(ctx, "play_action", map[string]any{"action": "take coin"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(r.Text, "+10 points! (Total: 10)\n\nGAME OVER") || !r.Bool("victory") || r.Int("score") != 10 {
		t.Errorf("play_action take coin: %+v", r)
	}
	r, err = c.CallTool(ctx, "inventory", nil)
	if err != nil || r.Text != "Inventory: a gold coin" {
		t.Errorf("inventory: %v %q", err, r.Text)
	}
}
