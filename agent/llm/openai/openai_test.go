package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/agent/llm/openai"
)

const testKey = "sk-test-secret-0123456789"

// waits records the waits a client asked for instead of sleeping them.
type waits struct {
	mu sync.Mutex
	d  []time.Duration
}

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	w.d = append(w.d, d)
	w.mu.Unlock()
	return ctx.Err()
}

func (w *waits) get() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]time.Duration(nil), w.d...)
}

// newClient returns a client of srv whose backoff is deterministic (the
// jitter always draws its limit: 10ms, 20ms, 40ms, 80ms...) and whose
// waits are recorded, not slept.
func newClient(t *testing.T, srv *llmtest.Server, edit func(*llm.Config)) (*openai.Client, *waits) {
	t.Helper()
	w := &waits{}
	cfg := llm.Config{
		Model: "test-model", BaseURL: srv.URL(), APIKey: testKey,
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 80 * time.Millisecond,
		Sleep:  w.sleep,
		Jitter: func(limit time.Duration) time.Duration { return limit },
	}
	if edit != nil {
		edit(&cfg)
	}
	c, err := openai.New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c, w
}

func chat(text string) llm.Request {
	return llm.Request{Messages: []llm.Message{{Role: llm.System, Content: "You play games."}, {Role: llm.User, Content: text}}, Label: "step 1"}
}

func complete(t *testing.T, c llm.Client, req llm.Request) *llm.Reply {
	t.Helper()
	r, err := c.Complete(context.Background(), req)
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	return r
}

func TestPlainReply(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Push(llmtest.Text("You are in a dark room.").WithUsage(1000, 500))
	c, _ := newClient(t, srv, func(cfg *llm.Config) { cfg.Model = "gpt-4o" })

	r := complete(t, c, chat("look"))
	if r.Content != "You are in a dark room." || r.FinishReason != "stop" || r.Model != "gpt-4o" {
		t.Errorf("reply = %+v", r)
	}
	if r.Usage != (llm.Usage{PromptTokens: 1000, CompletionTokens: 500, TotalTokens: 1500}) {
		t.Errorf("usage = %+v", r.Usage)
	}
	// gpt-4o: $2.50 and $10 per million tokens.
	if want := 1000*2.5/1e6 + 500*10.0/1e6; math.Abs(r.Cost-want) > 1e-12 {
		t.Errorf("cost = %v, want %v", r.Cost, want)
	}
	if r.Latency <= 0 || r.Cached || len(r.Retries) != 0 {
		t.Errorf("latency %v, cached %v, retries %v", r.Latency, r.Cached, r.Retries)
	}
	req := srv.Requests()[0]
	if req.Header.Get("Authorization") != "Bearer "+testKey {
		t.Errorf("authorization header = %q", req.Header.Get("Authorization"))
	}
	got := req.LLMMessages()
	if len(got) != 2 || got[0].Role != llm.System || got[1].Content != "look" || req.Model != "gpt-4o" {
		t.Errorf("messages on the wire = %+v (model %q)", got, req.Model)
	}
	for _, key := range []string{"temperature", "seed", "max_tokens", "tools", "tool_choice", "response_format"} {
		if req.Has(key) {
			t.Errorf("unset %s was sent: %s", key, req.Raw)
		}
	}
}

