package mcp

import (
	"context"
	"testing"
	"time"
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

func BenchmarkMCPHTTP(b *testing.B) {
	_, url := newHTTPTestServer(b, time.Minute)
	benchMCP(b, newHTTPTestClient(b, url))
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
