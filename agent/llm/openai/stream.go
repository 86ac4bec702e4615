package openai

import (
	"context"
	"errors"
	"io"
	"sort"
	"strings"

	"github.com/grue-lab/grue/agent/llm"
	oai "github.com/sashabaranov/go-openai"
)

// streamTry makes one streamed request and accumulates its events into
// the Reply a non-streamed request would have given. A stream that ends
// before any choice finished was cut off: that is a malformed reply, and
// retried.
func (c *Client) streamTry(ctx context.Context, creq oai.ChatCompletionRequest) (*llm.Reply, error) {
	stream, err := c.api.CreateChatCompletionStream(ctx, creq)
	if err != nil {
		return nil, err
	}
	defer stream.Close()
	var acc streamAccumulator
	for {
		chunk, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		acc.add(chunk)
	}
	return acc.reply()
}

// streamAccumulator gathers a stream's chunks: the content and each tool
// call (by index) of the first choice, the finish reason, the model and
// the usage.
type streamAccumulator struct {
	content  strings.Builder
	thought  strings.Builder
	calls    map[int]*llm.ToolCall
	finish   string
	finished bool
	model    string
	usage    llm.Usage
}

func (a *streamAccumulator) add(chunk oai.ChatCompletionStreamResponse) {
	if chunk.Model != "" {
		a.model = chunk.Model
	}
	if u := chunk.Usage; u != nil {
		a.usage = usageOf(u)
	}
	for _, ch := range chunk.Choices {
		if ch.Index != 0 {
			continue
		}
		a.content.WriteString(ch.Delta.Content)
		a.thought.WriteString(ch.Delta.ReasoningContent)
		for pos, d := range ch.Delta.ToolCalls {
			i := pos
			if d.Index != nil {
				i = *d.Index
			}
			if a.calls == nil {
				a.calls = map[int]*llm.ToolCall{}
			}
			tc := a.calls[i]
			if tc == nil {
				tc = &llm.ToolCall{}
				a.calls[i] = tc
			}
			if d.ID != "" {
				tc.ID = d.ID
			}
			tc.Name += d.Function.Name
			tc.Arguments += d.Function.Arguments
		}
		if ch.FinishReason != "" {
			a.finish = string(ch.FinishReason)
			a.finished = true
		}
	}
}

func (a *streamAccumulator) reply() (*llm.Reply, error) {
	if !a.finished {
		return nil, errMalformed{"the stream ended before the reply finished (truncated)"}
	}
	r := &llm.Reply{Content: a.content.String(), Reasoning: a.thought.String(), FinishReason: a.finish, Model: a.model, Usage: a.usage}
	idx := make([]int, 0, len(a.calls))
	for i := range a.calls {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for _, i := range idx {
		r.ToolCalls = append(r.ToolCalls, *a.calls[i])
	}
	return r, nil
}
