package cli

// The HTTP side of grue's commands: serving MCP over streamable HTTP (grue
// serve --http) and the HTTP server grue serve --http and grue web run
// under their connection limits.

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/grue-lab/grue/game/mcp"
	"github.com/grue-lab/grue/game/mcp/mcphttp"
)

// maxHeaderBytes bounds the headers of a request to grue serve --http and
// grue web: more get 431 (net/http's default would be 1 MiB).
const maxHeaderBytes = 64 << 10

// shutdownGrace is how long a server that is told to stop waits for the
// requests in flight.
const shutdownGrace = 5 * time.Second

// HTTPServer is the HTTP server of h under the limits: a connection that does
// not send its headers within the header timeout, or a whole request
// within the read timeout, is closed (slow-loris), as is a keep-alive
// connection idle for the idle timeout; headers are capped at
// [maxHeaderBytes]. There is no write timeout: an event stream may stay
// open as long as what it follows. See docs/security.md.
func HTTPServer(h http.Handler, limits ConnLimits) *http.Server {
	read, header, idle := limits.Timeouts()
	return &http.Server{Handler: h, ReadTimeout: read, ReadHeaderTimeout: header, IdleTimeout: idle, MaxHeaderBytes: maxHeaderBytes}
}

// serveMCP serves srv over streamable HTTP at /mcp on ln (see
// [mcphttp.Handler]), ending sessions idle for longer than idle, under the
// connection limits, until ctx is done (see [ServeHTTP]).
func serveMCP(ctx context.Context, srv *mcp.Server, ln net.Listener, idle time.Duration, limits ConnLimits) error {
	return ServeHTTP(ctx, HTTPServer(mcphttp.Handler(srv, idle), limits), ln, nil)
}

// ServeHTTP runs hs on ln until ctx is done or hs fails; then, after calling
// stopping (when not nil: what must end before the requests in flight can,
// such as event streams), it shuts hs down, waiting a few seconds for
// those requests.
func ServeHTTP(ctx context.Context, hs *http.Server, ln net.Listener, stopping func()) error {
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
