package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/grue-lab/grue/game/stories"
)

// TestResetGameRefusesPaths: a client names only games the server serves;
// a path (a secret, a device, a named pipe) is refused at once without
// opening it or telling anything about it.
func TestResetGameRefusesPaths(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe.z5")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := NewInProcessClient()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"/etc/passwd", "/etc/shadow", "/dev/zero", fifo, "../../etc/passwd", "..", "./x.z5"} {
		done := make(chan ToolResult, 1)
		go func() { done <- call(t, c, "reset_game", map[string]any{"game": name}) }()
		select {
		case r := <-done:
			if !r.IsError || strings.Contains(r.Text, "version") || strings.Contains(r.Text, "byte") {
				t.Errorf("reset_game %q: %+v, want a refusal that says nothing of the file", name, r)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("reset_game %q still running after 5s", name)
		}
	}
	if r := call(t, c, "reset_game", map[string]any{"game": "lantern"}); r.IsError || r.String("game") != "lantern" {
		t.Errorf("reset_game lantern: %+v", r)
	}
}

// TestResetGameByNameFromGamesFolder: a story in GRUE_GAMES is still
// reachable by name.
func TestResetGameByNameFromGamesFolder(t *testing.T) {
	dir := t.TempDir()
	_, data := stories.Default()
	if err := os.WriteFile(filepath.Join(dir, "other.z5"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GRUE_GAMES", dir)
	c, err := NewInProcessClient()
	if err != nil {
		t.Fatal(err)
	}
	if r := call(t, c, "reset_game", map[string]any{"game": "other"}); r.IsError {
		t.Errorf("reset_game other: %+v", r)
	}
	if r := call(t, c, "reset_game", map[string]any{"game": filepath.Join(dir, "other.z5")}); !r.IsError {
		t.Errorf("reset_game by path: %+v, want refused", r)
	}
}

// TestReaperDoesNotWaitForStuckSession: a session stuck in a tool call
// holds up no other session, even while the idle reaper runs.
func TestReaperDoesNotWaitForStuckSession(t *testing.T) {
	s, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.HTTPSide().Reap(20 * time.Millisecond)
	ctxOf := func(id string) context.Context {
		return context.WithValue(context.Background(), sessionKey{}, id)
	}
	stuck, other := s.ids.generate(nil), s.ids.generate(nil)
	ss, refusal := s.gameFor(ctxOf(stuck), "memory", nil) // locked, as by a tool call that never ends
	if refusal != nil {
		t.Fatal(refusal)
	}
	defer ss.mu.Unlock()
	time.Sleep(100 * time.Millisecond) // the reaper runs, and finds stuck idle
	done := make(chan error, 1)
	go func() {
		_, err := s.handlers["memory"](ctxOf(other), mcpgo.CallToolRequest{})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("another session's call blocked behind a stuck session")
	}
}

// TestStoryCacheByIdentity: many names of one file are one cache entry,
// and many files never take more than the cache's size.
func TestStoryCacheByIdentity(t *testing.T) {
	dir := t.TempDir()
	_, data := stories.Default()
	file := filepath.Join(dir, "a.z5")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	c := newStoryCache(4)
	for i := range 200 {
		alias := filepath.Join(dir, fmt.Sprintf("alias%d.z5", i))
		if err := os.Symlink(file, alias); err != nil {
			t.Fatal(err)
		}
		if _, err := c.load(alias); err != nil {
			t.Fatal(err)
		}
		if _, err := c.load(fmt.Sprintf("%s/./../%s/alias%d.z5", dir, filepath.Base(dir), i)); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.len(); n != 1 {
		t.Errorf("400 names of one file: %d cache entries, want 1", n)
	}
	for i := range 20 {
		f := filepath.Join(dir, fmt.Sprintf("copy%d.z5", i))
		if err := os.WriteFile(f, data, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := c.load(f); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.len(); n != 4 {
		t.Errorf("21 files: %d cache entries, want the cap, 4", n)
	}
}

// post sends one JSON-RPC request to url with headers and returns the
// status and body.
func post(t *testing.T, url string, body io.Reader, size int64, headers map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", url, body)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = size
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, string(data)
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func newGuardedServer(t *testing.T, opts ...ServerOption) (*Server, string) {
	t.Helper()
	s, err := NewServer(opts...)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(httpHandler(s, time.Minute))
	t.Cleanup(func() { hs.Close(); s.Close() })
	return s, hs.URL + "/mcp"
}

// TestHTTPBodyLimit: a 20 MB body is refused with 413, whether its size
// is announced or not, and the server does not hold it in memory.
func TestHTTPBodyLimit(t *testing.T) {
	_, url := newGuardedServer(t)
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	const big = 20 << 20
	const prefix = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"x":"`
	body := func() io.Reader {
		return io.MultiReader(strings.NewReader(prefix), io.LimitReader(zeros{}, big))
	}
	if code, _ := post(t, url, body(), int64(len(prefix))+big, nil); code != http.StatusRequestEntityTooLarge {
		t.Errorf("20 MB body with its length: status %d, want 413", code)
	}
	if code, _ := post(t, url, body(), -1, nil); code != http.StatusRequestEntityTooLarge {
		t.Errorf("20 MB chunked body: status %d, want 413", code)
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("the server allocated %d MB for refused bodies", grew>>20)
	}
	if code, body := post(t, url, strings.NewReader(initBody), int64(len(initBody)), nil); code != 200 {
		t.Errorf("a small initialize after: %d %s", code, body)
	}
}

// zeros reads as endless '0' characters.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '0'
	}
	return len(p), nil
}

// TestHTTPSessionCap: once the live sessions reach the cap, a new
// initialize gets 503 and no session; a session in use keeps working.
func TestHTTPSessionCap(t *testing.T) {
	s, url := newGuardedServer(t, WithMaxSessions(2))
	legacy := mcpgo.LATEST_LEGACY_PROTOCOL_VERSION
	a := newHTTPTestClient(t, url, legacy)
	newHTTPTestClient(t, url, legacy)
	if code, _ := post(t, url, strings.NewReader(initBody), int64(len(initBody)), nil); code != http.StatusServiceUnavailable {
		t.Errorf("third session: status %d, want 503", code)
	}
	// Claiming the stateless era in the header only, to slip past the
	// cap, starts no session either: the body must agree.
	if code, _ := post(t, url, strings.NewReader(initBody), int64(len(initBody)), map[string]string{"Mcp-Protocol-Version": "2026-07-28"}); code == http.StatusOK {
		t.Errorf("initialize claiming 2026-07-28 in its header: status %d, want a refusal", code)
	}
	if n := s.ids.count(); n != 2 {
		t.Errorf("%d live sessions, want 2", n)
	}
	if r := call(t, a, "play_action", map[string]any{"action": "look"}); r.IsError {
		t.Errorf("a session under the cap: %+v", r)
	}
	// A client of protocol 2026-07-28 starts no session, so a full
	// session table does not turn it away.
	m := newHTTPTestClient(t, url, "")
	if r := call(t, m, "play_action", map[string]any{"action": "look"}); r.IsError || m.GameID() == "" {
		t.Errorf("a stateless client beside full sessions: game %q, %+v", m.GameID(), r)
	}
}

// TestUndoDepthCap: a session's undo history is as deep as the server
// says, no deeper.
func TestUndoDepthCap(t *testing.T) {
	c, err := NewInProcessClient(WithUndoDepth(3))
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		call(t, c, "play_action", map[string]any{"action": "look"})
	}
	for i := range 4 {
		r := call(t, c, "undo", nil)
		if r.IsError != (i == 3) {
			t.Errorf("undo %d: %+v", i+1, r)
		}
	}
}

// TestHTTPOrigin: a browser page from a foreign origin (DNS rebinding)
// gets 403, no session and no tool call; a local page and a client that
// sends no Origin are served.
func TestHTTPOrigin(t *testing.T) {
	s, url := newGuardedServer(t, WithAllowedOrigins("https://app.example"))
	for _, o := range []string{"http://evil.example", "http://evil.example:8080", "null", "http://127.0.0.1.evil.example"} {
		if code, _ := post(t, url, strings.NewReader(initBody), int64(len(initBody)), map[string]string{"Origin": o}); code != http.StatusForbidden {
			t.Errorf("Origin %s: status %d, want 403", o, code)
		}
	}
	if n := s.ids.count(); n != 0 {
		t.Errorf("foreign origins made %d sessions", n)
	}
	for _, o := range []string{"", "http://localhost:3000", "http://127.0.0.1:8080", "http://[::1]", "https://app.example"} {
		h := map[string]string{}
		if o != "" {
			h["Origin"] = o
		}
		if code, body := post(t, url, strings.NewReader(initBody), int64(len(initBody)), h); code != 200 {
			t.Errorf("Origin %q: status %d %s, want 200", o, code, body)
		}
	}
}

// TestHTTPToken: with a token, a request without it or with a wrong one
// gets 401; mcphttp.NewClient sends GRUE_SERVE_TOKEN.
func TestHTTPToken(t *testing.T) {
	s, url := newGuardedServer(t, WithToken("s3cret-token"))
	for _, h := range []string{"", "Bearer wrong", "s3cret-token", "Basic s3cret-token"} {
		hs := map[string]string{}
		if h != "" {
			hs["Authorization"] = h
		}
		if code, _ := post(t, url, strings.NewReader(initBody), int64(len(initBody)), hs); code != http.StatusUnauthorized {
			t.Errorf("Authorization %q: status %d, want 401", h, code)
		}
	}
	if n := s.ids.count(); n != 0 {
		t.Errorf("unauthorized requests made %d sessions", n)
	}
	t.Setenv(TokenEnv, "s3cret-token")
	c := newHTTPTestClient(t, url, "")
	if r := call(t, c, "memory", nil); r.IsError {
		t.Errorf("with the token: %+v", r)
	}
}

// stdioRun serves in over stdio with opts and returns the replies.
func stdioRun(t *testing.T, in io.Reader, opts ...ServerOption) []map[string]any {
	t.Helper()
	s, err := NewServer(opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pr, pw := io.Pipe()
	errc := make(chan error, 1)
	go func() {
		errc <- s.ServeStdio(context.Background(), in, pw, io.Discard)
		pw.Close()
	}()
	var out []map[string]any
	sc := bufio.NewScanner(pr)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("reply %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	return out
}

func toolCall(id int, action string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"play_action","arguments":{"action":%q}}}`, id, action)
}

// TestStdioPipelinedInOrder: 60 pipelined calls are run and answered in
// the order sent (mcp-go's worker pool answered up to 37 out of order).
func TestStdioPipelinedInOrder(t *testing.T) {
	var b strings.Builder
	b.WriteString(initBody + "\n")
	acts := []string{"look", "west", "inventory", "open toolbox", "east", "take lantern"}
	for i := range 60 {
		if i%7 == 3 {
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`+"\n", i+2)
			continue
		}
		b.WriteString(toolCall(i+2, acts[i%len(acts)]) + "\n")
	}
	out := stdioRun(t, strings.NewReader(b.String()))
	if len(out) != 61 {
		t.Fatalf("%d replies, want 61", len(out))
	}
	for i, m := range out {
		if id, _ := m["id"].(float64); int(id) != i+1 {
			t.Fatalf("reply %d has id %v: out of order", i, m["id"])
		}
	}
}

