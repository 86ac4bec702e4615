package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/tools"
)

// PromptInput is what a prompt is made of: the system prompt, the
// protocol and tools, what memory recalls of the past, and the current
// state of the game.
type PromptInput struct {
	System   string         `json:"system"`
	Protocol string         `json:"protocol"`
	Tools    []llm.ToolSpec `json:"tools,omitempty"`
	// Context is the memory strategy's messages for the turns so far.
	Context []llm.Message `json:"context,omitempty"`
	// Step is the number of the step about to be played, from 1.
	Step        int    `json:"step"`
	Observation string `json:"observation"`
	Score       int    `json:"score"`
	MaxScore    int    `json:"max_score,omitempty"`
	Moves       int    `json:"moves"`
	Location    string `json:"location,omitempty"`
	// Warning is a note for the model about its last reply (a loop, a
	// reply that could not be read, a tool that does not exist).
	Warning string `json:"warning,omitempty"`
}

// PromptBuilder makes the messages a model sees. Messages builds the
// prompt for the next step; Turn gives the messages a played step adds
// to the conversation, which memory strategies keep or summarise. A
// script replaces the agent's Builder to change either.
type PromptBuilder interface {
	Messages(in PromptInput) []llm.Message
	Turn(s *Step) []llm.Message
}

// DefaultPrompt is the default [PromptBuilder]: the system prompt with the answer
// format and the tools, the remembered turns, then the current state and
// observation in a user message. Its zero value is ready; a field left
// empty uses the built-in text.
type DefaultPrompt struct {
	// TextFormat tells a text-protocol model how to answer.
	TextFormat string
	// NativeFormat tells a native-protocol model how to answer.
	NativeFormat string
}

// DefaultTextFormat is DefaultPrompt's answer format for the text
// protocol; the tools' list follows it.
const DefaultTextFormat = `RESPOND IN EXACTLY THIS FORMAT, with no markdown and nothing else:
THOUGHT: <your brief reasoning about what to do next>
TOOL: <one tool name>
ARGS: <the tool's arguments as a JSON object>

Examples:
THOUGHT: The mailbox might hold something useful. I should open it.
TOOL: play_action
ARGS: {"action": "open mailbox"}

THOUGHT: I want to see which exits I have not tried yet.
TOOL: get_map
ARGS: {}`

// DefaultNativeFormat is DefaultPrompt's instruction for the native
// protocol.
const DefaultNativeFormat = `Each turn, think briefly, then call exactly one tool.`

// Messages returns the system message, the context and the state message.
func (p DefaultPrompt) Messages(in PromptInput) []llm.Message {
	msgs := make([]llm.Message, 0, len(in.Context)+2)
	msgs = append(msgs, llm.Message{Role: llm.System, Content: p.system(in)})
	msgs = append(msgs, in.Context...)
	msgs = append(msgs, llm.Message{Role: llm.User, Content: p.state(in)})
	return msgs
}

func (p DefaultPrompt) system(in PromptInput) string {
	var b strings.Builder
	b.WriteString(strings.TrimRight(in.System, "\n"))
	if in.Protocol == ProtocolNative {
		f := p.NativeFormat
		if f == "" {
			f = DefaultNativeFormat
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(f)
		return b.String()
	}
	f := p.TextFormat
	if f == "" {
		f = DefaultTextFormat
	}
	if b.Len() > 0 {
		b.WriteString("\n\n")
	}
	b.WriteString(f)
	if len(in.Tools) > 0 {
		b.WriteString("\n\nAVAILABLE TOOLS:\n")
		for _, s := range in.Tools {
			b.WriteString(tools.DescribeSpec(s))
			b.WriteByte('\n')
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// state is the last message: where the game stands, the observation
// (unless the last remembered message already ends with it), any warning,
// and the question.
func (p DefaultPrompt) state(in PromptInput) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[Step %d | Score: %d", in.Step, in.Score)
	if in.MaxScore > 0 {
		fmt.Fprintf(&b, " of %d", in.MaxScore)
	}
	fmt.Fprintf(&b, " | Moves: %d", in.Moves)
	if in.Location != "" {
		fmt.Fprintf(&b, " | Location: %s", in.Location)
	}
	b.WriteString("]\n\n")
	obs := strings.TrimSpace(in.Observation)
	shown := false
	if n := len(in.Context); n > 0 && obs != "" {
		shown = strings.HasSuffix(strings.TrimSpace(in.Context[n-1].Content), obs)
	}
	switch {
	case shown:
	case obs == "":
		b.WriteString("Current observation: (none yet; try look)\n\n")
	default:
		fmt.Fprintf(&b, "Current observation:\n%s\n\n", obs)
	}
	if in.Warning != "" {
		fmt.Fprintf(&b, "WARNING: %s\n\n", in.Warning)
	}
	if in.Protocol == ProtocolNative {
		b.WriteString("What do you do next? Call one tool.")
	} else {
		b.WriteString("What do you do next? Answer with THOUGHT, TOOL and ARGS.")
	}
	return b.String()
}

// Turn returns the step as the model should remember it. In the text
// protocol: the call as a clean THOUGHT/TOOL/ARGS answer (what was played,
// after repairs, not the raw reply, which the step keeps), then the tool's
// text as a user message. In the native protocol: the assistant's message
// with the one tool call played, then the tool's result with its call's
// ID.
func (p DefaultPrompt) Turn(s *Step) []llm.Message {
	result := s.Observation
	if s.ToolError {
		result = "Tool error: " + result
	}
	args := argsJSON(s.Args)
	if s.Protocol == ProtocolNative && s.CallID != "" {
		content := ""
		if s.Reply != nil {
			content = s.Reply.Content
		}
		return []llm.Message{
			{Role: llm.Assistant, Content: content, ToolCalls: []llm.ToolCall{{ID: s.CallID, Name: s.Tool, Arguments: args}}},
			{Role: llm.Tool, Content: result, Name: s.Tool, ToolCallID: s.CallID},
		}
	}
	return []llm.Message{
		{Role: llm.Assistant, Content: FormatCall(s.Thought, s.Tool, s.Args)},
		{Role: llm.User, Content: result},
	}
}

// FormatCall writes a call in the text protocol.
func FormatCall(thought, tool string, args map[string]any) string {
	var b strings.Builder
	if thought != "" {
		fmt.Fprintf(&b, "THOUGHT: %s\n", thought)
	}
	fmt.Fprintf(&b, "TOOL: %s\nARGS: %s", tool, argsJSON(args))
	return b.String()
}

// argsJSON is args as compact JSON ("{}" when there are none).
func argsJSON(args map[string]any) string {
	if len(args) == 0 {
		return "{}"
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(args); err != nil {
		return "{}"
	}
	return strings.TrimRight(b.String(), "\n")
}
