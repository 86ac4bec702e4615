// Package llmtest runs a local HTTP server that speaks the OpenAI
// chat-completions wire format, for the tests of anything that talks to a
// model: the OpenAI-compatible client (package openai), the agent, the command line, experiments.
//
// A test queues what the server answers, in order, and reads like the story
// of a flaky endpoint:
//
//	srv := llmtest.NewServer()
//	defer srv.Close()
//	srv.Status(429, "2", "rate limited"). // a 429 that asks for 2 s
//		Garbage("<html>bad gateway</html>"). // a 200 that is not JSON
//		Delay(3 * time.Second).Reply("late"). // a reply that takes 3 s
//		ToolCall("play_action", `{"action":"north"}`)
//	client, _ := openai.New(llm.Config{Model: "m", BaseURL: srv.URL()})
//
// Each request takes the next queued answer; when the queue is empty the
// Fallback function answers, and without one the server answers 400 (an
// error that no client retries) saying that nothing was queued. Requests
// asking for a stream get the same answer as server-sent events. Requests
// returns every request received, decoded, for assertions on what was
// sent. Everything is deterministic: ids count up, the creation time is
// fixed, and token usage is estimated from the text (llm.EstimateTokens)
// unless a Response gives it, or says to send none (WithoutUsage: what a
// server that reports no usage does).
package llmtest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/grue-lab/grue/agent/llm"
)

// created is the fixed creation time of every completion.
const created = 1700000000

// Response is one answer of the server. The zero Response is an empty 200
// reply; the constructors below build the usual ones.
type Response struct {
	// Status is the HTTP status; 0 means 200.
	Status int
	// RetryAfter, when not "", is sent as the Retry-After header.
	RetryAfter string
	// Body, when not "", is sent as it is instead of a completion.
	Body string
	// Content and ToolCalls make the completion's message.
	Content   string
	ToolCalls []llm.ToolCall
	// FinishReason defaults to "tool_calls" when there are tool calls and
	// "stop" otherwise.
	FinishReason string
	// Model defaults to the model the request named.
	Model string
	// Usage, when nil, is estimated from the request and the answer.
	Usage *llm.Usage
	// NoUsage sends no usage at all, as some servers do: the completion
	// has no "usage" field, and a stream has no usage chunk even when the
	// request asks for one (stream_options.include_usage). It overrides
	// Usage. See WithoutUsage.
	NoUsage bool
	// Delay is how long the server waits before it answers.
	Delay time.Duration
	// Truncate cuts the answer off half-way: half the bytes of a JSON
	// body, or half the events of a stream, with no [DONE].
	Truncate bool
	// Drop closes the connection without any answer.
	Drop bool
	// Reasoning is sent in the message (or the stream's deltas) under
	// ReasoningField: "reasoning_content" (vLLM, DeepSeek) when "", or
	// "reasoning" (Ollama, routers). ReasoningTokens, when not 0, is
	// reported in usage.completion_tokens_details.reasoning_tokens and
	// counted in the completion tokens.
	Reasoning       string
	ReasoningField  string
	ReasoningTokens int
}

// Text returns a reply whose message is content.
func Text(content string) Response { return Response{Content: content} }

// Call returns a reply that is one native tool call to name with the raw
// JSON arguments args.
func Call(name, args string) Response {
	return Response{ToolCalls: []llm.ToolCall{{Name: name, Arguments: args}}}
}

// Error returns an HTTP error with status code, the Retry-After header
// retryAfter (none when ""), and message in an OpenAI error body.
func Error(code int, retryAfter, message string) Response {
	var e errorBody
	e.Error.Message = message
	e.Error.Type = "llmtest_error"
	e.Error.Code = code
	b, _ := json.Marshal(e)
	return Response{Status: code, RetryAfter: retryAfter, Body: string(b)}
}

// Garbage returns a 200 answer whose body is body, sent as it is.
func Garbage(body string) Response { return Response{Body: body} }

// After returns r delayed by d.
func (r Response) After(d time.Duration) Response {
	r.Delay = d
	return r
}

// WithUsage returns r reporting prompt and completion tokens.
func (r Response) WithUsage(prompt, completion int) Response {
	r.Usage = &llm.Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}
	return r
}

// WithoutUsage returns r answered with no usage at all (see NoUsage).
func (r Response) WithoutUsage() Response {
	r.NoUsage = true
	return r
}

// Server is a scripted OpenAI-compatible chat-completions endpoint on
// 127.0.0.1. It is safe for concurrent use; concurrent requests take the
// queued answers in the order they arrive.
type Server struct {
	ts      *httptest.Server
	closing chan struct{}
	once    sync.Once

	mu       sync.Mutex
	queue    []Response
	delay    time.Duration // for the next answer queued
	fallback func(Request) Response
	requests []Request
	served   int

	models []string                  // GET /models lists them; nil: 404
	checks []func(Request) *Response // run before an answer is taken
	think  *thinking
}

