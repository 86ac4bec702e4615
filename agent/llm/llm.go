// Package llm is grue's side of a language model: the messages that go in,
// the reply that comes out, and what wraps any client, with no network
// code of its own.
//
// [Client] is the one interface the agent uses. The real implementation,
// for any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, llama.cpp,
// OpenRouter, the Hugging Face router), is in package
// [github.com/grue-lab/grue/agent/llm/openai] (openai.New, with a [Config]
// from [ConfigFromEnv]): it retries what can succeed on a second try and
// nothing else, records each failed try in the [Reply], and fails with a
// [CallError]. It is kept apart so that the agent, its memory and its
// tools, which need only this package, do not link net/http. [WithCache]
// wraps any Client with a response cache on disk ([Cache], in one of the
// [CacheMode] modes), so that a recorded run replays exactly and for free;
// [ReplayFrom] replays with no client at all. [Scripted] answers from a
// list, for tests and for scripts that want to see what the agent does with
// a given reply; package [github.com/grue-lab/grue/agent/llm/llmtest] serves
// scripted answers over HTTP, in the OpenAI wire format. A [PriceTable]
// gives each reply its cost (a client that is a [Pricer] also prices
// tokens its server did not count), and a [Tally] sums an episode's calls.
// Token estimates ([EstimateTokens]), the redaction of keys in URLs
// ([RedactURL]) and the check of a config's key variable ([CheckKeyEnv])
// are here too.
//
// Every type here is plain data with JSON tags: a [Request] and a Reply are
// what a trajectory records.
package llm

import (
	"context"
	"strings"
	"time"
)

// The roles of a Message.
const (
	System    = "system"
	User      = "user"
	Assistant = "assistant"
	Tool      = "tool"
)

// Message is one message of a chat: its role, its text and, for an
// assistant's native tool calls and the tool results that answer them, the
// calls and the call ID.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	Name       string     `json:"name,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	// Reasoning is sent as the message's reasoning_content when set. The
	// agent never sets it (a model's reasoning is not sent back to it);
	// a script or prompt builder that wants it sent sets it.
	Reasoning string `json:"reasoning,omitempty"`
}

// ToolCall is one native tool call in a reply. Arguments is the raw JSON
// text the model wrote, which may not be valid JSON: parsing it is the
// agent's business, and so is repairing it.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolSpec describes a tool to a model that calls tools natively.
// Parameters is a JSON Schema object.
type ToolSpec struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters,omitempty"`
}

// Request is one call to a model. Zero values mean the client's default,
// except Temperature, which is sent as given whenever Temperature is
// non-nil (0 is a real temperature), unless the endpoint refuses it
// (see DroppableParams).
type Request struct {
	// Model overrides the client's model when set.
	Model    string     `json:"model,omitempty"`
	Messages []Message  `json:"messages"`
	Tools    []ToolSpec `json:"tools,omitempty"`
	// ToolChoice is "", "auto", "none", "required", or a tool's name.
	ToolChoice  string   `json:"tool_choice,omitempty"`
	Temperature *float64 `json:"temperature,omitempty"`
	Seed        *int     `json:"seed,omitempty"`
	MaxTokens   int      `json:"max_tokens,omitempty"`
	// JSON asks for a JSON object reply (response_format json_object).
	JSON bool `json:"json,omitempty"`
	// ReasoningEffort is sent as reasoning_effort ("minimal", "low",
	// "medium", "high", ...) when set; servers that refuse it get none.
	ReasoningEffort string `json:"reasoning_effort,omitempty"`
	// Extra holds request body fields sent verbatim, on top of the
	// client's Config.ExtraBody (a key here replaces the same key
	// there): Ollama's options and think, vLLM's chat_template_kwargs, a
	// router's provider preferences. A field grue sets itself is
	// replaced too.
	Extra map[string]any `json:"extra,omitempty"`
	// Label names the call in errors and cache misses ("episode 3, step
	// 17"). It is not sent, and it is not part of the cache key.
	Label string `json:"-"`
}

// Usage is the tokens one call used, as the server counted them.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	// ReasoningTokens is how many of CompletionTokens the model spent
	// reasoning, when the server says (completion_tokens_details).
	ReasoningTokens int `json:"reasoning_tokens,omitempty"`
}

// Add returns u plus v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		PromptTokens:     u.PromptTokens + v.PromptTokens,
		CompletionTokens: u.CompletionTokens + v.CompletionTokens,
		TotalTokens:      u.TotalTokens + v.TotalTokens,
		ReasoningTokens:  u.ReasoningTokens + v.ReasoningTokens,
	}
}

// Attempt is one try at a call that did not give the reply: what went
// wrong and how long the client waited before the next try.
type Attempt struct {
	Error  string `json:"error"`
	Status int    `json:"status,omitempty"` // HTTP status, 0 when none came back
	// Wait is how long the client waited before the next try; it is
	// written to JSON as wait_ms, in milliseconds (see Reply).
	Wait time.Duration `json:"-"`
	// Learned is what the client learned from this try about the
	// endpoint and changed for the next one ("temperature refused: no
	// longer sent"), when it did; such a try is retried at once.
	Learned string `json:"learned,omitempty"`
}

// Reply is a model's answer to one Request.
type Reply struct {
	Content string `json:"content"`
	// Reasoning is the model's reasoning as the server sent it apart
	// from the content (reasoning_content from vLLM, DeepSeek and Qwen3
	// servers; reasoning from Ollama and routers). It is kept for the
	// record and not sent back to the model (Message leaves it out).
	Reasoning    string     `json:"reasoning,omitempty"`
	ToolCalls    []ToolCall `json:"tool_calls,omitempty"`
	FinishReason string     `json:"finish_reason,omitempty"`
	Model        string     `json:"model,omitempty"` // the model that answered
	Usage        Usage      `json:"usage"`
	// Cost is in US dollars, from the price table (0 when the model is not
	// in it, or the reply came from the cache).
	Cost float64 `json:"cost"`
	// Latency is the wall time of the call, retries and waits included.
	// In JSON it is latency_ms, in milliseconds (to the microsecond),
	// as every duration grue writes is; a reply written before, with
	// latency in nanoseconds, still reads.
	Latency time.Duration `json:"-"`
	// Cached is true when the reply came from the response cache.
	Cached bool `json:"cached,omitempty"`
	// Retries lists the failed tries before this reply, in order.
	Retries []Attempt `json:"retries,omitempty"`
	// Omitted lists the request parameters the client did not send
	// because the endpoint refuses them (learned from its answers, or
	// configured: Config.DropParams), each with why.
	Omitted []string `json:"omitted,omitempty"`
}

// CutOff reports whether the reply ended at its token limit before it
// gave any answer: finish reason length, no content and no tool call.
// A reasoning model whose budget went on reasoning answers so.
func (r *Reply) CutOff() bool {
	return r.FinishReason == "length" && len(r.ToolCalls) == 0 && strings.TrimSpace(r.Content) == ""
}

// Message returns the reply as the assistant message to append to a chat.
func (r *Reply) Message() Message {
	return Message{Role: Assistant, Content: r.Content, ToolCalls: r.ToolCalls}
}

// Client is a language model. Complete sends one [Request] and returns the
// [Reply], or an error once the client has given up. It must be safe for
// concurrent use and must return promptly when ctx is cancelled.
type Client interface {
	Complete(ctx context.Context, req Request) (*Reply, error)
}
