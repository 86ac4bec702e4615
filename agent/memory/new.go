package memory

import (
	"errors"
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

// Kind is a strategy that [New] builds by name: the one list of them that
// experiment configs, the command line's flag help and completion, and
// the web page read.
type Kind struct {
	// Name is what a config or --memory gives; the strategy's Name().
	Name string
	// Doc says in a line what the strategy keeps.
	Doc string
	// New builds the strategy from opts, with opts.Budget already checked.
	New func(opts Options) (Strategy, error)
}

// Kinds returns the strategies New builds, in the order help lists them.
// A new strategy is its file and one entry here.
func Kinds() []Kind {
	return []Kind{
		{Name: "none", Doc: "nothing: each prompt holds only the current observation",
			New: func(Options) (Strategy, error) { return &None{}, nil }},
		{Name: "conversation", Doc: "every turn verbatim, within the budget",
			New: func(o Options) (Strategy, error) { return &Conversation{Budget: o.Budget}, nil }},
		{Name: "window", Doc: "the last Window turns verbatim",
			New: newWindow},
		{Name: "summary", Doc: "a model's running summary of the turns so far",
			New: newSummaryStrategy},
		{Name: "hybrid", Doc: "the last Window turns verbatim and a summary of the rest",
			New: newHybrid},
	}
}

// Names returns the names New accepts, as Kinds lists them.
func Names() []string {
	var names []string
	for _, k := range Kinds() {
		names = append(names, k.Name)
	}
	return names
}

// Lookup returns the strategy called name (in any case, spaces around it
// ignored), and whether there is one.
func Lookup(name string) (Kind, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for _, k := range Kinds() {
		if k.Name == name {
			return k, true
		}
	}
	return Kind{}, false
}

// New builds the strategy called name (one of [Names], in any case) from
// opts, as an experiment config names it.
func New(name string, opts Options) (Strategy, error) {
	if opts.Budget < 0 {
		return nil, fmt.Errorf("memory %s: negative budget %d", name, opts.Budget)
	}
	k, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("memory: unknown strategy %q (valid: %s)", name, strings.Join(Names(), ", "))
	}
	s, err := k.New(opts)
	if err != nil {
		return nil, fmt.Errorf("memory %s: %w", k.Name, err)
	}
	return s, nil
}

// checkWindow refuses a window and hybrid memory that keeps no turn.
func checkWindow(opts Options) error {
	if opts.Window < 1 {
		return fmt.Errorf("window must be at least 1, got %d", opts.Window)
	}
	return nil
}

// newWindow builds window.
func newWindow(opts Options) (Strategy, error) {
	if err := checkWindow(opts); err != nil {
		return nil, err
	}
	return &Window{N: opts.Window, Budget: opts.Budget}, nil
}

// newSummaryConfig is the Summary that summary and hybrid share.
func newSummaryConfig(opts Options) (*Summary, error) {
	if opts.SummaryClient == nil {
		return nil, errors.New("needs a SummaryClient to write summaries")
	}
	if opts.SummaryEvery < 0 || opts.SummaryMaxTokens < 0 {
		return nil, errors.New("negative summary every or max tokens")
	}
	return &Summary{
		Client:    opts.SummaryClient,
		Model:     opts.SummaryModel,
		Prompt:    opts.SummaryPrompt,
		MaxTokens: opts.SummaryMaxTokens,
		Every:     opts.SummaryEvery,
	}, nil
}

// newSummaryStrategy builds summary.
func newSummaryStrategy(opts Options) (Strategy, error) {
	s, err := newSummaryConfig(opts)
	if err != nil {
		return nil, err
	}
	s.Budget = opts.Budget
	return s, nil
}

// newHybrid builds hybrid.
func newHybrid(opts Options) (Strategy, error) {
	if err := checkWindow(opts); err != nil {
		return nil, err
	}
	s, err := newSummaryConfig(opts)
	if err != nil {
		return nil, err
	}
	return &Hybrid{N: opts.Window, Budget: opts.Budget, Summary: s}, nil
}
