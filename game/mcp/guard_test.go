package mcp

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/grue-lab/grue/internal/rawhttp"
)

// paddedInit is initBody with 256 KiB of whitespace inside.
var paddedInit = `{"jsonrpc":"2.0",` + strings.Repeat(" ", 256<<10) + initBody[len(`{"jsonrpc":"2.0",`):]

const initBodyPrefix = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"x":"`

// refusal decodes the JSON-RPC error of a refused request.
func refusal(t *testing.T, body []byte) string {
	t.Helper()
	var e struct {
		JSONRPC string `json:"jsonrpc"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil || e.JSONRPC != "2.0" || e.Error.Code == 0 {
		t.Fatalf("not a JSON-RPC error (%v): %s", err, body)
	}
	return e.Error.Message
}

// TestHTTPChunkedBodyLimit: a body over --max-body sent chunked, with no
// Content-Length, over a real connection, gets 413 (not the 400 of a
// parse error) with a JSON-RPC error naming the limit, as one with its
// length does; the server then serves the next client.
func TestHTTPChunkedBodyLimit(t *testing.T) {
	s, url := newGuardedServer(t, WithMaxBody(64<<10))
	addr := strings.TrimPrefix(strings.TrimSuffix(url, "/mcp"), "http://")
	for _, n := range []int{64<<10 + 1, 1 << 20, 8 << 20} {
		res, body := rawhttp.PostChunked(t, addr, "/mcp", []string{"Accept: application/json, text/event-stream"}, initBodyPrefix, n)
		if res.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("chunked body of %d bytes: status %d, want 413: %s", n, res.StatusCode, body)
			continue
		}
		if msg := refusal(t, body); !strings.Contains(msg, "65536 bytes") || !strings.Contains(msg, "--max-body") {
			t.Errorf("413 of a chunked body says %q: want the limit and its flag", msg)
		}
	}
	code, body := post(t, url, strings.NewReader(initBodyPrefix+strings.Repeat("0", 70<<10)), -1, nil)
	if code != http.StatusRequestEntityTooLarge {
		t.Errorf("chunked body through net/http's client: status %d, want 413", code)
	} else if msg := refusal(t, []byte(body)); !strings.Contains(msg, "65536") {
		t.Errorf("413 says %q", msg)
	}
	code, body = post(t, url, strings.NewReader(initBodyPrefix+strings.Repeat("0", 70<<10)), int64(len(initBodyPrefix)+70<<10), nil)
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(refusal(t, []byte(body)), "65536") {
		t.Errorf("body with its length: status %d %s, want 413 naming the limit", code, body)
	}
	if n := s.ids.count(); n != 0 {
		t.Errorf("refused bodies made %d sessions", n)
	}
	// Under the limit, chunked is served as any body is.
	if code, body := post(t, url, strings.NewReader(initBody), -1, nil); code != http.StatusOK {
		t.Errorf("a small chunked initialize: %d %s", code, body)
	}
}

// burstInit sends n initialize requests at once, each on a connection of
// its own, and returns the statuses and the session IDs given. Each body
// is padded with 256 KiB of JSON whitespace, as an attacker would pad it
// to widen the time between a cap check and the session it lets through.
func burstInit(t *testing.T, url string, n int) (codes map[int]int, ids map[string]bool, retryAfter []string) {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	var mu sync.Mutex
	codes, ids = map[int]int{}, map[string]bool{}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range n {
		wg.Go(func() {
			req, _ := http.NewRequest("POST", url, strings.NewReader(paddedInit))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			<-start
			res, err := client.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			mu.Lock()
			defer mu.Unlock()
			codes[res.StatusCode]++
			if id := res.Header.Get("Mcp-Session-Id"); id != "" && res.StatusCode == http.StatusOK {
				ids[id] = true
			}
			if res.StatusCode == http.StatusServiceUnavailable {
				retryAfter = append(retryAfter, res.Header.Get("Retry-After"))
			}
		})
	}
	close(start)
	wg.Wait()
	return codes, ids, retryAfter
}

// TestHTTPSessionCapBurst: three times --max-sessions initialize
// requests at once make exactly the cap's sessions; the rest get 503
// with Retry-After and a JSON-RPC error naming the limit. A session that
// ends frees its slot, and a request that starts no session holds none.
func TestHTTPSessionCapBurst(t *testing.T) {
	const limit = 8
	s, url := newGuardedServer(t, WithMaxSessions(limit))
	for round := range 3 {
		codes, ids, retry := burstInit(t, url, 3*limit)
		if codes[http.StatusOK] != limit || codes[http.StatusServiceUnavailable] != 2*limit || len(ids) != limit {
			t.Fatalf("round %d: %d initializes at once: statuses %v, %d distinct sessions; want %d × 200 and %d × 503",
				round, 3*limit, codes, len(ids), limit, 2*limit)
		}
		if n := s.ids.count(); n != limit {
			t.Fatalf("round %d: %d live sessions, want the cap, %d", round, n, limit)
		}
		for _, r := range retry {
			if r == "" {
				t.Errorf("a 503 without Retry-After")
			}
		}
		// End them all (DELETE), as clients that leave do.
		for id := range ids {
			req, _ := http.NewRequest("DELETE", url, nil)
			req.Header.Set("Mcp-Session-Id", id)
			res, err := httpClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
		}
		if n := s.ids.count(); n != 0 {
			t.Fatalf("round %d: %d sessions live after DELETE", round, n)
		}
	}
	code, body := post(t, url, strings.NewReader(initBody), int64(len(initBody)), nil)
	if code != http.StatusOK {
		t.Fatalf("initialize after the bursts: %d %s", code, body)
	}
	for range limit - 1 {
		post(t, url, strings.NewReader(initBody), int64(len(initBody)), nil)
	}
	code, body = post(t, url, strings.NewReader(initBody), int64(len(initBody)), nil)
	if code != http.StatusServiceUnavailable || !strings.Contains(refusal(t, []byte(body)), "8 live sessions") {
		t.Errorf("initialize at the cap: %d %s, want 503 naming the limit", code, body)
	}
}

// TestHTTPSlotsReleased: requests that could start a session but do not
// (a call without a session, a bad body) give their slot back, so a
// stream of them never fills the table; a GET stream without a session
// is refused (400) and mints no session ID.
func TestHTTPSlotsReleased(t *testing.T) {
	s, url := newGuardedServer(t, WithMaxSessions(1))
	for range 20 {
		post(t, url, strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`), -1, nil)
		post(t, url, strings.NewReader(`{not json`), -1, nil)
		req, _ := http.NewRequest("GET", url, nil)
		req.Header.Set("Accept", "text/event-stream")
		res, err := httpClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusBadRequest {
			t.Fatalf("GET without a session: %d %s, want 400", res.StatusCode, body)
		}
	}
	if n := s.ids.count(); n != 0 {
		t.Errorf("requests that started no session left %d session IDs", n)
	}
	if code, body := post(t, url, strings.NewReader(initBody), -1, nil); code != http.StatusOK {
		t.Errorf("initialize after them: %d %s", code, body)
	}
}

// TestSessionIDsCapWithoutSlot: an ID asked for without a reserved slot
// (a path around the guard) names a session only while the table has
// room, so the cap holds whatever mcp-go does.
func TestSessionIDsCapWithoutSlot(t *testing.T) {
	ids := newSessionIDs(2)
	sl := ids.reserve()
	a := ids.generate(nil)
	if ids.reserve() != nil {
		t.Fatal("a second slot with one session and one slot in a table of 2")
	}
	b := ids.generate(nil)
	if _, err := ids.validate(a); err != nil {
		t.Errorf("the first ID: %v", err)
	}
	if _, err := ids.validate(b); err == nil {
		t.Error("an ID past the cap names a session")
	}
	if id := ids.generate(sl); id == "" || ids.count() != 2 {
		t.Errorf("the reserved slot: %d live", ids.count())
	}
	sl.release() // used: a no-op
	if ids.reserve() != nil || ids.count() != 2 {
		t.Errorf("after releasing a used slot: %d live, room for more", ids.count())
	}
}
