package agent

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/memory"
	"github.com/grue-lab/grue/agent/tools"
	"github.com/grue-lab/grue/game/mcp"
)

// ErrDone is what a Policy returns (wrapped or not) when it has no more
// actions: Run then ends the episode cleanly, StoppedBy "policy".
var ErrDone = errors.New("agent: the policy has no more actions")

// ErrGameOver is what Step returns once the game has ended.
var ErrGameOver = errors.New("agent: the game is over")

// Agent is a ReAct agent and the episode it is playing. Its exported
// fields are its parts and settings, which a script may read and replace
// between steps, and the episode's state, which [Agent.Step] keeps up to
// date; [Agent.Run] steps until the game ends or a limit ([Limits]) is
// reached. [New] builds one from a [Config]; its model is an [llm.Client]
// and its memory a [memory.Strategy]. An Agent plays one step at a time: it is not safe for concurrent use.
type Agent struct {
	// LLM is the model. Policy, when set, chooses instead of it.
	LLM    llm.Client
	Policy Policy

	// Model, Temperature, Seed and MaxTokens go into every request.
	Model       string
	Temperature *float64
	Seed        *int
	MaxTokens   int
	// ReasoningEffort goes into every request as reasoning_effort when
	// set ("low", "medium", "high"...); ExtraBody's fields go into every
	// request body verbatim (llm.Request.Extra).
	ReasoningEffort string
	ExtraBody       map[string]any

	// System is the system prompt; Protocol is ProtocolText or
	// ProtocolNative; Builder makes the prompt (DefaultPrompt).
	System   string
	Protocol string
	Builder  PromptBuilder
	// Memory decides what of the past goes into the prompt; nil keeps
	// nothing.
	Memory memory.Strategy
	// Tools are the tools the agent may call; ToolNames the game tools
	// Connect takes from a server (all of them when empty).
	Tools     *tools.Registry
	ToolNames []string
	// Verbs is the verb repair table (DefaultVerbs); nil or empty turns
	// verb repair off.
	Verbs map[string]string
	// LoopLimit is how many times in a row one command may be played
	// before look is played instead; 0 turns loop detection off.
	LoopLimit int
	// Limits end a Run.
	Limits Limits
	// Label prefixes the label of each model request ("episode 3"), which
	// names the step in errors and cache misses.
	Label string

	// History is the trajectory: every step played, in order.
	History []Step
	// Observation is the text of the last tool result (at the start, the
	// game's opening text): what the model reads next.
	Observation string
	Score       int
	MaxScore    int
	Moves       int
	// MovesUnknown is true when the game server said it cannot know the
	// move count (a game without one): Moves is then 0 for want of a
	// number, and JSON says "moves": null.
	MovesUnknown bool
	// Location is the current room; Locations are the rooms visited, in
	// the order first seen: told apart by their object numbers where the
	// game server gives them (location_id), so that two rooms of one
	// name both count, else by name.
	Location  string
	Locations []string
	// Done is true once the game has ended; Victory once it was won.
	Done    bool
	Victory bool
	// Usage and Cost are the episode's totals so far. EstimatedTokens is
	// how many of Usage's tokens are the agent's estimates, for replies
	// that came without usage (see Step.EstimatedTokens).
	Usage           llm.Usage
	Cost            float64
	EstimatedTokens int
	// Warning goes into the next prompt, and is cleared by the step that
	// shows it. The agent sets it after a loop or an unreadable reply; a
	// script may set it too.
	Warning string

	// OnStep, when set, is called by Run with each step as soon as it is
	// recorded: the command line's -v and a REPL's live view use it.
	OnStep func(*Step) `json:"-"`

	err           error // from New: a config it could not build
	started       bool
	startLocation string
	opening       string // the observation before the first step
	turns         []memory.Turn
	visited       map[string]bool
}

