// Package clihttp is the network side of grue's commands ([cli.Network]):
// serving MCP over streamable HTTP (grue serve --http), playing an MCP game
// server at a URL (grue agent --server http://...), the model's
// OpenAI-compatible client (grue agent with a model), and the HTTP server
// grue serve --http and grue web run under their connection limits.
//
// Command grue-workbench links it and gives it to package cli
// ([cli.SetNetwork]); command grue does not, so that grue play, serve and
// agent start without net/http's initialisation, and hands a command line
// that needs it to grue-workbench.
//
// Its tests are package cli's (serve --http's token and slow-client
// tests reach it through internal/cli/clihttp_test.go) and
// cmd/grue-workbench's scripts.
package clihttp

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/openai"
	"github.com/grue-lab/grue/game/mcp"
	"github.com/grue-lab/grue/game/mcp/mcphttp"
	"github.com/grue-lab/grue/internal/cli"
)

// maxHeaderBytes bounds the headers of a request to grue serve --http and
// grue web: more get 431 (net/http's default would be 1 MiB).
const maxHeaderBytes = 64 << 10

// shutdownGrace is how long a server that is told to stop waits for the
// requests in flight.
const shutdownGrace = 5 * time.Second

// Network returns package cli's network side.
func Network() cli.Network {
	return cli.Network{
		ServeMCP: ServeMCP,
		DialMCP: func(ctx context.Context, url string) (*mcp.Client, error) {
			return mcphttp.NewClient(ctx, url)
		},
		CheckModel: func(ctx context.Context, cfg llm.Config) (llm.Config, error) {
			return openai.CheckModel(ctx, cfg)
		},
		NewModel: func(cfg llm.Config) (llm.Client, error) {
			return openai.New(cfg)
		},
	}
}

// Server is the HTTP server of h under the limits: a connection that does
// not send its headers within the header timeout, or a whole request
// within the read timeout, is closed (slow-loris), as is a keep-alive
// connection idle for the idle timeout; headers are capped at
// [maxHeaderBytes]. There is no write timeout: an event stream may stay
// open as long as what it follows. See docs/security.md.
func Server(h http.Handler, limits cli.ConnLimits) *http.Server {
	read, header, idle := limits.Timeouts()
	return &http.Server{Handler: h, ReadTimeout: read, ReadHeaderTimeout: header, IdleTimeout: idle, MaxHeaderBytes: maxHeaderBytes}
}

// ServeMCP serves srv over streamable HTTP at /mcp on ln (see
// [mcphttp.Handler]), ending sessions idle for longer than idle, under the
// connection limits, until ctx is done (see [Serve]).
func ServeMCP(ctx context.Context, srv *mcp.Server, ln net.Listener, idle time.Duration, limits cli.ConnLimits) error {
	return Serve(ctx, Server(mcphttp.Handler(srv, idle), limits), ln, nil)
}

// Serve runs hs on ln until ctx is done or hs fails; then, after calling
// stopping (when not nil: what must end before the requests in flight can,
// such as event streams), it shuts hs down, waiting a few seconds for
// those requests.
func Serve(ctx context.Context, hs *http.Server, ln net.Listener, stopping func()) error {
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	if stopping != nil {
		stopping()
	}
	shut, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := hs.Shutdown(shut); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
