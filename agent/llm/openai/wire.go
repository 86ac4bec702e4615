package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/grue-lab/grue/agent/llm"
	oai "github.com/sashabaranov/go-openai"
)

// The request body is built in two parts. go-openai's request carries the
// model, the messages and the stream flag, and nothing go-openai checks
// by model name (it refuses a temperature or max_tokens for names it
// takes for reasoning models, and drops a temperature of 0). Everything
// else is a wireParams, which the recorder transport writes into the body
// go-openai marshalled: each value exactly as given (a temperature of 0
// is sent as 0), minus what the endpoint refuses, plus the extra body.

// wireParams are the top-level body fields set on top of go-openai's.
type wireParams map[string]any

// chatRequest maps req, with the client's defaults filled in, to
// go-openai's request and the parameters set on top of it, leaving out
// those the endpoint refuses; omitted says which and why.
func (c *Client) chatRequest(req llm.Request) (creq oai.ChatCompletionRequest, params wireParams, omitted []string, err error) {
	req = c.Resolve(req)
	creq = oai.ChatCompletionRequest{Model: req.Model, Stream: c.cfg.Stream}
	if len(req.Messages) == 0 {
		return creq, nil, nil, errors.New("the request has no messages")
	}
	for _, m := range req.Messages {
		cm := oai.ChatCompletionMessage{Role: m.Role, Content: m.Content, Name: m.Name, ToolCallID: m.ToolCallID, ReasoningContent: m.Reasoning}
		for _, tc := range m.ToolCalls {
			cm.ToolCalls = append(cm.ToolCalls, oai.ToolCall{
				ID: tc.ID, Type: oai.ToolTypeFunction,
				Function: oai.FunctionCall{Name: tc.Name, Arguments: tc.Arguments},
			})
		}
		creq.Messages = append(creq.Messages, cm)
	}
	q := c.quirks.of(req.Model)
	params = wireParams{}
	if len(req.Tools) > 0 {
		var tools []oai.Tool
		for _, t := range req.Tools {
			var ps any = t.Parameters
			if t.Parameters == nil {
				ps = map[string]any{"type": "object", "properties": map[string]any{}}
			}
			tools = append(tools, oai.Tool{Type: oai.ToolTypeFunction, Function: &oai.FunctionDefinition{
				Name: t.Name, Description: t.Description, Parameters: ps,
			}})
		}
		params["tools"] = tools
	}
	switch req.ToolChoice {
	case "":
	case "auto", "none", "required":
		params["tool_choice"] = req.ToolChoice
	default:
		params["tool_choice"] = oai.ToolChoice{Type: oai.ToolTypeFunction, Function: oai.ToolFunction{Name: req.ToolChoice}}
	}
	if t := req.Temperature; t != nil {
		params["temperature"] = *t
	}
	if req.Seed != nil {
		params["seed"] = *req.Seed
	}
	if n := req.MaxTokens; n > 0 {
		if q.reasons(req) && c.reasoningTokens > 0 {
			n += c.reasoningTokens
		}
		params[q.preferredTokensKey()] = n
	}
	if req.JSON {
		params["response_format"] = map[string]string{"type": "json_object"}
	}
	if creq.Stream {
		params["stream_options"] = map[string]bool{"include_usage": true}
	}
	if req.ReasoningEffort != "" {
		params["reasoning_effort"] = req.ReasoningEffort
	}
	omitted = q.strip(params)
	// The extra body is sent as given, whatever the endpoint refused:
	// it is what the user asked for by name.
	maps.Copy(params, req.Extra)
	return creq, params, omitted, nil
}

// tryKey is the context key of a try's tryRecord.
type tryKey struct{}

// maxRecorded bounds the response body a tryRecord keeps.
const maxRecorded = 16 << 20

// tryRecord is what the transport is to write into a try's request and
// what it saw of the response: go-openai's errors keep the status but
// not the headers, and its replies drop fields it does not know (the
// reasoning of servers that call it reasoning).
type tryRecord struct {
	params wireParams

	status       int
	retryAfter   string
	retryAfterMs string
	body         bytes.Buffer
}

// recorder is the transport under go-openai: it adds the base URL's query
// to the request's, writes the try's parameters into the request body,
// caps the response body at maxReply bytes and records the response's
// status, Retry-After headers and body in the try's tryRecord.
type recorder struct {
	base     http.RoundTripper
	query    url.Values
	maxReply int64
}

func (t *recorder) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.query) > 0 {
		q := r.URL.Query()
		for k, vs := range t.query {
			if !q.Has(k) {
				q[k] = vs
			}
		}
		r = r.Clone(r.Context())
		r.URL.RawQuery = q.Encode()
	}
	rec, _ := r.Context().Value(tryKey{}).(*tryRecord)
	if rec != nil && r.Body != nil && r.Method == http.MethodPost {
		b, err := io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil {
			return nil, err
		}
		if b, err = mergeBody(b, rec.params); err != nil {
			return nil, err
		}
		r = r.Clone(r.Context())
		r.Body = io.NopCloser(bytes.NewReader(b))
		r.ContentLength = int64(len(b))
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	}
	resp, err := t.base.RoundTrip(r)
	if resp != nil && resp.Body != nil && t.maxReply > 0 {
		resp.Body = &cappedBody{ReadCloser: resp.Body, left: t.maxReply, limit: t.maxReply}
	}
	if rec != nil && resp != nil {
		rec.status = resp.StatusCode
		rec.retryAfter = resp.Header.Get("Retry-After")
		rec.retryAfterMs = resp.Header.Get("Retry-After-Ms")
		resp.Body = &teeBody{ReadCloser: resp.Body, into: &rec.body}
	}
	return resp, err
}

