package agent

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/memory"
)

// Counting what a step spent. A model server that reports no usage (some
// local servers, some streaming endpoints) would leave the token and cost
// limits blind, so a reply without usage is counted at an estimate
// (llm.EstimateMessages of what was sent and what came back), priced by
// the client when the client that answered is an llm.Pricer (OpenAI is,
// and so is a cache around it), and the step and the episode say how
// many of their tokens are estimates (EstimatedTokens): a Cost with
// estimated tokens is an estimate too.

// spend is what a part of a step cost: tokens, dollars, and how many of
// the tokens are estimates.
type spend struct {
	usage     llm.Usage
	cost      float64
	estimated int
}

func (s spend) add(t spend) spend {
	return spend{s.usage.Add(t.usage), s.cost + t.cost, s.estimated + t.estimated}
}

// hasUsage reports whether the server counted any tokens.
func hasUsage(u llm.Usage) bool {
	return u.PromptTokens != 0 || u.CompletionTokens != 0 || u.TotalTokens != 0
}

// replySpend is what reply cost: its usage and Cost, or an estimate of
// its tokens when the server sent no usage, priced by p, the client that
// answered, when it is not nil (a reply from the cache costs nothing, as
// it does with usage). prompt is the estimated prompt tokens (-1:
// estimate them from req).
func replySpend(p llm.Pricer, req *llm.Request, reply *llm.Reply, prompt int) spend {
	if reply == nil {
		return spend{}
	}
	s := spend{usage: reply.Usage, cost: reply.Cost}
	if hasUsage(reply.Usage) {
		return s
	}
	if prompt < 0 {
		prompt = estimatePrompt(req)
	}
	completion := llm.EstimateMessages([]llm.Message{reply.Message()})
	s.usage = llm.Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}
	s.estimated = prompt + completion
	if p != nil && !reply.Cached && s.cost == 0 {
		model := reply.Model
		if model == "" && req != nil {
			model = req.Model
		}
		s.cost = p.Price(model, s.usage)
	}
	return s
}

// pricer is the agent's LLM as an llm.Pricer, or nil when it prices
// nothing.
func (a *Agent) pricer() llm.Pricer {
	if a == nil {
		return nil
	}
	p, _ := a.LLM.(llm.Pricer)
	return p
}

// estimatePrompt estimates the tokens of a request: its messages and the
// specs of the tools it offers.
func estimatePrompt(req *llm.Request) int {
	if req == nil {
		return 0
	}
	n := llm.EstimateMessages(req.Messages)
	if len(req.Tools) > 0 {
		if b, err := json.Marshal(req.Tools); err == nil {
			n += llm.EstimateTokens(string(b))
		}
	}
	return n
}

// memoryCall is what the agent puts in the context of a call to its
// memory strategy: the agent asking, whose LLM a strategy built by New
// writes its summaries with (see agentClient), and the prompts of the
// summary calls answered without usage, to estimate them.
type memoryCall struct {
	agent *Agent

	mu      sync.Mutex
	prompts map[*llm.Reply]int // estimated prompt tokens, by reply
}

type memoryCallKey struct{}

func (m *memoryCall) note(r *llm.Reply, req *llm.Request) {
	if m == nil || r == nil || hasUsage(r.Usage) {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.prompts == nil {
		m.prompts = map[*llm.Reply]int{}
	}
	m.prompts[r] = estimatePrompt(req)
}

// spent is what the replies the strategy recorded in its ledger cost. A
// reply without usage that the agent's LLM gave is estimated from its
// request and priced by that LLM; one whose request the agent did not see
// (a strategy with a client of its own) is estimated from its text alone,
// and not priced: the agent does not know its client.
func (m *memoryCall) spent(replies []*llm.Reply) spend {
	m.mu.Lock()
	defer m.mu.Unlock()
	var s spend
	for _, r := range replies {
		prompt, seen := m.prompts[r]
		var p llm.Pricer
		if seen {
			p = m.agent.pricer()
		}
		s = s.add(replySpend(p, nil, r, prompt))
	}
	return s
}

// memoryContext returns the past as the memory strategy gives it, and what
// the strategy spent on it.
func (a *Agent) memoryContext(ctx context.Context) ([]llm.Message, spend, error) {
	var ledger memory.Ledger
	mc := &memoryCall{agent: a}
	ctx = context.WithValue(memory.WithLedger(ctx, &ledger), memoryCallKey{}, mc)
	past, err := a.Memory.Context(ctx, a.turns)
	return past, mc.spent(ledger.Take()), err
}