func TestToolCallsOnTheWire(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.ToolCall("play_action", `{"action":"open mailbox"}`).Reply(`{"ok":true}`).Reply("x")
	c, _ := newClient(t, srv, nil)

	req := chat("go")
	req.Tools = []llm.ToolSpec{{Name: "play_action", Description: "Do something in the game.", Parameters: map[string]any{
		"type": "object", "properties": map[string]any{"action": map[string]any{"type": "string"}}, "required": []any{"action"},
	}}, {Name: "inventory"}}
	req.ToolChoice = "play_action"
	r := complete(t, c, req)
	if len(r.ToolCalls) != 1 || r.ToolCalls[0].Name != "play_action" || r.ToolCalls[0].Arguments != `{"action":"open mailbox"}` || r.ToolCalls[0].ID == "" || r.FinishReason != "tool_calls" {
		t.Fatalf("tool call reply = %+v", r)
	}

	// The tool result goes back with the call's id.
	req.Messages = append(req.Messages, r.Message(), llm.Message{Role: llm.Tool, Content: "Opening the mailbox reveals a leaflet.", ToolCallID: r.ToolCalls[0].ID})
	req.ToolChoice = "required"
	req.JSON = true
	complete(t, c, req)
	req.ToolChoice = "auto"
	req.JSON = false
	complete(t, c, req)

	reqs := srv.Requests()
	first := reqs[0]
	if len(first.Tools) != 2 || first.Tools[0].Type != "function" || first.Tools[0].Function.Name != "play_action" ||
		first.Tools[0].Function.Parameters["required"] == nil || first.Tools[1].Function.Parameters["type"] != "object" {
		t.Errorf("tools on the wire: %s", first.Field("tools"))
	}
	if first.ToolChoiceName() != "play_action" || !strings.Contains(first.Field("tool_choice"), `"type":"function"`) {
		t.Errorf("named tool_choice on the wire: %s", first.Field("tool_choice"))
	}
	second := reqs[1]
	if second.ToolChoiceName() != "required" || second.ResponseFormat == nil || second.ResponseFormat.Type != "json_object" {
		t.Errorf("tool_choice %q, response_format %s", second.ToolChoiceName(), second.Field("response_format"))
	}
	msgs := second.LLMMessages()
	if n := len(msgs); n != 4 || msgs[2].ToolCalls[0].ID != r.ToolCalls[0].ID || msgs[3].ToolCallID != r.ToolCalls[0].ID || msgs[3].Role != llm.Tool {
		t.Errorf("the tool round trip on the wire: %+v", msgs)
	}
	if reqs[2].ToolChoiceName() != "auto" || reqs[2].Has("response_format") {
		t.Errorf("third request: tool_choice %q, %s", reqs[2].ToolChoiceName(), reqs[2].Raw)
	}
}

func TestSamplingOnTheWire(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Fallback(func(llmtest.Request) llmtest.Response { return llmtest.Text("ok") })
	zero, warm, seed := 0.0, 0.7, 42
	c, _ := newClient(t, srv, nil)
	withDefaults, _ := newClient(t, srv, func(cfg *llm.Config) {
		cfg.Temperature, cfg.Seed, cfg.MaxTokens = &warm, &seed, 128
	})

	cases := []struct {
		name   string
		client *openai.Client
		edit   func(*llm.Request)
		fields map[string]string // "" means absent
	}{
		{"temperature 0", c, func(r *llm.Request) { r.Temperature = &zero }, map[string]string{"temperature": "0"}},
		{"temperature 0.7", c, func(r *llm.Request) { r.Temperature = &warm }, map[string]string{"temperature": "0.7"}},
		{"seed and max tokens", c, func(r *llm.Request) { r.Seed = &seed; r.MaxTokens = 64 },
			map[string]string{"seed": "42", "max_tokens": "64", "temperature": ""}},
		// A reasoning model by its name: its max tokens get the reasoning
		// allowance, and temperature 0, which it refuses, is not sent.
		{"reasoning model", c, func(r *llm.Request) { r.Model = "o3-mini"; r.MaxTokens = 64; r.Temperature = &zero },
			map[string]string{"max_completion_tokens": fmt.Sprint(64 + llm.DefaultReasoningTokens), "max_tokens": "", "temperature": ""}},
		{"config defaults", withDefaults, func(*llm.Request) {}, map[string]string{"temperature": "0.7", "seed": "42", "max_tokens": "128"}},
		{"request beats config", withDefaults, func(r *llm.Request) { r.Temperature = &zero; r.MaxTokens = 5 },
			map[string]string{"temperature": "0", "seed": "42", "max_tokens": "5"}},
	}
	for i, tc := range cases {
		req := chat("hi")
		tc.edit(&req)
		complete(t, tc.client, req)
		got := srv.Requests()[i]
		for key, want := range tc.fields {
			if g := got.Field(key); g != want {
				t.Errorf("%s: %s on the wire = %q, want %q", tc.name, key, g, want)
			}
		}
	}
}