// NewServer starts a server with an empty queue.
func NewServer() *Server {
	s := &Server{closing: make(chan struct{})}
	s.ts = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// URL returns the base URL a client is given: http://127.0.0.1:PORT/v1.
func (s *Server) URL() string { return s.ts.URL + "/v1" }

// Root returns the server's URL with no path: http://127.0.0.1:PORT, the
// base of a classic Azure URL.
func (s *Server) Root() string { return s.ts.URL }

// Close stops the server, cutting short any answer that is waiting out a
// delay.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.closing)
		s.ts.CloseClientConnections()
		s.ts.Close()
	})
}

// Push queues answers.
func (s *Server) Push(rs ...Response) *Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range rs {
		if s.delay > 0 {
			r.Delay += s.delay
			s.delay = 0
		}
		s.queue = append(s.queue, r)
	}
	return s
}

// Reply queues a text reply.
func (s *Server) Reply(text string) *Server { return s.Push(Text(text)) }

// ToolCall queues a reply that is one native tool call.
func (s *Server) ToolCall(name, args string) *Server { return s.Push(Call(name, args)) }

// Status queues an HTTP error: status code, Retry-After header (none when
// ""), and message in an OpenAI error body.
func (s *Server) Status(code int, retryAfter, message string) *Server {
	return s.Push(Error(code, retryAfter, message))
}

// Garbage queues a 200 answer whose body is body (not a completion).
func (s *Server) Garbage(body string) *Server { return s.Push(Garbage(body)) }

// Truncated queues a reply of text cut off half-way.
func (s *Server) Truncated(text string) *Server {
	r := Text(text)
	r.Truncate = true
	return s.Push(r)
}

// Drop queues a hang-up: the connection closes with no answer.
func (s *Server) Drop() *Server { return s.Push(Response{Drop: true}) }

// Delay makes the next answer queued wait d before it is sent.
func (s *Server) Delay(d time.Duration) *Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delay += d
	return s
}

// Fallback sets the function that answers when the queue is empty.
func (s *Server) Fallback(f func(Request) Response) *Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fallback = f
	return s
}

