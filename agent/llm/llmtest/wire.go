package llmtest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/grue-lab/grue/agent/llm"
)

// Request is one chat-completions request as the server received it,
// decoded from the OpenAI wire format. Raw keeps the body as it came, so a
// test can check what a decoded field cannot show (whether a key was sent
// at all, for instance).
type Request struct {
	Model               string          `json:"model"`
	Messages            []Message       `json:"messages"`
	Tools               []Tool          `json:"tools,omitempty"`
	ToolChoice          json.RawMessage `json:"tool_choice,omitempty"`
	Temperature         *float64        `json:"temperature,omitempty"`
	Seed                *int            `json:"seed,omitempty"`
	MaxTokens           int             `json:"max_tokens,omitempty"`
	MaxCompletionTokens int             `json:"max_completion_tokens,omitempty"`
	ResponseFormat      *ResponseFormat `json:"response_format,omitempty"`
	Stream              bool            `json:"stream,omitempty"`
	StreamOptions       *StreamOptions  `json:"stream_options,omitempty"`
	ReasoningEffort     string          `json:"reasoning_effort,omitempty"`

	// Raw is the request body as received.
	Raw json.RawMessage `json:"-"`
	// Header is the request's HTTP header (Authorization included).
	Header http.Header `json:"-"`
	// Path is the URL path the request was sent to, Query its query
	// (api-version=... on an Azure path).
	Path  string `json:"-"`
	Query string `json:"-"`
}

// Message is a chat message on the wire. Content given as a list of parts
// is joined into one text.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	Name       string     `json:"name,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// UnmarshalJSON accepts content as a string, null, or a list of parts.
func (m *Message) UnmarshalJSON(b []byte) error {
	var w struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		Name       string          `json:"name"`
		ToolCalls  []ToolCall      `json:"tool_calls"`
		ToolCallID string          `json:"tool_call_id"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*m = Message{Role: w.Role, Name: w.Name, ToolCalls: w.ToolCalls, ToolCallID: w.ToolCallID}
	c := bytes.TrimSpace(w.Content)
	switch {
	case len(c) == 0 || string(c) == "null":
	case c[0] == '"':
		return json.Unmarshal(c, &m.Content)
	default:
		var parts []struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(c, &parts); err != nil {
			return err
		}
		var sb strings.Builder
		for _, p := range parts {
			sb.WriteString(p.Text)
		}
		m.Content = sb.String()
	}
	return nil
}

// ToolCall is a native tool call on the wire.
type ToolCall struct {
	Index    *int     `json:"index,omitempty"` // in stream deltas only
	ID       string   `json:"id,omitempty"`
	Type     string   `json:"type,omitempty"`
	Function Function `json:"function"`
}

// Function is the name and raw JSON arguments of a tool call.
type Function struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// Tool is a tool offered to the model.
type Tool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string         `json:"name"`
		Description string         `json:"description,omitempty"`
		Parameters  map[string]any `json:"parameters,omitempty"`
	} `json:"function"`
}

// ResponseFormat is the request's response_format.
type ResponseFormat struct {
	Type string `json:"type"`
}

// StreamOptions is the request's stream_options.
type StreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// ToolChoiceName returns the tool_choice as one word: "" when none was
// sent, "auto", "none" or "required", or the name of the function that the
// request forces.
func (r Request) ToolChoiceName() string {
	if len(r.ToolChoice) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(r.ToolChoice, &s) == nil {
		return s
	}
	var named struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if json.Unmarshal(r.ToolChoice, &named) == nil {
		return named.Function.Name
	}
	return string(r.ToolChoice)
}

// Has reports whether the body had the top-level key (e.g. "temperature").
func (r Request) Has(key string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(r.Raw, &m) != nil {
		return false
	}
	_, ok := m[key]
	return ok
}

// Field returns the raw JSON of a top-level key of the body, or "" when it
// was not sent: Field("temperature") is "0" for a temperature of zero.
func (r Request) Field(key string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(r.Raw, &m) != nil {
		return ""
	}
	return string(m[key])
}

// LLMMessages returns the request's messages as grue's llm.Message values.
func (r Request) LLMMessages() []llm.Message {
	out := make([]llm.Message, len(r.Messages))
	for i, m := range r.Messages {
		lm := llm.Message{Role: m.Role, Content: m.Content, Name: m.Name, ToolCallID: m.ToolCallID}
		for _, c := range m.ToolCalls {
			lm.ToolCalls = append(lm.ToolCalls, llm.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
		}
		out[i] = lm
	}
	return out
}

// LastUser returns the content of the last user message, or "".
func (r Request) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == llm.User {
			return r.Messages[i].Content
		}
	}
	return ""
}

// The bodies the server sends.

type completion struct {
	ID      string     `json:"id"`
	Object  string     `json:"object"`
	Created int64      `json:"created"`
	Model   string     `json:"model"`
	Choices []choice   `json:"choices"`
	Usage   *wireUsage `json:"usage,omitempty"`
}

type choice struct {
	Index        int          `json:"index"`
	Message      *wireMessage `json:"message,omitempty"`
	Delta        *wireMessage `json:"delta,omitempty"`
	FinishReason *string      `json:"finish_reason"`
}

type wireMessage struct {
	Role             string     `json:"role,omitempty"`
	Content          *string    `json:"content,omitempty"`
	ReasoningContent string     `json:"reasoning_content,omitempty"`
	Reasoning        string     `json:"reasoning,omitempty"`
	ToolCalls        []ToolCall `json:"tool_calls,omitempty"`
}

// setReasoning puts text in the field resp names.
func (m *wireMessage) setReasoning(resp Response, text string) {
	if resp.ReasoningField == "reasoning" {
		m.Reasoning = text
	} else {
		m.ReasoningContent = text
	}
}

type wireUsage struct {
	PromptTokens     int          `json:"prompt_tokens"`
	CompletionTokens int          `json:"completion_tokens"`
	TotalTokens      int          `json:"total_tokens"`
	Details          *wireDetails `json:"completion_tokens_details,omitempty"`
}

type wireDetails struct {
	ReasoningTokens int `json:"reasoning_tokens"`
}

type errorBody struct {
	Error struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    any    `json:"code,omitempty"`
	} `json:"error"`
}