// Connect gives the agent the game tools of the server c is connected to
// (ToolNames, or all; names the server lacks are left out, but it must
// have play_action) and reads the game's state, as Start does.
func (a *Agent) Connect(ctx context.Context, c *mcp.Client) error {
	if a.err != nil {
		return a.err
	}
	have, err := c.Tools(ctx)
	if err != nil {
		return fmt.Errorf("agent connect: %w", err)
	}
	var names []string
	for _, n := range a.ToolNames {
		if slices.Contains(have, n) {
			names = append(names, n)
		}
	}
	if len(a.ToolNames) == 0 {
		names = have
	}
	if !slices.Contains(names, DefaultTool) {
		return fmt.Errorf("agent connect: the server has no %s tool (it has: %s)", DefaultTool, strings.Join(have, ", "))
	}
	reg, err := tools.NewGameRegistry(ctx, c, names...)
	if err != nil {
		return fmt.Errorf("agent connect: %w", err)
	}
	a.Tools = reg
	return a.Start(ctx)
}

// Start reads the game's current state through the memory tool: the
// observation, score, moves and location (from its structured content, or
// its text from servers that send none). Without a memory tool the agent
// starts knowing nothing, and the model's first look tells it. Step calls
// Start before the first step; a script calls it again after changing the
// game behind the agent's back (a reset).
func (a *Agent) Start(ctx context.Context) error {
	if a.err != nil {
		return a.err
	}
	if a.Tools == nil {
		return errors.New("agent: no tools (call Connect, or set Tools)")
	}
	a.started = true
	if _, ok := a.Tools.Get(mcp.ToolMemory); !ok {
		return nil
	}
	res, err := a.Tools.Call(ctx, mcp.ToolMemory, nil)
	if err != nil {
		return fmt.Errorf("agent start: reading the game's state: %w", err)
	}
	if res.IsError {
		return fmt.Errorf("agent start: the memory tool failed: %s", clip(res.Text, 200))
	}
	st := readState(res)
	if st.hasObservation {
		a.Observation = st.observation
	} else {
		a.Observation = res.Text
	}
	a.update(st)
	if len(a.History) == 0 {
		a.startLocation = a.Location
		a.opening = a.Observation
	}
	return nil
}

func (a *Agent) ensureStarted(ctx context.Context) error {
	if a.err != nil {
		return a.err
	}
	if a.started {
		return nil
	}
	return a.Start(ctx)
}

// update takes what a result said about the game into the agent's state.
func (a *Agent) update(st gameState) {
	if st.hasScore {
		a.Score = st.score
	}
	if st.hasMaxScore && st.maxScore > 0 {
		a.MaxScore = st.maxScore
	}
	if st.hasMoves {
		a.Moves, a.MovesUnknown = st.moves, false
	} else if st.movesUnknown {
		a.Moves, a.MovesUnknown = 0, true
	}
	if st.hasLocation && st.location != "" {
		a.Location = st.location
		if a.visited == nil {
			a.visited = map[string]bool{}
			for _, l := range a.Locations {
				a.visited[l] = true
			}
		}
		// A room is known by its object number where the server gives
		// one (two rooms may share a name), else by its name.
		key := st.location
		if st.locationID > 0 {
			key = "\x00#" + strconv.Itoa(st.locationID)
		}
		if !a.visited[key] {
			a.visited[key] = true
			a.Locations = append(a.Locations, st.location)
		}
	}
	if st.hasDone {
		a.Done = st.done
	}
	if st.hasVictory {
		a.Victory = st.victory
	}
}

// View is what a policy sees now.
func (a *Agent) View() View {
	return View{
		Step:        len(a.History) + 1,
		Observation: a.Observation,
		Score:       a.Score,
		Tools:       a.Tools,
		MaxScore:    a.MaxScore,
		Moves:       a.Moves,
		Location:    a.Location,
	}
}

// Prompt returns exactly the messages the model will be sent next. It
// changes nothing in the episode, except that a memory summary it has
// written is paid for here (in Usage and Cost) and not again.
func (a *Agent) Prompt(ctx context.Context) ([]llm.Message, error) {
	if err := a.ensureStarted(ctx); err != nil {
		return nil, err
	}
	msgs, spent, _, err := a.prompt(ctx)
	a.Usage, a.Cost = a.Usage.Add(spent.usage), a.Cost+spent.cost
	a.EstimatedTokens += spent.estimated
	return msgs, err
}

