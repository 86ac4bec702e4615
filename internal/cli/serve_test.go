package cli

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/game/mcp"
)

func testServeOptions() serveOptions {
	return serveOptions{game: "lantern", seed: 1, idle: time.Minute, maxBody: mcp.DefaultMaxBody,
		maxSessions: mcp.DefaultMaxSessions, undoDepth: mcp.DefaultUndoDepth, maxLine: mcp.DefaultMaxLine,
		maxSaved: mcp.DefaultMaxSavedStates,
		conn:     ConnLimits{read: 2 * time.Second, header: 200 * time.Millisecond, idle: time.Second}}
}

// serveOn serves o's game on ln until the test ends and returns what the
// server printed.
func serveOn(t *testing.T, o serveOptions, ln net.Listener) string {
	t.Helper()
	var errOut bytes.Buffer
	srv, err := o.newServer(ln, &errOut)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveMCP(ctx, srv, ln, o.idle, o.conn) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		srv.Close()
	})
	return errOut.String()
}

const serveInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func initStatus(t *testing.T, url, token string) int {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(serveInit))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestServeTokenOffLoopback: bound beyond loopback with no token given,
// grue serve generates one, prints it, and refuses requests without it;
// on loopback a client without Origin needs none.
func TestServeTokenOffLoopback(t *testing.T) {
	t.Setenv(mcp.TokenEnv, "")
	ln, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	printed := serveOn(t, testServeOptions(), ln)
	_, after, ok := strings.Cut(printed, mcp.TokenEnv+"=")
	token := strings.Fields(after + " ")[0]
	if !ok || len(token) < 16 {
		t.Fatalf("no token printed: %q", printed)
	}
	url := fmt.Sprintf("http://127.0.0.1:%d/mcp", ln.Addr().(*net.TCPAddr).Port)
	if code := initStatus(t, url, ""); code != http.StatusUnauthorized {
		t.Errorf("no token: status %d, want 401", code)
	}
	if code := initStatus(t, url, token); code != http.StatusOK {
		t.Errorf("with the printed token: status %d", code)
	}

	lo, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if printed := serveOn(t, testServeOptions(), lo); printed != "" {
		t.Errorf("loopback printed %q", printed)
	}
	if code := initStatus(t, "http://"+lo.Addr().String()+"/mcp", ""); code != http.StatusOK {
		t.Errorf("loopback without token: status %d", code)
	}
}

// TestServeSlowHeaders: connections that never finish their headers are
// closed after --header-timeout, and the server still answers.
func TestServeSlowHeaders(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serveOn(t, testServeOptions(), ln)
	var conns []net.Conn
	for range 50 {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.Write([]byte("POST /mcp HTTP/1.1\r\nHost: x\r\n"))
		conns = append(conns, c)
	}
	for i, c := range conns {
		c.SetReadDeadline(time.Now().Add(3 * time.Second))
		buf := make([]byte, 512)
		for {
			if _, err := c.Read(buf); err != nil {
				if ne, ok := err.(net.Error); ok && ne.Timeout() {
					t.Fatalf("connection %d still open after 3s", i)
				}
				break
			}
		}
	}
	if code := initStatus(t, "http://"+ln.Addr().String()+"/mcp", ""); code != http.StatusOK {
		t.Errorf("after the slow clients: status %d", code)
	}
}