// TestStdioLongLine: a line over the cap is skipped with an error, without
// the process holding it, and the session goes on.
func TestStdioLongLine(t *testing.T) {
	const huge = 256 << 20
	in := io.MultiReader(strings.NewReader(initBody+"\n"+`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"`),
		io.LimitReader(zeros{}, huge), strings.NewReader(`"}}`+"\n"+toolCall(3, "look")+"\n"))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	out := stdioRun(t, in, WithMaxLine(1<<20))
	runtime.ReadMemStats(&after)
	if len(out) != 3 {
		t.Fatalf("%d replies, want 3: %v", len(out), out)
	}
	if e, _ := out[1]["error"].(map[string]any); e == nil || !strings.Contains(fmt.Sprint(e["message"]), "longer than the limit") {
		t.Errorf("the long line: %v, want an error about its length", out[1])
	}
	if id, _ := out[2]["id"].(float64); id != 3 || out[2]["result"] == nil {
		t.Errorf("after the long line: %v", out[2])
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("a %d MB line allocated %d MB", huge>>20, grew>>20)
	}
}

// TestStdioLastLineWithoutNewline: a last message without a newline is
// answered, not dropped.
func TestStdioLastLineWithoutNewline(t *testing.T) {
	out := stdioRun(t, strings.NewReader(initBody+"\n"+toolCall(2, "look")))
	if len(out) != 2 || out[1]["result"] == nil {
		t.Fatalf("replies %v, want the last call answered", out)
	}
}

