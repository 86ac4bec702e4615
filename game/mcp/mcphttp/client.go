package mcphttp

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/grue-lab/grue/game/mcp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// ClientOption configures a client made by [NewClient].
type ClientOption func(*clientConfig)

type clientConfig struct {
	protocol string
}

// WithProtocolVersion makes the client ask for this MCP protocol version
// rather than negotiate the newest both sides speak: "2026-07-28" for the
// stateless era only (a server that lacks it is an error), "2025-11-25"
// or earlier for a session started by initialize.
func WithProtocolVersion(version string) ClientOption {
	return func(c *clientConfig) { c.protocol = version }
}

// NewClient connects to the streamable HTTP MCP server at url (for grue
// serve --http ADDR: http://ADDR/mcp) in the newest protocol era both
// speak: MCP 2026-07-28, stateless, when the server offers it (asked with
// server/discover), else a session started by initialize. Without a
// session, when the server issues game handles (new_game, as grue's
// does), the client starts a game of its own and passes its game_id to
// every tool that takes one, so that it never plays another client's
// game. When the GRUE_SERVE_TOKEN environment variable is set, every
// request carries it as a bearer token.
func NewClient(ctx context.Context, url string, opts ...ClientOption) (*mcp.Client, error) {
	var cfg clientConfig
	for _, o := range opts {
		o(&cfg)
	}
	var topts []transport.StreamableHTTPCOption
	if tok := os.Getenv(mcp.TokenEnv); tok != "" {
		topts = append(topts, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + tok}))
	}
	cl, err := client.NewStreamableHttpClient(url, topts...)
	if err != nil {
		return nil, fmt.Errorf("MCP client for %s: %w", url, err)
	}
	if err := cl.Start(ctx); err != nil {
		return nil, fmt.Errorf("MCP client for %s: %w", url, err)
	}
	c, err := mcp.NewRemoteClient(ctx, cl, url, cfg.protocol)
	var initErr *mcp.InitializeError
	if errors.As(err, &initErr) {
		return nil, fmt.Errorf("MCP server at %s: %w", url, httpConnectError(ctx, url, topts, initErr.Err))
	}
	return c, err
}

// httpConnectError explains a failed connection. mcp-go reports a 4xx
// answer to initialize as "likely a legacy SSE server", which misleads:
// a server of MCP 2026-07-28 only refuses initialize too (asked for when
// the client was pinned to an earlier version), and otherwise
// server/discover had failed already, so the URL is no MCP endpoint of
// either era (a wrong path, most often). A second probe, server/discover
// alone, tells the two apart.
func httpConnectError(ctx context.Context, url string, topts []transport.StreamableHTTPCOption, err error) error {
	if !errors.Is(err, transport.ErrLegacySSEServer) {
		return err
	}
	probe, perr := client.NewStreamableHttpClient(url, topts...)
	if perr == nil {
		defer probe.Close()
		if perr = probe.Start(ctx); perr == nil {
			if perr = mcp.Initialize(ctx, probe, mcpgo.LATEST_PROTOCOL_VERSION); perr == nil {
				return fmt.Errorf("the server speaks only MCP %s (no initialize, no session), and the client was "+
					"asked for an earlier version: let it negotiate", probe.ProtocolVersion())
			}
		}
	}
	return errors.New("no MCP endpoint answers there: server/discover (MCP 2026-07-28) and initialize " +
		"(MCP 2025-11-25 and earlier) were both refused with an HTTP 4xx status; check the URL " +
		"(grue serve --http ADDR serves http://ADDR/mcp)")
}