func TestRetryAfterHonoured(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	date := time.Now().Add(30 * time.Second).UTC().Format(http.TimeFormat)
	srv.Status(429, "2", "Rate limit reached").
		Status(429, date, "Rate limit reached").
		Status(503, "0.25", "overloaded").
		Reply("finally")
	c, w := newClient(t, srv, func(cfg *llm.Config) { cfg.MaxRetryAfter = 10 * time.Second })

	r := complete(t, c, chat("look"))
	if r.Content != "finally" || len(r.Retries) != 3 {
		t.Fatalf("reply %q after %d retries: %+v", r.Content, len(r.Retries), r.Retries)
	}
	want := []time.Duration{2 * time.Second, 10 * time.Second, 250 * time.Millisecond}
	if got := w.get(); !reflect.DeepEqual(got, want) {
		t.Errorf("waits = %v, want %v (Retry-After seconds, a date capped at MaxRetryAfter, fractional seconds)", got, want)
	}
	for i, a := range r.Retries {
		if a.Wait != want[i] {
			t.Errorf("retry %d recorded wait %v, want %v", i, a.Wait, want[i])
		}
	}
	if a := r.Retries[0]; a.Status != 429 || !strings.Contains(a.Error, "Rate limit reached") {
		t.Errorf("first retry = %+v", a)
	}
	if r.Retries[2].Status != 503 {
		t.Errorf("third retry = %+v", r.Retries[2])
	}
}

func TestServerErrorsBackOffExponentially(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Status(500, "", "boom").Status(502, "", "bad gateway").Status(503, "", "unavailable").Status(500, "", "boom").Status(500, "", "boom").Reply("ok")
	c, w := newClient(t, srv, nil)
	r := complete(t, c, chat("look"))
	if r.Content != "ok" || len(r.Retries) != 5 {
		t.Fatalf("reply %q, retries %+v", r.Content, r.Retries)
	}
	want := []time.Duration{10, 20, 40, 80, 80}
	for i := range want {
		want[i] *= time.Millisecond
	}
	if got := w.get(); !reflect.DeepEqual(got, want) {
		t.Errorf("waits = %v, want %v", got, want)
	}
	if r.Latency <= 0 {
		t.Errorf("latency = %v", r.Latency)
	}
}

func TestGivesUpAfterMaxRetries(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Status(500, "", "first").Status(500, "", "second").Status(503, "", "still down").Reply("too late")
	c, _ := newClient(t, srv, func(cfg *llm.Config) { cfg.MaxRetries = 2 })
	_, err := c.Complete(context.Background(), chat("look"))
	var ce *llm.CallError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v is not a CallError", err)
	}
	msg := err.Error()
	if ce.Tries != 3 || len(ce.Attempts) != 3 || ce.Status != 503 || !ce.Retryable ||
		!strings.Contains(msg, "3 tries") || !strings.Contains(msg, "still down") || !strings.Contains(msg, `"step 1"`) {
		t.Errorf("error %q, %+v", msg, ce)
	}
	if srv.Pending() != 1 {
		t.Errorf("%d answers left, want 1: the client tried more than 3 times", srv.Pending())
	}
}

func TestPerTryTimeout(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Delay(5 * time.Second).Reply("too slow").Reply("in time")
	c, _ := newClient(t, srv, func(cfg *llm.Config) { cfg.Timeout = 100 * time.Millisecond })
	start := time.Now()
	r := complete(t, c, chat("look"))
	if r.Content != "in time" || len(r.Retries) != 1 || !strings.Contains(r.Retries[0].Error, "timeout") {
		t.Fatalf("reply %q, retries %+v", r.Content, r.Retries)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the call took %v: the per-try timeout did not cut the slow try", d)
	}
}

