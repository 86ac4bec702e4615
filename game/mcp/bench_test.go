package mcp

import (
	"context"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// benchMCP measures one play_action round trip ("look" in the default
// story's first room) through c.
func benchMCP(b *testing.B, c *Client) {
	ctx := context.Background()
	args := map[string]any{"action": "look"}
	if _, err := c.CallTool(ctx, "play_action", args); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r, err := c.CallTool(ctx, "play_action", args)
		if err != nil || r.IsError {
			b.Fatal(err, r.Text)
		}
	}
}

func BenchmarkMCPInProcess(b *testing.B) {
	c, err := NewInProcessClient()
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	benchMCP(b, c)
}

func BenchmarkMCPStdio(b *testing.B) {
	benchMCP(b, newStdioTestClient(b, "1"))
}

// BenchmarkMCPHTTP: a session (2025-11-25) and a game_id on a stateless
// connection (2026-07-28), which carries its version in every request.
func BenchmarkMCPHTTP(b *testing.B) {
	for _, era := range []string{mcpgo.LATEST_LEGACY_PROTOCOL_VERSION, mcpgo.LATEST_PROTOCOL_VERSION} {
		b.Run(era, func(b *testing.B) {
			_, url := newHTTPTestServer(b, time.Minute)
			benchMCP(b, newHTTPTestClient(b, url, era))
		})
	}
}

// BenchmarkMCPStep is the game step alone, for comparison.
func BenchmarkMCPStep(b *testing.B) {
	c, err := NewInProcessClient()
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	g, err := c.srv.open(c.srv.cfg.game, 1)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := g.Step("look"); err != nil {
			b.Fatal(err)
		}
	}
}
