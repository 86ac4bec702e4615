package memory

import (
	"context"
	"sync"

	"github.com/grue-lab/grue/agent/llm"
)

// Spent is what a strategy's own model calls have cost so far.
type Spent struct {
	Calls int       `json:"calls"`
	Usage llm.Usage `json:"usage"`
	// Cost is in US dollars, as the client priced the replies.
	Cost float64 `json:"cost"`
}

// add counts one reply.
func (s *Spent) add(r *llm.Reply) {
	s.Calls++
	s.Usage = s.Usage.Add(r.Usage)
	s.Cost += r.Cost
}

// A Ledger collects the replies of the model calls that strategies make
// while they work for one caller. An agent puts one in the context it
// passes to Strategy.Context and takes the replies after, to add their
// tokens and cost to the step and the episode:
//
//	var l memory.Ledger
//	msgs, err := strategy.Context(memory.WithLedger(ctx, &l), turns)
//	for _, r := range l.Take() { ... r.Usage, r.Cost ... }
//
// The calls land in the ledger of the caller that made them: when an
// episode and its fork share a strategy, a summary made for one and reused
// by the other is paid once, by the first. A Ledger is safe for concurrent
// use; its zero value is ready.
type Ledger struct {
	mu      sync.Mutex
	replies []*llm.Reply
}

// Add records a reply. Add on a nil Ledger does nothing.
func (l *Ledger) Add(r *llm.Reply) {
	if l == nil || r == nil {
		return
	}
	l.mu.Lock()
	l.replies = append(l.replies, r)
	l.mu.Unlock()
}

// Take returns the replies recorded since the last Take, oldest first, and
// forgets them.
func (l *Ledger) Take() []*llm.Reply {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.replies
	l.replies = nil
	return r
}

type ledgerKey struct{}

// WithLedger returns ctx carrying l: the model calls strategies make with
// the returned context are recorded in l.
func WithLedger(ctx context.Context, l *Ledger) context.Context {
	return context.WithValue(ctx, ledgerKey{}, l)
}

// LedgerFrom returns the Ledger ctx carries, or nil. A strategy written in
// a script that calls a model records its replies with
// memory.LedgerFrom(ctx).Add(reply).
func LedgerFrom(ctx context.Context) *Ledger {
	l, _ := ctx.Value(ledgerKey{}).(*Ledger)
	return l
}
