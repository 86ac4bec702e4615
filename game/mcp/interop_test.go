package mcp

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/grue-lab/grue/internal/testgames"
)

// interopDir is where npm ci installs the real MCP peers.
var interopDir = filepath.Join("testdata", "mcpinterop")

// nodeWith finds node and checks that the npm packages are installed: a
// skip without them, a failure with CI=true.
func nodeWith(t *testing.T, packages ...string) string {
	t.Helper()
	node := testgames.Tool(t, "node", "apt-get install -y nodejs")
	for _, p := range packages {
		if _, err := os.Stat(filepath.Join(interopDir, "node_modules", filepath.FromSlash(p))); err != nil {
			testgames.Missing(t, "%s is not installed (npm ci in %s): %v", p, interopDir, err)
		}
	}
	return node
}

// playToyGame plays the toy game of testdata/mcpinterop to its end
// through c.
func playToyGame(t *testing.T, c *Client) {
	t.Helper()
	ctx := context.Background()
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

// TestClientAgainstSDKServer plays grue's MCP client against a game server
// written with the official TypeScript SDK 1.x (testdata/mcpinterop,
// installed by npm ci), which speaks the 2025 protocol only: grue's
// client asks server/discover, is refused, and initializes a session.
func TestClientAgainstSDKServer(t *testing.T) {
	node := nodeWith(t, "@modelcontextprotocol/sdk")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := NewStdioClient(ctx, node, filepath.Join(interopDir, "toy-server.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	t.Logf("grue client ↔ TypeScript SDK 1.32.2 server (stdio): negotiated %s", c.ProtocolVersion())
	if c.ProtocolVersion() != mcpgo.LATEST_LEGACY_PROTOCOL_VERSION {
		t.Errorf("negotiated %q, want %s", c.ProtocolVersion(), mcpgo.LATEST_LEGACY_PROTOCOL_VERSION)
	}
	playToyGame(t, c)
}

// TestClientAgainstModernOnlyServer plays grue's MCP client against a
// server of the new era only, written with the TypeScript SDK 2.x
// (testdata/mcpinterop/modern-server.mjs): it answers server/discover,
// refuses initialize, and offers only the play tools (no reset_game, no
// new_game, no game_id), over stdio and over streamable HTTP.
func TestClientAgainstModernOnlyServer(t *testing.T) {
	node := nodeWith(t, "@modelcontextprotocol/server", "@modelcontextprotocol/node")
	script := filepath.Join(interopDir, "modern-server.mjs")
	t.Run("stdio", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := NewStdioClient(ctx, node, script, "stdio")
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		t.Logf("grue client ↔ TypeScript SDK 2.4.0 modern-only server (stdio): negotiated %s", c.ProtocolVersion())
		if c.ProtocolVersion() != mcpgo.LATEST_PROTOCOL_VERSION {
			t.Errorf("negotiated %q, want %s", c.ProtocolVersion(), mcpgo.LATEST_PROTOCOL_VERSION)
		}
		playToyGame(t, c)
	})
	t.Run("http", func(t *testing.T) {
		url := startNodeHTTPServer(t, node, script, "http")
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := NewHTTPClient(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		t.Logf("grue client ↔ TypeScript SDK 2.4.0 modern-only server (HTTP): negotiated %s", c.ProtocolVersion())
		if c.ProtocolVersion() != mcpgo.LATEST_PROTOCOL_VERSION || c.GameID() != "" {
			t.Errorf("negotiated %q with game id %q, want %s and none", c.ProtocolVersion(), c.GameID(), mcpgo.LATEST_PROTOCOL_VERSION)
		}
		playToyGame(t, c)

		// Asked for a session, the server refuses: the error says so,
		// and blames no "legacy SSE server".
		_, err = NewHTTPClient(ctx, url, WithProtocolVersion(mcpgo.LATEST_LEGACY_PROTOCOL_VERSION))
		if err == nil || strings.Contains(err.Error(), "SSE") || !strings.Contains(err.Error(), "speaks only MCP 2026-07-28") {
			t.Errorf("a legacy-only grue client against a modern-only server: %v, want a clear refusal", err)
		} else {
			t.Logf("legacy-pinned grue client ↔ modern-only server: %v", err)
		}
	})
}

// startNodeHTTPServer runs a node server script that prints "listening at
// URL" on stderr, and returns the URL; the server is stopped at the end of
// the test.
func startNodeHTTPServer(t *testing.T, node string, args ...string) string {
	t.Helper()
	cmd := exec.Command(node, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if url, ok := strings.CutPrefix(sc.Text(), "listening at "); ok {
				found <- url
			}
		}
	}()
	select {
	case url := <-found:
		return url
	case <-time.After(20 * time.Second):
		t.Fatalf("%v did not say where it listens within 20s", args)
		return ""
	}
}
