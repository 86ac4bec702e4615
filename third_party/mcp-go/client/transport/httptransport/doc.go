// Package httptransport holds the client transports that speak MCP over
// HTTP: Streamable HTTP ([NewStreamableHTTP]) and the legacy HTTP+SSE
// transport ([NewSSE]), with OAuth.
//
// grue: upstream keeps these in package transport; see
// [github.com/mark3labs/mcp-go/server/httpserver] for why they are apart.
package httptransport
