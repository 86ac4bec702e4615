package openai_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/openai"
)

// The hostile server's replies: far more than the cap the tests set
// (1 MiB), far less than what would hurt the machine when the cap does
// not hold.
const (
	testCap     = 1 << 20
	hostileSize = 48 << 20
)

// hostile is a model server that answers every request with write, and
// counts the bytes it managed to send.
func hostile(t *testing.T, write func(w http.ResponseWriter, r *http.Request, sent *atomic.Int64)) (string, *atomic.Int64) {
	t.Helper()
	var sent atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		write(w, r, &sent)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", &sent
}

// send writes s and counts it; false once the client has hung up.
func send(w http.ResponseWriter, sent *atomic.Int64, s string) bool {
	n, err := w.Write([]byte(s))
	sent.Add(int64(n))
	return err == nil
}

// hugeJSON answers one completion whose content is hostileSize bytes,
// sent in 64 KiB writes.
func hugeJSON(w http.ResponseWriter, _ *http.Request, sent *atomic.Int64) {
	w.Header().Set("Content-Type", "application/json")
	chunk := strings.Repeat("a", 64<<10)
	if !send(w, sent, `{"id":"x","model":"test-model","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"`) {
		return
	}
	for range hostileSize / len(chunk) {
		if !send(w, sent, chunk) {
			return
		}
	}
	send(w, sent, `"}}]}`)
}

// hugeStream streams hostileSize bytes of 64 KiB deltas, then finishes.
func hugeStream(w http.ResponseWriter, _ *http.Request, sent *atomic.Int64) {
	w.Header().Set("Content-Type", "text/event-stream")
	ev := `data: {"model":"test-model","choices":[{"index":0,"delta":{"content":"` + strings.Repeat("a", 64<<10) + `"}}]}` + "\n\n"
	for range hostileSize / len(ev) {
		if !send(w, sent, ev) {
			return
		}
	}
	send(w, sent, `data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
}

// endlessLine streams one event line of hostileSize bytes with no
// newline: what a line reader buffers whole.
func endlessLine(w http.ResponseWriter, _ *http.Request, sent *atomic.Int64) {
	w.Header().Set("Content-Type", "text/event-stream")
	if !send(w, sent, `data: {"choices":[{"index":0,"delta":{"content":"`) {
		return
	}
	chunk := strings.Repeat("a", 64<<10)
	for range hostileSize / len(chunk) {
		if !send(w, sent, chunk) {
			return
		}
	}
	send(w, sent, `"},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
}

// TestHugeReplyIsCut is the attack of a model server that answers with a
// reply larger than memory (1.2 GB took the process down in 7 s): the
// client reads no more than its cap, plain or streamed, and fails the
// call with an error that says so, without retrying.
func TestHugeReplyIsCut(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stream bool
		write  func(http.ResponseWriter, *http.Request, *atomic.Int64)
	}{
		{"plain", false, hugeJSON},
		{"stream of deltas", true, hugeStream},
		{"stream of one endless line", true, endlessLine},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url, sent := hostile(t, tc.write)
			c, err := openai.New(llm.Config{Model: "test-model", BaseURL: url, APIKey: testKey,
				Stream: tc.stream, MaxReplyBytes: testCap, MaxRetries: 5,
				Sleep: func(context.Context, time.Duration) error { return nil }})
			if err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			reply, err := c.Complete(context.Background(), chat("hello"))
			runtime.ReadMemStats(&after)
			if err == nil {
				t.Fatalf("a reply of %d MiB was accepted (%d bytes of content) under a cap of 1 MiB", hostileSize>>20, len(reply.Content))
			}
			var ce *llm.CallError
			if !errors.As(err, &ce) {
				t.Fatalf("error %T %v, want a *llm.CallError", err, err)
			}
			if !strings.Contains(err.Error(), "larger than the cap of 1 MiB") || !strings.Contains(err.Error(), "--max-reply-bytes") {
				t.Errorf("error %q does not say the reply went over the cap and how to raise it", err)
			}
			if ce.Tries != 1 || ce.Retryable {
				t.Errorf("tries %d, retryable %v: a reply over the cap is not retried (the server would send it again)", ce.Tries, ce.Retryable)
			}
			// What the client read is the cap; what the server could
			// send on top of it sat in the sockets' buffers.
			if n := sent.Load(); n > 24<<20 {
				t.Errorf("the server sent %d MiB before the client hung up, want the cap and the sockets' buffers", n>>20)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
				t.Errorf("the call allocated %d MiB for a cap of 1 MiB", alloc>>20)
			}
		})
	}
}

// TestReplyCapBoundary: a reply of exactly the cap is read; one byte
// more is not.
func TestReplyCapBoundary(t *testing.T) {
	body := `{"id":"x","model":"test-model","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"look"}}]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, body)
	}))
	defer srv.Close()
	for _, tc := range []struct {
		cap int64
		ok  bool
	}{{int64(len(body)), true}, {int64(len(body)) - 1, false}} {
		c, err := openai.New(llm.Config{Model: "test-model", BaseURL: srv.URL + "/v1", MaxReplyBytes: tc.cap, MaxRetries: -1})
		if err != nil {
			t.Fatal(err)
		}
		reply, err := c.Complete(context.Background(), chat("hello"))
		switch {
		case tc.ok && (err != nil || reply.Content != "look"):
			t.Errorf("cap %d, reply of %d bytes: %v, want the reply", tc.cap, len(body), err)
		case !tc.ok && (err == nil || !strings.Contains(err.Error(), "larger than the cap")):
			t.Errorf("cap %d, reply of %d bytes: %v, want the cap's error", tc.cap, len(body), err)
		}
	}
}

// TestEndlessTrickleEndsAtTimeout is the attack of a server that streams
// small deltas for ever, under the cap for a long time: the per-try
// timeout bounds the whole read, not only the wait for the headers.
func TestEndlessTrickleEndsAtTimeout(t *testing.T) {
	url, _ := hostile(t, func(w http.ResponseWriter, r *http.Request, sent *atomic.Int64) {
		w.Header().Set("Content-Type", "text/event-stream")
		fl := w.(http.Flusher)
		for {
			if !send(w, sent, `data: {"choices":[{"index":0,"delta":{"content":"a"}}]}`+"\n\n") {
				return
			}
			fl.Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	})
	const timeout = 300 * time.Millisecond
	c, err := openai.New(llm.Config{Model: "test-model", BaseURL: url, Stream: true, Timeout: timeout, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		_, err := c.Complete(context.Background(), chat("hello"))
		done <- err
	}()
	select {
	case err := <-done:
		if took := time.Since(start); took < timeout {
			t.Errorf("the call ended after %v, before the timeout of %v: %v", took, timeout, err)
		}
		if err == nil || !strings.Contains(err.Error(), "per-try timeout") {
			t.Errorf("error %v, want the per-try timeout's", err)
		}
	case <-time.After(20 * timeout):
		t.Fatalf("an endless stream was still read %v after a timeout of %v", 20*timeout, timeout)
	}
}

// TestMaxReplyBytesNegative: a negative cap is refused, not taken for
// "no cap".
func TestMaxReplyBytesNegative(t *testing.T) {
	_, err := openai.New(llm.Config{Model: "m", BaseURL: "http://127.0.0.1:1/v1", MaxReplyBytes: -1})
	if err == nil || !strings.Contains(err.Error(), "MaxReplyBytes") {
		t.Fatalf("New with MaxReplyBytes -1: %v, want an error naming it", err)
	}
}
