package llm

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// ErrScriptExhausted is returned (wrapped) by Scripted.Complete when every
// scripted answer has been given and no Fallback is set.
var ErrScriptExhausted = errors.New("llm: scripted client has no answers left")

// ScriptFunc computes a scripted answer from the request it answers.
type ScriptFunc func(req Request) (*Reply, error)

// Scripted is a Client that answers from a script instead of a model: the
// answers are given in the order they were added, one per call, and every
// request is recorded. It is a test double, exported because scripts and
// other packages' tests use it to see what an agent does with a given
// reply, with no server and no network.
//
//	s := llm.NewScripted().
//		Text("THOUGHT: dark here\nTOOL: play_action\nARGS: {\"action\": \"light lamp\"}").
//		ToolCall("play_action", `{"action":"north"}`)
//	reply, err := s.Complete(ctx, req) // the first answer, and so on
//
// When the script runs out, Complete calls Fallback if it is set, and
// otherwise fails with an error wrapping ErrScriptExhausted. Scripted is safe
// for concurrent use; the answers are then handed out in the order the calls
// take them.
type Scripted struct {
	// Fallback, when set, answers every call after the script is spent.
	Fallback ScriptFunc

	mu       sync.Mutex
	script   []ScriptFunc
	next     int
	requests []Request
}

// NewScripted returns a Scripted client whose script is replies, in order.
func NewScripted(replies ...*Reply) *Scripted {
	s := &Scripted{}
	for _, r := range replies {
		s.Reply(r)
	}
	return s
}

// Reply adds an answer to the end of the script. Each call gets its own
// copy of r, so a caller may change the reply it got.
func (s *Scripted) Reply(r *Reply) *Scripted {
	if r == nil {
		r = &Reply{}
	}
	tmpl := copyReply(r)
	return s.Func(func(Request) (*Reply, error) { return copyReply(tmpl), nil })
}

// Text adds a plain text answer to the end of the script.
func (s *Scripted) Text(content string) *Scripted {
	return s.Reply(&Reply{Content: content, FinishReason: "stop"})
}

// ToolCall adds an answer that is one native tool call of tool name with
// the raw JSON arguments args.
func (s *Scripted) ToolCall(name, args string) *Scripted {
	s.mu.Lock()
	id := fmt.Sprintf("call_%d", len(s.script)+1)
	s.mu.Unlock()
	return s.Reply(&Reply{
		ToolCalls:    []ToolCall{{ID: id, Name: name, Arguments: args}},
		FinishReason: "tool_calls",
	})
}

// Error adds a failed call to the end of the script: Complete returns err.
func (s *Scripted) Error(err error) *Scripted {
	return s.Func(func(Request) (*Reply, error) { return nil, err })
}

// Func adds an answer computed from the request when the call comes.
func (s *Scripted) Func(f ScriptFunc) *Scripted {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, f)
	return s
}

// Complete records req and gives the next answer of the script.
func (s *Scripted) Complete(ctx context.Context, req Request) (*Reply, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("scripted call %s: %w", labelOf(req), err)
	}
	s.mu.Lock()
	s.requests = append(s.requests, copyRequest(req))
	var f ScriptFunc
	n := s.next
	if s.next < len(s.script) {
		f = s.script[s.next]
		s.next++
	} else {
		f = s.Fallback
	}
	total := len(s.script)
	s.mu.Unlock()
	if f == nil {
		return nil, fmt.Errorf("scripted call %s: all %d answers given: %w", labelOf(req), total, ErrScriptExhausted)
	}
	r, err := f(req)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, fmt.Errorf("scripted call %s: answer %d is nil", labelOf(req), n+1)
	}
	return r, nil
}

// Requests returns copies of the requests received so far, in order.
func (s *Scripted) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.requests))
	for i, r := range s.requests {
		out[i] = copyRequest(r)
	}
	return out
}

// Remaining returns how many scripted answers have not been given yet.
func (s *Scripted) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.script) - s.next
}

// labelOf names a request in an error: its Label, or "(unlabelled)".
func labelOf(req Request) string {
	if req.Label == "" {
		return "(unlabelled)"
	}
	return fmt.Sprintf("%q", req.Label)
}

// copyReply returns a copy of r that shares no slices with it.
func copyReply(r *Reply) *Reply {
	c := *r
	c.ToolCalls = append([]ToolCall(nil), r.ToolCalls...)
	if len(c.ToolCalls) == 0 {
		c.ToolCalls = nil
	}
	c.Retries = append([]Attempt(nil), r.Retries...)
	if len(c.Retries) == 0 {
		c.Retries = nil
	}
	return &c
}

// copyRequest returns a copy of r that shares no slices or pointers with
// it (tool parameter schemas are shared: they are read-only by contract).
func copyRequest(r Request) Request {
	c := r
	c.Messages = make([]Message, len(r.Messages))
	for i, m := range r.Messages {
		m.ToolCalls = append([]ToolCall(nil), m.ToolCalls...)
		if len(m.ToolCalls) == 0 {
			m.ToolCalls = nil
		}
		c.Messages[i] = m
	}
	if r.Messages == nil {
		c.Messages = nil
	}
	c.Tools = append([]ToolSpec(nil), r.Tools...)
	if len(c.Tools) == 0 {
		c.Tools = r.Tools
	}
	if r.Temperature != nil {
		t := *r.Temperature
		c.Temperature = &t
	}
	if r.Seed != nil {
		v := *r.Seed
		c.Seed = &v
	}
	return c
}
