package agent

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/memory"
	"github.com/grue-lab/grue/game/mcp"
)

// The protocols an agent speaks with its model.
const (
	// ProtocolText: the model answers THOUGHT/TOOL/ARGS in plain text,
	// and the agent parses it.
	ProtocolText = "text"
	// ProtocolNative sends the tools' specs with the request and reads
	// the model's native tool calls.
	ProtocolNative = "native"
)

// DefaultMaxSteps bounds a Run when neither its maxSteps nor
// Limits.MaxSteps says otherwise.
const DefaultMaxSteps = 100

// DefaultTools returns the game tools [Defaults] gives an agent: the four
// the earlier Python agent used.
func DefaultTools() []string {
	return []string{mcp.ToolPlayAction, mcp.ToolMemory, mcp.ToolGetMap, mcp.ToolInventory}
}

// Config is an agent's settings as plain data, as an experiment config
// holds them. [New] builds an [Agent] from one; every setting becomes a field
// of the Agent that a script may change afterwards.
type Config struct {
	// Model names the model; empty uses the client's.
	Model string `json:"model,omitempty"`
	// Temperature and Seed are sent when set.
	Temperature *float64 `json:"temperature,omitempty"`
	Seed        *int     `json:"seed,omitempty"`
	// MaxTokens caps each reply; 0 leaves it to the server. A model that
	// reasons gets the client's reasoning allowance on top
	// (llm.Config.ReasoningTokens).
	MaxTokens int `json:"max_tokens,omitempty"`
	// ReasoningEffort is sent as reasoning_effort when set (minimal, low,
	// medium, high; what the model takes).
	ReasoningEffort string `json:"reasoning_effort,omitempty"`
	// ExtraBody holds request body fields sent verbatim with every
	// request: Ollama's {"options": {"num_ctx": 32768}}, vLLM's
	// chat_template_kwargs, a router's provider preferences.
	ExtraBody map[string]any `json:"extra_body,omitempty"`
	// System is the system prompt: how to play. The protocol's format and
	// the list of tools are added by the prompt builder.
	System string `json:"system,omitempty"`
	// Protocol is "text" (THOUGHT/TOOL/ARGS) or "native" (tool calls).
	Protocol string `json:"protocol,omitempty"`
	// Tools are the game tools Connect gives the agent (those the server
	// has); empty means all of the server's tools.
	Tools []string `json:"tools,omitempty"`
	// Memory names the memory strategy (one of [memory.Kinds]; none when
	// empty), Window how many turns window and
	// hybrid keep verbatim, MemoryBudget the tokens memory may use (0: no
	// limit), SummaryModel the model that writes summaries (the agent's
	// when empty).
	Memory       string `json:"memory,omitempty"`
	Window       int    `json:"window,omitempty"`
	MemoryBudget int    `json:"memory_budget,omitempty"`
	SummaryModel string `json:"summary_model,omitempty"`
	// VerbRepair replaces verbs games do not know (DefaultVerbs).
	VerbRepair bool `json:"verb_repair"`
	// LoopLimit is how many times in a row the same command may be played
	// before the agent plays look instead (0 turns loop detection off).
	LoopLimit int `json:"loop_limit"`
	// Limits end an episode.
	Limits Limits `json:"limits"`
}

// Limits end a Run cleanly: a limit is checked before each step, so the
// step that crosses a token or cost limit is finished, and the next one is
// not begun. Zero means no limit.
type Limits struct {
	// MaxSteps bounds the episode's steps (History), across Runs.
	MaxSteps int `json:"max_steps,omitempty"`
	// MaxTokens bounds the episode's tokens: replies and summaries, as
	// the server counted them, or estimated when it sent no usage
	// (Step.EstimatedTokens).
	MaxTokens int `json:"max_tokens,omitempty"`
	// MaxCost bounds the episode's cost in US dollars: as the client
	// prices the usage the server reports, or, for a reply without usage,
	// the agent's estimate priced by the client when it is an llm.Pricer.
	MaxCost float64 `json:"max_cost,omitempty"`
	// MaxWall bounds each Run's wall time; a step it interrupts is not
	// recorded.
	MaxWall time.Duration `json:"max_wall,omitempty"`
}

// Defaults returns the default agent's settings: the text protocol, the
// four [DefaultTools], the last 10 turns kept verbatim (window memory:
// cheap, and with no summary model to pay for), verb repair and loop
// detection on, temperature 0, replies up to 400 tokens, and at most
// [DefaultMaxSteps] steps.
func Defaults() Config {
	t := 0.0
	return Config{
		Temperature: &t,
		MaxTokens:   400,
		System:      DefaultSystem,
		Protocol:    ProtocolText,
		Tools:       DefaultTools(),
		Memory:      "window",
		Window:      10,
		VerbRepair:  true,
		LoopLimit:   3,
		Limits:      Limits{MaxSteps: DefaultMaxSteps},
	}
}