// prompt builds the next prompt and says what the memory spent on it.
func (a *Agent) prompt(ctx context.Context) (msgs []llm.Message, spent spend, took time.Duration, err error) {
	var past []llm.Message
	if a.Memory != nil && len(a.turns) > 0 {
		t := time.Now()
		past, spent, err = a.memoryContext(ctx)
		took = time.Since(t)
		if err != nil {
			return nil, spent, took, fmt.Errorf("memory %s: %w", a.Memory.Name(), err)
		}
	}
	in := PromptInput{
		System:      a.System,
		Protocol:    a.protocol(),
		Context:     past,
		Step:        len(a.History) + 1,
		Observation: a.Observation,
		Score:       a.Score,
		MaxScore:    a.MaxScore,
		Moves:       a.Moves,
		Location:    a.Location,
		Warning:     a.Warning,
	}
	if a.Tools != nil {
		in.Tools = a.Tools.Specs()
	}
	return a.builder().Messages(in), spent, took, nil
}

func (a *Agent) builder() PromptBuilder {
	if a.Builder == nil {
		return DefaultPrompt{}
	}
	return a.Builder
}

func (a *Agent) protocol() string {
	if a.Protocol == ProtocolNative {
		return ProtocolNative
	}
	return ProtocolText
}

// request is the model request for msgs at step n.
func (a *Agent) request(msgs []llm.Message, n int) llm.Request {
	req := llm.Request{
		Model:       a.Model,
		Messages:    msgs,
		Temperature: a.Temperature,
		Seed:        a.Seed,
		MaxTokens:   a.MaxTokens,
		Label:       fmt.Sprintf("step %d", n),

		ReasoningEffort: a.ReasoningEffort,
		Extra:           maps.Clone(a.ExtraBody),
	}
	if a.Label != "" {
		req.Label = a.Label + ", " + req.Label
	}
	if a.protocol() == ProtocolNative && a.Tools != nil {
		req.Tools = a.Tools.Specs()
	}
	return req
}

// Step plays one step: it builds the prompt, asks the model (or the
// policy), parses and repairs the answer, calls the tool and takes in the
// result. It returns the step's record, which it also appends to History.
//
// A step that fails (the model could not be reached after the client's
// retries, the game server died) is recorded with its Error set and
// returned with the error. A step cut short by ctx is not recorded: the
// episode is as it was, save for what the model call cost.
func (a *Agent) Step(ctx context.Context) (*Step, error) {
	start := time.Now()
	if err := a.ensureStarted(ctx); err != nil {
		return nil, err
	}
	if a.Tools == nil {
		return nil, errors.New("agent: no tools (call Connect, or set Tools)")
	}
	if a.Done {
		return nil, ErrGameOver
	}
	s := &Step{Step: len(a.History) + 1}
	var d decision
	if a.Policy != nil {
		s.Policy = a.Policy.Name()
		t := time.Now()
		act, err := a.Policy.Next(ctx, a.View())
		s.LLMTime = time.Since(t)
		if err == nil && ctx.Err() != nil {
			// Cut short while the policy chose (a policy written in the
			// REPL answers nothing once its cell is interrupted): the
			// step is not played.
			return nil, ctx.Err()
		}
		if err != nil {
			if errors.Is(err, ErrDone) {
				return nil, err
			}
			return a.fail(ctx, s, start, fmt.Errorf("policy %s: %w", s.Policy, err))
		}
		d = decision{thought: act.Thought, tool: act.Tool, args: act.Args}
	} else {
		if a.LLM == nil {
			return nil, errors.New("agent: no LLM and no Policy")
		}
		s.Protocol = a.protocol()
		s.Warning = a.Warning
		msgs, spent, took, err := a.prompt(ctx)
		s.Usage, s.Cost, s.EstimatedTokens, s.MemoryTime = spent.usage, spent.cost, spent.estimated, took
		if err != nil {
			return a.fail(ctx, s, start, err)
		}
		s.Prompt = msgs
		req := a.request(msgs, s.Step)
		t := time.Now()
		reply, err := a.LLM.Complete(ctx, req)
		s.LLMTime = time.Since(t)
		if err != nil {
			return a.fail(ctx, s, start, fmt.Errorf("model: %w", err))
		}
		if reply == nil {
			return a.fail(ctx, s, start, errors.New("model: no reply"))
		}
		s.Reply = reply
		spent = spent.add(replySpend(a.pricer(), &req, reply, -1))
		s.Usage, s.Cost, s.EstimatedTokens = spent.usage, spent.cost, spent.estimated
		d = a.decide(reply, s.Step)
	}
	s.Thought, s.Tool, s.Args, s.CallID, s.Repairs = d.thought, d.tool, d.args, d.callID, d.repairs

	var res tools.Result
	if d.tool == "" {
		// No tool to call, and no play_action to fall back on.
		res = tools.Result{Text: d.warning, IsError: true}
	} else {
		t := time.Now()
		var err error
		res, err = a.Tools.Call(ctx, d.tool, d.args)
		s.ToolTime = time.Since(t)
		if err != nil {
			return a.fail(ctx, s, start, fmt.Errorf("tool %s: %w", d.tool, err))
		}
	}
	a.take(s, res)
	if s.Policy == "" {
		a.Warning = d.warning
	}
	a.account(s, start)
	a.History = append(a.History, *s)
	a.turns = append(a.turns, memory.Turn{
		Step:        s.Step,
		Thought:     s.Thought,
		Tool:        s.Tool,
		Args:        s.Args,
		Observation: s.Observation,
		Reward:      s.Reward,
		Score:       s.Score,
		Location:    s.Location,
		Messages:    a.builder().Turn(s),
	})
	return s, nil
}

