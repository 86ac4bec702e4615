package mcp

import (
	"context"
	"net/http"
	"time"
)

// This package's tests serve and dial over HTTP through package mcphttp,
// which imports this one, so they cannot import it: mcphttp_test.go, in
// package mcp_test, links its Handler and NewClient here before any test
// runs (see export_test.go).
var (
	// httpHandler is mcphttp.Handler.
	httpHandler func(s *Server, idle time.Duration) http.Handler
	// dialHTTP is mcphttp.NewClient, asking for the protocol version
	// ("" negotiates).
	dialHTTP func(ctx context.Context, url, version string) (*Client, error)
)