// TestStdioCallBeforeInitialize: tools/call before initialize is refused
// and plays nothing.
func TestStdioCallBeforeInitialize(t *testing.T) {
	out := stdioRun(t, strings.NewReader(toolCall(1, "west")+"\n"+initBody+"\n"+
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memory","arguments":{}}}`+"\n"))
	if len(out) != 3 {
		t.Fatalf("%d replies, want 3: %v", len(out), out)
	}
	if out[0]["error"] == nil {
		t.Errorf("tools/call before initialize: %v, want an error", out[0])
	}
	res, _ := out[2]["result"].(map[string]any)
	st, _ := res["structuredContent"].(map[string]any)
	if st["moves"] != float64(0) {
		t.Errorf("the refused call was played: %v", res)
	}
}

// TestStdioModernWithoutInitialize: a client of protocol 2026-07-28 sends
// no initialize: server/discover and tool calls carrying the version in
// _meta are served at once, on the process's one game, with no game_id.
func TestStdioModernWithoutInitialize(t *testing.T) {
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	play := func(id int, action string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"play_action","arguments":{"action":%q},%s}}`, id, action, meta)
	}
	out := stdioRun(t, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+meta+`}}`+"\n"+
		play(2, "west")+"\n"+play(3, "open toolbox")+"\n"))
	if len(out) != 3 {
		t.Fatalf("%d replies, want 3: %v", len(out), out)
	}
	disc, _ := out[0]["result"].(map[string]any)
	if vs, _ := disc["supportedVersions"].([]any); len(vs) == 0 || vs[0] != "2026-07-28" {
		t.Errorf("server/discover: %v", out[0])
	}
	res, _ := out[2]["result"].(map[string]any)
	st, _ := res["structuredContent"].(map[string]any)
	if st["moves"] != float64(2) || st["location"] != "Wooden Shed" {
		t.Errorf("two modern calls on one process's game: %v", out[2])
	}
}

// TestHaltedGameSaysDone: once the story quits, every later play_action
// is refused with structured content that says done, so a client that
// missed the end (or reads only structured content) stops.
func TestHaltedGameSaysDone(t *testing.T) {
	c, err := NewInProcessClient()
	if err != nil {
		t.Fatal(err)
	}
	call(t, c, "play_action", map[string]any{"action": "quit"})
	if r := call(t, c, "play_action", map[string]any{"action": "y"}); !r.Bool("done") {
		t.Fatalf("after quitting: %+v, want done", r)
	}
	for range 2 {
		r := call(t, c, "play_action", map[string]any{"action": "look"})
		if !r.IsError || !r.Bool("done") {
			t.Errorf("play_action after the halt: %+v, want an error saying done", r)
		}
	}
	if r := call(t, c, "memory", nil); !r.Bool("done") {
		t.Errorf("memory after the halt: %+v", r)
	}
}
