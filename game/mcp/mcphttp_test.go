package mcp_test

import (
	"context"

	"github.com/grue-lab/grue/game/mcp"
	"github.com/grue-lab/grue/game/mcp/mcphttp"
)

func init() {
	mcp.LinkHTTP(mcphttp.Handler, func(ctx context.Context, url, version string) (*mcp.Client, error) {
		var opts []mcphttp.ClientOption
		if version != "" {
			opts = append(opts, mcphttp.WithProtocolVersion(version))
		}
		return mcphttp.NewClient(ctx, url, opts...)
	})
}