// DefaultSystem is [Defaults]' system prompt. The
// answer format and the tools are not in it: the prompt builder adds them
// for the protocol in use.
const DefaultSystem = `You are an expert player of classic text adventure games such as Zork. Your goal is to explore the world, solve its puzzles, collect treasures and raise your score as high as it goes, without dying.

You act only through tools, one tool call per turn. play_action sends one command to the game; the other tools show your state, your map and your inventory without spending a move.

GAME COMMANDS (for play_action), in the words these games understand:
- Movement: north, south, east, west, northeast, northwest, southeast, southwest, up, down, enter, exit (or n, s, e, w, ne, nw, se, sw, u, d)
- Objects: take <item>, drop <item>, open <thing>, close <thing>, examine <thing>, read <thing>, put <item> in <container>, unlock <door> with <key>
- Light: turn on <lamp>, turn off <lamp>
- People: ask <person> about <topic>, give <item> to <person>, attack <enemy> with <weapon>
- Other: look, inventory, wait
Verbs such as check, inspect, grab or use are rarely understood: say examine, take, or exactly what you do.

STRATEGY:
- Read each reply closely: it names exits, objects and dangers.
- Examine what is mentioned, open containers, read what has writing on it, and take what may be useful.
- Explore every exit; use get_map to see where you have been and what is left.
- If a command fails, try other words or another idea; never repeat the same command over and over.
- Carry a light into dark places.`

// Validate checks what New would refuse: an unknown protocol or memory
// strategy, a window or loop limit out of range.
func (c Config) Validate() error {
	switch strings.ToLower(strings.TrimSpace(c.Protocol)) {
	case "", ProtocolText, ProtocolNative:
	default:
		return fmt.Errorf("agent config: unknown protocol %q (valid: %s, %s)", c.Protocol, ProtocolText, ProtocolNative)
	}
	if c.LoopLimit < 0 {
		return fmt.Errorf("agent config: negative loop_limit %d", c.LoopLimit)
	}
	_, err := c.memory(agentClient{})
	return err
}

// memory builds the config's memory strategy; summaries go to client.
func (c Config) memory(client llm.Client) (memory.Strategy, error) {
	name := c.Memory
	if name == "" {
		name = "none"
	}
	m, err := memory.New(name, memory.Options{
		Window:        c.Window,
		Budget:        c.MemoryBudget,
		SummaryClient: client,
		SummaryModel:  c.SummaryModel,
	})
	if err != nil {
		return nil, fmt.Errorf("agent config: %w", err)
	}
	return m, nil
}

// New returns an agent with cfg's settings. The caller gives it an LLM
// (or a Policy) and tools (Connect, or Tools set by hand). A config that
// Validate refuses gives an agent whose Start, Step and Run return that
// error, so that New fits in a one-liner: agent.New(agent.Defaults()).
func New(cfg Config) *Agent {
	a := &Agent{
		Model:     cfg.Model,
		MaxTokens: cfg.MaxTokens,

		ReasoningEffort: cfg.ReasoningEffort,
		ExtraBody:       maps.Clone(cfg.ExtraBody),
		System:          cfg.System,
		Protocol:        strings.ToLower(strings.TrimSpace(cfg.Protocol)),
		Builder:         DefaultPrompt{},
		ToolNames:       append([]string(nil), cfg.Tools...),
		LoopLimit:       cfg.LoopLimit,
		Limits:          cfg.Limits,
	}
	if a.Protocol == "" {
		a.Protocol = ProtocolText
	}
	if cfg.Temperature != nil {
		t := *cfg.Temperature
		a.Temperature = &t
	}
	if cfg.Seed != nil {
		s := *cfg.Seed
		a.Seed = &s
	}
	if cfg.VerbRepair {
		a.Verbs = maps.Clone(DefaultVerbs)
	}
	if err := cfg.Validate(); err != nil {
		a.err = err
		return a
	}
	a.Memory, a.err = cfg.memory(agentClient{a})
	return a
}

// agentClient lets a memory strategy built from a Config write its
// summaries with the LLM of the agent that asks for them, as it is when
// the call is made: an agent's own while it builds its prompt (so a clone,
// which shares the strategy, summarises with the clone's LLM), and the
// agent New built otherwise (a script calling the strategy itself).
type agentClient struct{ a *Agent }

func (c agentClient) Complete(ctx context.Context, req llm.Request) (*llm.Reply, error) {
	a := c.a
	mc, _ := ctx.Value(memoryCallKey{}).(*memoryCall)
	if mc != nil && mc.agent != nil {
		a = mc.agent
	}
	if a == nil || a.LLM == nil {
		return nil, fmt.Errorf("memory summary: the agent has no LLM")
	}
	r, err := a.LLM.Complete(ctx, req)
	if err == nil {
		mc.note(r, &req)
	}
	return r, err
}
