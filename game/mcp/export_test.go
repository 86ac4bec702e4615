package mcp

import (
	"context"
	"net/http"
	"time"
)

// LinkHTTP gives this package's tests package mcphttp's Handler and client
// (see http_link_test.go).
func LinkHTTP(handler func(*Server, time.Duration) http.Handler, dial func(ctx context.Context, url, version string) (*Client, error)) {
	httpHandler, dialHTTP = handler, dial
}
