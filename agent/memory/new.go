package memory

import (
	"fmt"
	"strings"

	"github.com/grue-lab/grue/agent/llm"
)

// Options configure the strategy New builds; each strategy uses the ones
// that apply to it.
type Options struct {
	// Window is how many latest turns window and hybrid keep verbatim.
	Window int `json:"window,omitempty"`
	// Budget caps the tokens of the memory's messages; 0: no limit.
	Budget int `json:"budget,omitempty"`
	// SummaryClient writes the summaries of summary and hybrid.
	SummaryClient llm.Client `json:"-"`
	// SummaryModel overrides the client's model for summaries.
	SummaryModel string `json:"summary_model,omitempty"`
	// SummaryPrompt replaces DefaultSummaryPrompt.
	SummaryPrompt string `json:"summary_prompt,omitempty"`
	// SummaryMaxTokens replaces DefaultSummaryMaxTokens.
	SummaryMaxTokens int `json:"summary_max_tokens,omitempty"`
	// SummaryEvery is how many turns each summary update covers (1 when 0).
	SummaryEvery int `json:"summary_every,omitempty"`
}

// names are the strategies New builds.
var names = []string{"none", "conversation", "window", "summary", "hybrid"}

// Names returns the names New accepts.
func Names() []string { return append([]string(nil), names...) }

// New builds the strategy called name (none, conversation, window, summary
// or hybrid, in any case) from opts, as an experiment config names it.
func New(name string, opts Options) (Strategy, error) {
	if opts.Budget < 0 {
		return nil, fmt.Errorf("memory %s: negative budget %d", name, opts.Budget)
	}
	summary := func() (*Summary, error) {
		if opts.SummaryClient == nil {
			return nil, fmt.Errorf("memory %s: needs a SummaryClient to write summaries", name)
		}
		if opts.SummaryEvery < 0 || opts.SummaryMaxTokens < 0 {
			return nil, fmt.Errorf("memory %s: negative summary every or max tokens", name)
		}
		return &Summary{
			Client:    opts.SummaryClient,
			Model:     opts.SummaryModel,
			Prompt:    opts.SummaryPrompt,
			MaxTokens: opts.SummaryMaxTokens,
			Every:     opts.SummaryEvery,
		}, nil
	}
	window := func() error {
		if opts.Window < 1 {
			return fmt.Errorf("memory %s: window must be at least 1, got %d", name, opts.Window)
		}
		return nil
	}
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "none":
		return &None{}, nil
	case "conversation":
		return &Conversation{Budget: opts.Budget}, nil
	case "window":
		if err := window(); err != nil {
			return nil, err
		}
		return &Window{N: opts.Window, Budget: opts.Budget}, nil
	case "summary":
		s, err := summary()
		if err != nil {
			return nil, err
		}
		s.Budget = opts.Budget
		return s, nil
	case "hybrid":
		if err := window(); err != nil {
			return nil, err
		}
		s, err := summary()
		if err != nil {
			return nil, err
		}
		return &Hybrid{N: opts.Window, Budget: opts.Budget, Summary: s}, nil
	}
	return nil, fmt.Errorf("memory: unknown strategy %q (valid: %s)", name, strings.Join(names, ", "))
}