// mergeBody sets params on the JSON object body. go-openai's body holds
// only model, messages and stream (chatRequest sets nothing else on it),
// so params that name none of those are appended to it as they are,
// without decoding the messages; an extra body field that replaces one of
// them makes the body decoded and written anew.
func mergeBody(body []byte, params wireParams) ([]byte, error) {
	if len(params) == 0 {
		return body, nil
	}
	keys := slices.Sorted(maps.Keys(params))
	trimmed := bytes.TrimRight(body, " \t\r\n")
	if !slices.ContainsFunc(keys, func(k string) bool { return k == "model" || k == "messages" || k == "stream" }) &&
		len(trimmed) > 2 && trimmed[len(trimmed)-1] == '}' {
		out := append([]byte(nil), trimmed[:len(trimmed)-1]...)
		for _, k := range keys {
			v, err := json.Marshal(params[k])
			if err != nil {
				return nil, fmt.Errorf("request body field %s: %w", k, err)
			}
			name, _ := json.Marshal(k)
			out = append(append(append(append(out, ','), name...), ':'), v...)
		}
		return append(out, '}'), nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, fmt.Errorf("request body: %w", err)
	}
	for _, k := range keys {
		b, err := json.Marshal(params[k])
		if err != nil {
			return nil, fmt.Errorf("request body field %s: %w", k, err)
		}
		m[k] = b
	}
	return json.Marshal(m)
}

// teeBody copies what is read of a response body, up to maxRecorded.
type teeBody struct {
	io.ReadCloser
	into *bytes.Buffer
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	if n > 0 && t.into.Len() < maxRecorded {
		t.into.Write(p[:min(n, maxRecorded-t.into.Len())])
	}
	return n, err
}

// maxReplyOf is the cap on a reply's body cfg asks for.
func maxReplyOf(cfg llm.Config) int64 {
	if cfg.MaxReplyBytes > 0 {
		return cfg.MaxReplyBytes
	}
	return llm.DefaultMaxReplyBytes
}

// cappedBody is a response body that fails with an *errTooLarge once
// more than limit bytes would be read: a server that sends an endless
// or enormous reply (one line of a gigabyte, a stream that never ends)
// costs at most limit bytes and what decoding them takes.
type cappedBody struct {
	io.ReadCloser
	left, limit int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte more tells a body of exactly limit bytes from a
		// longer one.
		var one [1]byte
		n, err := b.ReadCloser.Read(one[:])
		if n > 0 {
			return 0, &errTooLarge{limit: b.limit}
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}

// errTooLarge is a reply longer than the client's cap.
type errTooLarge struct{ limit int64 }

func (e *errTooLarge) Error() string {
	return fmt.Sprintf("the reply is larger than the cap of %s (%d bytes): not read further; raise it with --max-reply-bytes or GRUE_MAX_REPLY_BYTES if the server is trusted", sizeOf(e.limit), e.limit)
}

// sizeOf writes n bytes in MiB or KiB when it is a whole number of them.
func sizeOf(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// rawChoice is what grue reads of a reply's first choice itself.
type rawChoice struct {
	Message *rawReasoning `json:"message"`
	Delta   *rawReasoning `json:"delta"`
}

type rawReasoning struct {
	ReasoningContent string `json:"reasoning_content"`
	Reasoning        any    `json:"reasoning"`
}

func (r *rawReasoning) text() string {
	if r == nil {
		return ""
	}
	if r.ReasoningContent != "" {
		return r.ReasoningContent
	}
	s, _ := r.Reasoning.(string)
	return s
}

type rawReply struct {
	Choices []rawChoice `json:"choices"`
}

// reasoningOf reads the reasoning of the first choice from a recorded
// body: a completion, or a stream's events ("data: {...}" lines).
func reasoningOf(body []byte, stream bool) string {
	if !stream {
		var r rawReply
		if json.Unmarshal(body, &r) != nil || len(r.Choices) == 0 {
			return ""
		}
		return r.Choices[0].Message.text()
	}
	var sb strings.Builder
	for line := range strings.SplitSeq(string(body), "\n") {
		data, ok := strings.CutPrefix(strings.TrimSpace(line), "data:")
		if !ok {
			continue
		}
		var r rawReply
		if json.Unmarshal([]byte(strings.TrimSpace(data)), &r) != nil || len(r.Choices) == 0 {
			continue
		}
		sb.WriteString(r.Choices[0].Delta.text())
	}
	return sb.String()
}