// Pending returns how many queued answers have not been sent.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// Requests returns the requests received so far, in order of arrival.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// serve answers one request.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
		s.listModels(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	req := Request{Raw: body, Header: r.Header.Clone(), Path: r.URL.Path, Query: r.URL.RawQuery}
	if err == nil {
		err = json.Unmarshal(body, &req)
		req.Raw, req.Header, req.Path, req.Query = body, r.Header.Clone(), r.URL.Path, r.URL.RawQuery
	}

	s.mu.Lock()
	s.requests = append(s.requests, req)
	n := len(s.requests)
	var resp Response
	refused := s.check(req)
	switch {
	case !strings.HasSuffix(r.URL.Path, "/chat/completions"):
		resp = Error(http.StatusNotFound, "", fmt.Sprintf("llmtest: no endpoint %s %s", r.Method, r.URL.Path))
	case err != nil:
		resp = Error(http.StatusBadRequest, "", fmt.Sprintf("llmtest: request %d: body is not a chat request: %v", n, err))
	case refused != nil:
		resp = *refused
	case len(s.queue) > 0:
		resp = s.queue[0]
		s.queue = s.queue[1:]
	case s.fallback != nil:
		f := s.fallback
		s.mu.Unlock()
		resp = f(req)
		s.mu.Lock()
	default:
		resp = Error(http.StatusBadRequest, "", fmt.Sprintf("llmtest: request %d: no response queued", n))
	}
	s.served++
	id := fmt.Sprintf("chatcmpl-llmtest-%d", s.served)
	if refused == nil && err == nil {
		s.think.apply(req, &resp)
	}
	s.mu.Unlock()

	if resp.Delay > 0 {
		t := time.NewTimer(resp.Delay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		case <-s.closing:
			t.Stop()
			return
		}
	}
	if resp.Drop {
		hangUp(w)
		return
	}
	if resp.RetryAfter != "" {
		w.Header().Set("Retry-After", resp.RetryAfter)
	}
	status := resp.Status
	if status == 0 {
		status = http.StatusOK
	}
	if resp.Body != "" || status != http.StatusOK {
		b := resp.Body
		if resp.Truncate {
			b = b[:len(b)/2]
		}
		if json.Valid([]byte(resp.Body)) {
			w.Header().Set("Content-Type", "application/json")
		} else {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		w.WriteHeader(status)
		io.WriteString(w, b)
		return
	}
	if req.Stream {
		s.stream(w, req, resp, id)
		return
	}
	b, _ := json.Marshal(completionOf(req, resp, id))
	if resp.Truncate {
		b = b[:len(b)/2]
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

// hangUp closes the connection under w without writing anything.
func hangUp(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	conn.Close()
}

// finishReason is the answer's finish reason.
func finishReason(resp Response) string {
	switch {
	case resp.FinishReason != "":
		return resp.FinishReason
	case len(resp.ToolCalls) > 0:
		return "tool_calls"
	}
	return "stop"
}

// usageOf is the answer's usage: none, given, or estimated.
func usageOf(req Request, resp Response) *wireUsage {
	if resp.NoUsage {
		return nil
	}
	var u *wireUsage
	if resp.Usage != nil {
		u = &wireUsage{PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens, TotalTokens: resp.Usage.TotalTokens}
	} else {
		p := llm.EstimateMessages(req.LLMMessages())
		c := llm.EstimateMessages([]llm.Message{{Content: resp.Content, ToolCalls: resp.ToolCalls}}) + resp.ReasoningTokens
		u = &wireUsage{PromptTokens: p, CompletionTokens: c, TotalTokens: p + c}
	}
	if resp.ReasoningTokens > 0 {
		u.Details = &wireDetails{ReasoningTokens: resp.ReasoningTokens}
	}
	return u
}

// modelOf is the model the answer names.
func modelOf(req Request, resp Response) string {
	if resp.Model != "" {
		return resp.Model
	}
	return req.Model
}

// wireCalls returns the answer's tool calls on the wire, with ids
// call_<completion>_<n> where the Response gave none.
func wireCalls(resp Response, id string) []ToolCall {
	var out []ToolCall
	for i, c := range resp.ToolCalls {
		cid := c.ID
		if cid == "" {
			cid = fmt.Sprintf("call_%s_%d", strings.TrimPrefix(id, "chatcmpl-llmtest-"), i)
		}
		out = append(out, ToolCall{ID: cid, Type: "function", Function: Function{Name: c.Name, Arguments: c.Arguments}})
	}
	return out
}

// completionOf builds the non-streamed completion of an answer.
func completionOf(req Request, resp Response, id string) completion {
	content := resp.Content
	fr := finishReason(resp)
	msg := &wireMessage{Role: llm.Assistant, ToolCalls: wireCalls(resp, id)}
	if content != "" || len(msg.ToolCalls) == 0 {
		msg.Content = &content
	}
	msg.setReasoning(resp, resp.Reasoning)
	return completion{
		ID: id, Object: "chat.completion", Created: created, Model: modelOf(req, resp),
		Choices: []choice{{Index: 0, Message: msg, FinishReason: &fr}},
		Usage:   usageOf(req, resp),
	}
}

// stream sends the answer as server-sent events: the role, the content a
// word at a time, each tool call's id and name and then its arguments in
// pieces, the finish reason, the usage when the request asked for it
// (and the answer has any), and [DONE].
func (s *Server) stream(w http.ResponseWriter, req Request, resp Response, id string) {
	model := modelOf(req, resp)
	chunk := func(delta *wireMessage, fr *string) completion {
		c := completion{ID: id, Object: "chat.completion.chunk", Created: created, Model: model,
			Choices: []choice{{Index: 0, Delta: delta, FinishReason: fr}}}
		return c
	}
	str := func(s string) *string { return &s }
	var events []completion
	events = append(events, chunk(&wireMessage{Role: llm.Assistant, Content: str("")}, nil))
	for _, piece := range pieces(resp.Reasoning, 0) {
		d := &wireMessage{}
		d.setReasoning(resp, piece)
		events = append(events, chunk(d, nil))
	}
	for _, piece := range pieces(resp.Content, 0) {
		events = append(events, chunk(&wireMessage{Content: str(piece)}, nil))
	}
	for i, c := range wireCalls(resp, id) {
		first := c
		first.Index = &i
		first.Function.Arguments = ""
		events = append(events, chunk(&wireMessage{ToolCalls: []ToolCall{first}}, nil))
		for _, piece := range pieces(c.Function.Arguments, 8) {
			events = append(events, chunk(&wireMessage{ToolCalls: []ToolCall{{Index: &i, Function: Function{Arguments: piece}}}}, nil))
		}
	}
	events = append(events, chunk(&wireMessage{}, str(finishReason(resp))))
	if req.StreamOptions != nil && req.StreamOptions.IncludeUsage && !resp.NoUsage {
		events = append(events, completion{ID: id, Object: "chat.completion.chunk", Created: created, Model: model,
			Choices: []choice{}, Usage: usageOf(req, resp)})
	}
	n := len(events)
	if resp.Truncate {
		n /= 2
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	bw := bufio.NewWriter(w)
	flusher, _ := w.(http.Flusher)
	for _, e := range events[:n] {
		b, _ := json.Marshal(e)
		fmt.Fprintf(bw, "data: %s\n\n", b)
		bw.Flush()
		if flusher != nil {
			flusher.Flush()
		}
	}
	if !resp.Truncate {
		io.WriteString(bw, "data: [DONE]\n\n")
		bw.Flush()
	}
}

// pieces splits s for streaming: after each space when size is 0, or
// every size runes.
func pieces(s string, size int) []string {
	if s == "" {
		return nil
	}
	if size == 0 {
		return strings.SplitAfter(s, " ")
	}
	var out []string
	r := []rune(s)
	for len(r) > size {
		out = append(out, string(r[:size]))
		r = r[size:]
	}
	return append(out, string(r))
}