// take reads a tool result into the step and the agent's state.
func (a *Agent) take(s *Step, res tools.Result) {
	st := readState(res)
	before := a.Score
	a.update(st)
	a.Observation = res.Text
	s.Observation, s.ToolError = res.Text, res.IsError
	switch {
	case st.hasReward:
		s.Reward = st.reward
	case st.hasScore:
		s.Reward = a.Score - before
	}
	s.Score, s.MaxScore, s.Moves, s.Location = a.Score, a.MaxScore, a.Moves, a.Location
	s.MovesUnknown = a.MovesUnknown
	s.Done, s.Victory = a.Done, a.Victory
}

// account closes a step's books: times, and the episode's totals.
func (a *Agent) account(s *Step, start time.Time) {
	s.Wall = time.Since(start)
	s.Overhead = max(0, s.Wall-s.LLMTime-s.ToolTime-s.MemoryTime)
	a.Usage, a.Cost = a.Usage.Add(s.Usage), a.Cost+s.Cost
	a.EstimatedTokens += s.EstimatedTokens
}

// fail ends a step with err: recorded in History unless ctx was cancelled.
func (a *Agent) fail(ctx context.Context, s *Step, start time.Time, err error) (*Step, error) {
	s.Error = err.Error()
	a.account(s, start)
	if ctx.Err() != nil {
		return s, err
	}
	a.History = append(a.History, *s)
	return s, err
}

// Clone returns a copy of the agent for a fork: the same settings, parts
// and history, with its own slices and maps, and no Tools (the caller
// gives it tools bound to the forked game). Steps in History share their
// prompts and arguments, which are read-only once recorded.
//
// A Policy with a Clone() Policy method (the baselines have one) is
// cloned, so that the fork and the original each go on as the original
// would have, without moving the other's state: a random policy draws the
// same numbers in both, an explorer keeps its map in each, a walkthrough
// its place. Any other policy is shared.
//
// The LLM, Memory and Builder are shared. A memory strategy built by New
// writes its summaries with the LLM of the agent whose step asks for them,
// so a clone given another LLM (c.LLM = other) summarises with that one; a
// strategy given a client of its own keeps it. A shared strategy may reuse
// for one agent a summary it wrote for the other (see memory.Ledger).
//
// OnStep is not copied: the fork starts with none. A hook speaks for the
// agent it was set on (it prints that episode's steps, or reads that
// agent's fields), and a fork's steps reported through it would be taken
// for the original's; set the fork's own (c.OnStep = ...) to follow it.
func (a *Agent) Clone() *Agent {
	c := *a
	c.Tools = nil
	c.OnStep = nil
	if p, ok := a.Policy.(interface{ Clone() Policy }); ok {
		c.Policy = p.Clone()
	}
	if a.Temperature != nil {
		t := *a.Temperature
		c.Temperature = &t
	}
	if a.Seed != nil {
		s := *a.Seed
		c.Seed = &s
	}
	c.ToolNames = slices.Clone(a.ToolNames)
	c.Verbs = maps.Clone(a.Verbs)
	c.ExtraBody = maps.Clone(a.ExtraBody)
	c.History = slices.Clone(a.History)
	c.Locations = slices.Clone(a.Locations)
	c.visited = maps.Clone(a.visited)
	c.turns = slices.Clone(a.turns)
	return &c
}