func TestBrokenBodiesRetried(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			srv := llmtest.NewServer()
			defer srv.Close()
			srv.Truncated("a reply that is cut off half way through").
				Garbage("<html><body>502 Bad Gateway</body></html>").
				Garbage(`{"object":"chat.completion","choices":[]}`).
				Drop().
				Reply("whole")
			c, _ := newClient(t, srv, func(cfg *llm.Config) { cfg.Stream = stream })
			r := complete(t, c, chat("look"))
			if r.Content != "whole" || len(r.Retries) != 4 {
				t.Fatalf("reply %q, retries %+v", r.Content, r.Retries)
			}
			for i, a := range r.Retries[:3] {
				if !strings.Contains(a.Error, "malformed") {
					t.Errorf("retry %d error %q does not say the reply was malformed", i, a.Error)
				}
			}
		})
	}
}

func TestClientErrorsNotRetried(t *testing.T) {
	for _, code := range []int{400, 401, 403, 404, 422} {
		t.Run(fmt.Sprint(code), func(t *testing.T) {
			srv := llmtest.NewServer()
			defer srv.Close()
			srv.Status(code, "1", "Incorrect API key provided: "+testKey+".").Reply("never")
			c, w := newClient(t, srv, nil)
			_, err := c.Complete(context.Background(), chat("look"))
			if err == nil {
				t.Fatal("no error")
			}
			var ce *llm.CallError
			if !errors.As(err, &ce) || ce.Status != code || ce.Retryable || ce.Tries != 1 {
				t.Errorf("error %+v", ce)
			}
			msg := err.Error()
			if strings.Contains(msg, testKey) || strings.Contains(fmt.Sprintf("%+v %#v", err, ce.Attempts), testKey) {
				t.Errorf("the error shows the API key: %s", msg)
			}
			if !strings.Contains(msg, fmt.Sprint(code)) || !strings.Contains(msg, "Incorrect API key provided") {
				t.Errorf("the error lacks the status or the server's message: %s", msg)
			}
			if len(srv.Requests()) != 1 || len(w.get()) != 0 {
				t.Errorf("%d requests, waits %v: a %d was retried", len(srv.Requests()), w.get(), code)
			}
		})
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Status(429, "30", "slow down").Reply("never")
	// The client waits with its own default sleep; the wrapper only says
	// when the backoff has begun, which is when the test cancels.
	inBackoff := make(chan struct{}, 1)
	c, err := openai.New(llm.Config{Model: "m", BaseURL: srv.URL(), MaxRetryAfter: time.Minute,
		Sleep: func(ctx context.Context, d time.Duration) error {
			select {
			case inBackoff <- struct{}{}:
			default:
			}
			return openai.SleepContext(ctx, d)
		}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-inBackoff
		cancel()
	}()
	start := time.Now()
	_, err = c.Complete(ctx, chat("look"))
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Complete returned %v after the request; a cancelled backoff must return at once", d)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want context.Canceled", err)
	}
	var ce *llm.CallError
	if !errors.As(err, &ce) || len(ce.Attempts) != 1 || ce.Attempts[0].Status != 429 {
		t.Errorf("error = %+v", ce)
	}
	if len(srv.Requests()) != 1 {
		t.Errorf("%d requests after a cancel", len(srv.Requests()))
	}
}

