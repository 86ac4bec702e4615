package llm

import (
	"bytes"
	"errors"
	"io"
	"math"
	"net/http"
	"net/url"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// zeroTemperature stands for a temperature of 0 in go-openai's request,
// whose temperature field is dropped from the JSON when it is 0 (the
// server would then use its default, usually 1; go-openai issue #9).
// It marshals as zeroTemperatureJSON, which the recorder transport turns
// back into a true 0 on the wire.
const zeroTemperature = float32(math.SmallestNonzeroFloat32)

var (
	zeroTemperatureJSON = []byte(`"temperature":1e-45`)
	trueZeroJSON        = []byte(`"temperature":0`)
)

// chatRequest maps req, with the client's defaults, to go-openai's request.
func (c *OpenAI) chatRequest(req Request) (openai.ChatCompletionRequest, error) {
	req = c.Resolve(req)
	creq := openai.ChatCompletionRequest{Model: req.Model, Stream: c.cfg.Stream, Seed: req.Seed}
	if len(req.Messages) == 0 {
		return creq, errors.New("the request has no messages")
	}
	for _, m := range req.Messages {
		cm := openai.ChatCompletionMessage{Role: m.Role, Content: m.Content, Name: m.Name, ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			cm.ToolCalls = append(cm.ToolCalls, openai.ToolCall{
				ID: tc.ID, Type: openai.ToolTypeFunction,
				Function: openai.FunctionCall{Name: tc.Name, Arguments: tc.Arguments},
			})
		}
		creq.Messages = append(creq.Messages, cm)
	}
	for _, t := range req.Tools {
		var params any = t.Parameters
		if t.Parameters == nil {
			params = map[string]any{"type": "object", "properties": map[string]any{}}
		}
		creq.Tools = append(creq.Tools, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name: t.Name, Description: t.Description, Parameters: params,
		}})
	}
	switch req.ToolChoice {
	case "":
	case "auto", "none", "required":
		creq.ToolChoice = req.ToolChoice
	default:
		creq.ToolChoice = openai.ToolChoice{Type: openai.ToolTypeFunction, Function: openai.ToolFunction{Name: req.ToolChoice}}
	}
	if t := req.Temperature; t != nil {
		if *t == 0 {
			creq.Temperature = zeroTemperature
		} else {
			creq.Temperature = float32(*t)
		}
	}
	if reasoningModel(creq.Model) {
		creq.MaxCompletionTokens = req.MaxTokens
	} else {
		creq.MaxTokens = req.MaxTokens
	}
	if req.JSON {
		creq.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	}
	if creq.Stream {
		creq.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	}
	return creq, nil
}

// reasoningModel reports whether model is one of OpenAI's reasoning models,
// which take max_completion_tokens instead of max_tokens (and which
// go-openai refuses to send max_tokens to).
func reasoningModel(model string) bool {
	for _, p := range []string{"o1", "o3", "o4", "gpt-5"} {
		if strings.HasPrefix(model, p) {
			return true
		}
	}
	return false
}

// tryKey is the context key of a try's tryRecord.
type tryKey struct{}

// tryRecord is what the transport saw of a try's HTTP response: go-openai's
// errors keep the status but not the headers.
type tryRecord struct {
	status       int
	retryAfter   string
	retryAfterMs string
}

// recorder is the transport under go-openai: it adds the base URL's query
// to the request's, restores a zero temperature in the request body and
// records the response's status and Retry-After headers in the try's
// tryRecord.
type recorder struct {
	base  http.RoundTripper
	query url.Values
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
	if r.Body != nil && r.Method == http.MethodPost {
		b, err := io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil {
			return nil, err
		}
		if i := bytes.Index(b, zeroTemperatureJSON); i >= 0 {
			b = append(b[:i:i], append(trueZeroJSON, b[i+len(zeroTemperatureJSON):]...)...)
		}
		r = r.Clone(r.Context())
		r.Body = io.NopCloser(bytes.NewReader(b))
		r.ContentLength = int64(len(b))
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	}
	resp, err := t.base.RoundTrip(r)
	if rec, ok := r.Context().Value(tryKey{}).(*tryRecord); ok && resp != nil {
		rec.status = resp.StatusCode
		rec.retryAfter = resp.Header.Get("Retry-After")
		rec.retryAfterMs = resp.Header.Get("Retry-After-Ms")
	}
	return resp, err
}
