package workbench

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/openai"
	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/repl"
)

// noModelHelp says how to give the session a model.
const noModelHelp = "set OPENAI_API_KEY, OPENAI_BASE_URL and GRUE_MODEL, or HF_TOKEN; or start grue with --base-url and --model"

// newEpisode starts the session's agent episode: who plays it (a model
// when one is configured and no baseline was asked for, else a baseline
// policy) and a line that says so for the banner.
func (b *bench) newEpisode() (*harness.Episode, string, error) {
	a := agent.New(agent.Defaults())
	player, err := b.choosePlayer(a)
	if err != nil {
		return nil, "", err
	}
	if a.Policy != nil {
		// A baseline asks valid_actions and get_map, which the default
		// four tools lack: it gets every game tool, as in grue agent and
		// grue exp.
		a.ToolNames = nil
	}
	name := b.opts.Game
	if name == "" {
		name = stories.DefaultName
	}
	ep, err := harness.NewEpisode(a, name, b.opts.Seed)
	if err != nil {
		return nil, "", fmt.Errorf("start the agent's episode: %w", err)
	}
	return ep, player, nil
}

// choosePlayer gives a its model or its policy, as Options say, and
// describes the choice.
func (b *bench) choosePlayer(a *agent.Agent) (string, error) {
	seed := b.opts.Seed
	switch p := strings.ToLower(b.opts.Policy); p {
	case harness.PolicyRandom, harness.PolicyExplorer, harness.PolicyWalkthrough:
		name := stories.DefaultName
		if b.game != nil {
			name = b.game.Name()
		}
		pol, err := agent.NewBaseline(p, seed, name)
		if err != nil {
			return "", fmt.Errorf("policy %s: %w", p, err)
		}
		a.Policy = pol
		b.policy = p
		return "policy: " + p, nil
	case "", harness.PolicyLLM:
	default:
		return "", fmt.Errorf("unknown policy %q (want %s)", b.opts.Policy, strings.Join(harness.PolicyNames(), ", "))
	}

	lc := llm.ConfigFromEnv()
	if b.opts.Model != "" {
		lc.Model = b.opts.Model
	}
	if b.opts.BaseURL != "" {
		lc.BaseURL = b.opts.BaseURL
	}
	// An endpoint or a model named means a model is meant: one that
	// cannot be used is an error, never a baseline in its place.
	const orBaseline = " (or start grue with --policy explorer for a baseline)"
	if lc.BaseURL != "" && lc.Model == "" {
		// A server that serves one model needs no GRUE_MODEL.
		checked, err := openai.CheckModel(context.Background(), lc)
		if errors.Is(err, openai.ErrNoModel) {
			return "", fmt.Errorf("policy llm: %w, or start grue with --model%s", err, orBaseline)
		}
		if err != nil {
			return "", fmt.Errorf("policy llm: %w%s", err, orBaseline)
		}
		lc = checked
	}
	switch {
	case lc.Configured():
		c, err := openai.New(lc)
		if err != nil {
			return "", fmt.Errorf("policy llm: the model cannot be used: %w", err)
		}
		a.LLM, a.Model = c, c.Model()
		b.policy, b.model, b.baseURL = harness.PolicyLLM, c.Model(), llm.RedactURL(lc.BaseURL)
		b.llm = c
		return "model: " + c.Model(), nil
	case lc.BaseURL != "":
		return "", fmt.Errorf("policy llm: no model named for %s: set GRUE_MODEL or start grue with --model%s", llm.RedactURL(lc.BaseURL), orBaseline)
	case lc.Model != "":
		return "", fmt.Errorf("policy llm: no endpoint for model %s: set OPENAI_API_KEY or OPENAI_BASE_URL, or start grue with --base-url%s", lc.Model, orBaseline)
	}
	why := "no model configured: " + noModelHelp
	if strings.ToLower(b.opts.Policy) == harness.PolicyLLM {
		return "", fmt.Errorf("policy llm: %s", why)
	}
	a.Policy = agent.NewExplorer(seed)
	b.policy = harness.PolicyExplorer
	return fmt.Sprintf("policy: explorer (%s)", why), nil
}

// episodeFor is the episode a magic acts on, or an error saying why there
// is none.
func (b *bench) episodeFor(s *repl.Session, magic string) (*harness.Episode, error) {
	e := b.current(s)
	if e == nil {
		return nil, fmt.Errorf(":%s: the session has no agent episode (ep)", magic)
	}
	return e, nil
}

// userPolicy is the policy through which :play plays a command the user
// typed as a step of the episode: the step is recorded like any other,
// with Policy "user".
type userPolicy struct{ command string }

func (p userPolicy) Name() string { return "user" }

func (p userPolicy) Next(context.Context, agent.View) (agent.Action, error) {
	return agent.Action{Thought: "played at the REPL with :play", Tool: agent.DefaultTool, Args: map[string]any{"action": p.command}}, nil
}

// playCommand plays command in e as one recorded step, through the
// episode's play_action tool, whoever usually decides.
func playCommand(ctx context.Context, e *harness.Episode, command string) (*agent.Step, error) {
	prev := e.Agent.Policy
	e.Agent.Policy = userPolicy{command}
	defer func() { e.Agent.Policy = prev }()
	return e.Step(ctx)
}
