// Package rawhttp sends, in tests, HTTP requests that net/http's client
// will not: the attacks that grue's servers must answer (a body streamed
// without end), written byte by byte on a connection of their own.
package rawhttp

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// PostChunked sends, over a connection of its own to addr, a POST to
// path with the extra header lines headers ("Accept: ...", a
// Content-Type other than the default application/json) whose body
// (prefix, then '0's to bodyLen bytes) is sent in chunks with no
// Content-Length and without the last chunk, as a client that streams a
// body without end would; it returns the response the server gave and
// its body. The server may stop reading and answer at any point: a write
// error is no failure, the answer is what counts.
func PostChunked(t testing.TB, addr, path string, headers []string, prefix string, bodyLen int) (*http.Response, []byte) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	head := "POST " + path + " HTTP/1.1\r\nHost: " + addr + "\r\n"
	typed := false
	for _, h := range headers {
		head += h + "\r\n"
		typed = typed || strings.HasPrefix(strings.ToLower(h), "content-type:")
	}
	if !typed {
		head += "Content-Type: application/json\r\n"
	}
	fmt.Fprintf(c, "%sTransfer-Encoding: chunked\r\n\r\n", head)
	if prefix != "" {
		fmt.Fprintf(c, "%x\r\n%s\r\n", len(prefix), prefix)
	}
	chunk := strings.Repeat("0", 32<<10)
	for sent := len(prefix); sent < bodyLen; sent += len(chunk) {
		if _, err := fmt.Fprintf(c, "%x\r\n%s\r\n", len(chunk), chunk); err != nil {
			break
		}
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("POST %s: no answer to a chunked body of %d bytes: %v", path, bodyLen, err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res, out
}
