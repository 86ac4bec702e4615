package memory

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent/llm"
)

// textTurns returns n turns of the text protocol: an assistant reply in
// THOUGHT/TOOL/ARGS form and the observation as a user message. Their
// lengths vary so that budgets cut in different places.
func textTurns(n int) []Turn {
	turns := make([]Turn, n)
	for i := range turns {
		action := fmt.Sprintf("go north %d", i)
		obs := fmt.Sprintf("Room %d.%s", i, strings.Repeat(" A dusty passage.", i%5+1))
		turns[i] = Turn{
			Step:        i + 1,
			Thought:     fmt.Sprintf("explore %d", i),
			Tool:        "play_action",
			Args:        map[string]any{"action": action},
			Observation: obs,
			Score:       i,
			Location:    fmt.Sprintf("Room %d", i),
			Messages: []llm.Message{
				{Role: llm.Assistant, Content: fmt.Sprintf("THOUGHT: explore %d\nTOOL: play_action\nARGS: {\"action\": %q}", i, action)},
				{Role: llm.User, Content: obs},
			},
		}
	}
	return turns
}

// nativeTurns returns n turns of native tool calling: an assistant message
// with tool calls and the tool results that answer them. Every third turn
// makes two calls.
func nativeTurns(n int) []Turn {
	turns := make([]Turn, n)
	for i := range turns {
		calls := []llm.ToolCall{{ID: fmt.Sprintf("call_%d_a", i), Name: "play_action", Arguments: fmt.Sprintf(`{"action":"take thing %d"}`, i)}}
		if i%3 == 2 {
			calls = append(calls, llm.ToolCall{ID: fmt.Sprintf("call_%d_b", i), Name: "inventory", Arguments: `{}`})
		}
		msgs := []llm.Message{{Role: llm.Assistant, Content: fmt.Sprintf("thinking about step %d", i), ToolCalls: calls}}
		for _, c := range calls {
			msgs = append(msgs, llm.Message{Role: llm.Tool, ToolCallID: c.ID, Content: fmt.Sprintf("Result of %s at %d.%s", c.Name, i, strings.Repeat(" More text.", i%4))})
		}
		turns[i] = Turn{Step: i + 1, Tool: "play_action", Observation: msgs[1].Content, Score: i, Messages: msgs}
	}
	return turns
}

// messagesOf concatenates the messages of turns.
func messagesOf(turns []Turn) []llm.Message {
	var out []llm.Message
	for _, t := range turns {
		out = append(out, t.Messages...)
	}
	return out
}

// checkPaired fails t when a tool result in msgs has no earlier tool call
// with its ID.
func checkPaired(t *testing.T, msgs []llm.Message) {
	t.Helper()
	calls := map[string]bool{}
	for i, m := range msgs {
		for _, c := range m.ToolCalls {
			calls[c.ID] = true
		}
		if m.Role == llm.Tool && !calls[m.ToolCallID] {
			t.Fatalf("message %d: tool result %q without its tool call", i, m.ToolCallID)
		}
	}
}

func equalMessages(a, b []llm.Message) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if fmt.Sprint(a[i]) != fmt.Sprint(b[i]) {
			return false
		}
	}
	return true
}

// summariser returns a scripted client whose every answer names the steps
// it summarised and digests the request, so that different inputs give
// different summaries and the same input the same one.
func summariser() *llm.Scripted {
	s := llm.NewScripted()
	s.Fallback = func(req llm.Request) (*llm.Reply, error) {
		d := sha256.Sum256([]byte(req.Model + req.Messages[0].Content + req.Messages[1].Content))
		steps := strings.TrimPrefix(req.Label, "memory summary, ")
		return &llm.Reply{
			Content: fmt.Sprintf("Notes up to %s (%x).", steps, d[:4]),
			Usage:   llm.Usage{PromptTokens: 100, CompletionTokens: 10, TotalTokens: 110},
			Cost:    0.5,
		}, nil
	}
	return s
}

func context1(t *testing.T, s Strategy, turns []Turn) []llm.Message {
	t.Helper()
	msgs, err := s.Context(context.Background(), turns)
	if err != nil {
		t.Fatalf("%s: %v", s.Name(), err)
	}
	checkPaired(t, msgs)
	return msgs
}
