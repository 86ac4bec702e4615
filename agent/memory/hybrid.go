package memory

import (
	"context"
	"errors"

	"github.com/grue-lab/grue/agent/llm"
)

// Hybrid keeps the last N turns verbatim and a running summary of the
// older ones, the mix that docs/design.md's experiments compare with the
// others. The summary is Summary's: its model, prompt, cache and spending;
// Hybrid's N and Budget stand in for the Summary's Keep and Budget, which
// it ignores.
type Hybrid struct {
	N       int      `json:"n"`
	Budget  int      `json:"budget,omitempty"`
	Summary *Summary `json:"summary"`
}

// NewHybrid returns a Hybrid that keeps n turns verbatim and summarises
// the rest with model through c.
func NewHybrid(n int, c llm.Client, model string) *Hybrid {
	return &Hybrid{N: n, Summary: NewSummary(c, model)}
}

// Name returns "hybrid".
func (Hybrid) Name() string { return "hybrid" }

// Context returns the summary of all but the last N turns (fewer when the
// Summary's Every > 1), then those turns verbatim, within Budget.
func (h Hybrid) Context(ctx context.Context, turns []Turn) ([]llm.Message, error) {
	if h.Summary == nil {
		return nil, errors.New("memory hybrid: no Summary")
	}
	return h.Summary.context(ctx, turns, h.N, h.Budget)
}

// Spent returns what the summary calls made so far have cost.
func (h Hybrid) Spent() Spent {
	if h.Summary == nil {
		return Spent{}
	}
	return h.Summary.Spent()
}
