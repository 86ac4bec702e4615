// Package httpclient makes a [client.Client] over HTTP: Streamable HTTP
// ([NewStreamableHttpClient]), HTTP+SSE ([NewSSEMCPClient]) and their OAuth
// variants.
//
// grue: upstream keeps these constructors in package client; see
// [github.com/mark3labs/mcp-go/server/httpserver] for why they are apart.
package httpclient