func TestCancelDuringTry(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Delay(time.Minute).Reply("never")
	c, _ := newClient(t, srv, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Complete(ctx, chat("look"))
	// The reply would take a minute: returning within seconds shows the
	// call ended with its context.
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 20*time.Second {
		t.Errorf("error %v after %v", err, time.Since(start))
	}
	// On a loaded machine the deadline can pass before the request is
	// sent; what must never happen is a retry after it.
	if len(srv.Requests()) > 1 {
		t.Errorf("%d requests: the call was retried after its context ended", len(srv.Requests()))
	}
}

func TestStreamingGivesTheSameReply(t *testing.T) {
	answers := []llmtest.Response{
		llmtest.Text("West of House. You are standing in an open field.").WithUsage(30, 12),
		{Content: "Let me look.", ToolCalls: []llm.ToolCall{
			{ID: "call_a", Name: "play_action", Arguments: `{"action":"look around the white house"}`},
			{ID: "call_b", Name: "memory", Arguments: `{}`},
		}, Usage: &llm.Usage{PromptTokens: 40, CompletionTokens: 20, TotalTokens: 60}},
		llmtest.Text("Ünïcödé — “quotes” and a long long long long argument").WithUsage(5, 5),
	}
	replies := map[bool][]*llm.Reply{}
	for _, stream := range []bool{false, true} {
		srv := llmtest.NewServer()
		srv.Push(answers...)
		c, _ := newClient(t, srv, func(cfg *llm.Config) { cfg.Stream = stream; cfg.Model = "gpt-4o-mini" })
		for range answers {
			r := complete(t, c, chat("look"))
			r.Latency = 0
			replies[stream] = append(replies[stream], r)
		}
		req := srv.Requests()[0]
		if req.Stream != stream || (stream && (req.StreamOptions == nil || !req.StreamOptions.IncludeUsage)) {
			t.Errorf("stream=%v: request %s", stream, req.Raw)
		}
		srv.Close()
	}
	for i := range answers {
		plain, streamed := replies[false][i], replies[true][i]
		if !reflect.DeepEqual(plain, streamed) {
			t.Errorf("answer %d:\nplain    %+v\nstreamed %+v", i, plain, streamed)
		}
		if plain.Usage.TotalTokens == 0 || plain.Cost == 0 {
			t.Errorf("answer %d lacks usage or cost: %+v", i, plain)
		}
	}
	if got := replies[true][1].ToolCalls; len(got) != 2 || got[0].Arguments != `{"action":"look around the white house"}` || got[1].Name != "memory" {
		t.Errorf("streamed tool calls = %+v", got)
	}
}

func TestNewErrors(t *testing.T) {
	for _, tc := range []struct {
		cfg  llm.Config
		want string
	}{
		{llm.Config{Model: "m"}, "no base URL"},
		{llm.Config{BaseURL: "http://localhost:1/v1"}, "no model"},
		{llm.Config{Model: "m", BaseURL: "localhost:8000"}, "not an http(s) URL"},
		{llm.Config{Model: "m", BaseURL: "http://x/v1", Timeout: -time.Second}, "Timeout is negative"},
	} {
		_, err := openai.New(tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%v) = %v, want an error saying %q", tc.cfg, err, tc.want)
		}
	}
}

// TestNewReportsBadPrices: a GRUE_PRICES file that does not load is
// New's error, not a client that prices with the wrong table.
func TestNewReportsBadPrices(t *testing.T) {
	for _, v := range []string{"OPENAI_API_KEY", "HF_TOKEN", "OPENAI_API_VERSION"} {
		t.Setenv(v, "")
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"qwen": {"input_per_mtok": 1, "output_per_mtokk": 2}}`), 0o644)
	t.Setenv("OPENAI_BASE_URL", "http://localhost:8000/v1")
	t.Setenv("GRUE_MODEL", "qwen")
	t.Setenv("GRUE_PRICES", bad)
	if _, err := openai.New(llm.ConfigFromEnv()); err == nil || !strings.Contains(err.Error(), "GRUE_PRICES") || !strings.Contains(err.Error(), "bad.json") {
		t.Errorf("a bad GRUE_PRICES file gives %v", err)
	}
}

func TestKeyNeverPrinted(t *testing.T) {
	cfg := llm.Config{Model: "m", BaseURL: "http://localhost:1/v1", APIKey: testKey}
	c, err := openai.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(cfg)
	for _, s := range []string{fmt.Sprintf("%v|%+v|%#v|%s", cfg, cfg, cfg, cfg), fmt.Sprintf("%v %+v %s", c, c, c), string(b)} {
		if strings.Contains(s, testKey) {
			t.Errorf("the key shows in %s", s)
		}
	}
}
