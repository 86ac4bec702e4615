// Package httpserver serves an [server.MCPServer] over HTTP: the Streamable
// HTTP transport (both protocol eras) and the legacy HTTP+SSE transport,
// with their CORS, localhost and protected-resource helpers.
//
// grue: upstream keeps these in package server. They are a package of their
// own here so that a program that serves MCP only over stdio or in process
// does not link net/http, whose initialisation (with crypto/tls's) every
// process that links it pays at start-up; see README.grue.md.
package httpserver
