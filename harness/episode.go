package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/tools"
	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/game/mcp"
)

// Episode is one [agent.Agent] playing one [game.Game] from one seed: the
// unit an experiment ([Run]) runs many of, and what a REPL session steps
// through by hand. The agent plays through an in-process MCP game server
// of its own ([mcp.NewInProcessClient]), so an
// episode is as fast as a direct call and plays exactly as an agent on a
// remote server would.
//
//	ep, err := harness.NewEpisode(agent.New(agent.Defaults()), "zork1", 12)
//	ep.Step(ctx)            // one ReAct step
//	ep.Prompt(ctx)          // what the model sees next
//	alt, err := ep.Fork()   // the same game state and history, to try another idea
//	alt.Run(ctx, 20)
//	rec := ep.Record()      // the EpisodeRecord an experiment would keep
//
// [Episode.Record] gives the [EpisodeRecord] that results.jsonl holds.
type Episode struct {
	// Variant names the agent's settings in an experiment ("" outside one).
	Variant string
	// Game is the game's name or story path, as given; Seed the game's
	// seed (the VM's random numbers); LLMSeed the seed sent to the model.
	Game    string
	Seed    int64
	LLMSeed int64
	// Agent is the agent, its settings and its trajectory (Agent.History).
	Agent *agent.Agent
	// Client is the agent's connection to the game server.
	Client *mcp.Client

	// Started is when the episode was made; Attempts how many times an
	// experiment started it (1 unless it errored and was retried).
	Started  time.Time
	Attempts int
	// Version is grue's version, stored in the record (Record); ""
	// stores DefaultVersion. An experiment sets it from
	// RunOptions.Version; a fork keeps it.
	Version string

	elapsed time.Duration    // time spent in Step and Run
	last    *agent.RunResult // the last Run's result
	err     string           // why the episode failed, if it did
	forks   int              // how many forks were made of it (Fork)
	// restarting is set by RunRestarting, which counts the games it
	// restarted (restarts), won and lost.
	restarting             bool
	restarts, wins, losses int
	closed                 bool
	// detections holds what probing found in the story, shared with the
	// episode's forks (and, in an experiment, with its other episodes),
	// so that a story is probed once, not per game opened.
	detections *game.DetectionCache
	// describe, when set (StartEpisode), fills in the record what the
	// experiment's clients know: the variant's endpoint and price source.
	describe func(*EpisodeRecord)
}

// NewEpisode starts game gameName (a name grue knows or a story path) from
// seed on a new in-process MCP server and connects a to it (see
// agent.Agent.Connect). The episode owns the server: Close it when done.
func NewEpisode(a *agent.Agent, gameName string, seed int64) (*Episode, error) {
	return newEpisode(context.Background(), a, gameName, seed, "", nil)
}

// newEpisode is NewEpisode with the episode's grue version and the cache
// of probes' findings it shares with other episodes (nil: one of its own).
func newEpisode(ctx context.Context, a *agent.Agent, gameName string, seed int64, version string, det *game.DetectionCache) (*Episode, error) {
	if a == nil {
		return nil, errors.New("new episode: no agent")
	}
	if det == nil {
		det = game.NewDetectionCache()
	}
	c, err := newGameClient(gameName, seed, version, det)
	if err != nil {
		return nil, fmt.Errorf("new episode: %w", err)
	}
	if err := a.Connect(ctx, c); err != nil {
		c.Close()
		return nil, fmt.Errorf("new episode on %s (seed %d): %w", gameName, seed, err)
	}
	e := &Episode{Game: gameName, Seed: seed, Agent: a, Client: c, Started: time.Now(), Attempts: 1, Version: version, detections: det}
	if a.Seed != nil {
		e.LLMSeed = int64(*a.Seed)
	}
	return e, nil
}

// newGameClient opens gameName once, so that a bad name or file is
// reported plainly, and starts an in-process server playing it, which
// reports grue's version as version.
func newGameClient(gameName string, seed int64, version string, det *game.DetectionCache) (*mcp.Client, error) {
	if _, err := game.Open(gameName, game.Seed(seed), game.WithDetectionCache(det)); err != nil {
		return nil, err
	}
	return mcp.NewInProcessClient(mcp.WithGame(gameName), mcp.WithSeed(seed), mcp.WithVersion(versionOr(version)), mcp.WithDetectionCache(det))
}

// Step plays one step (see agent.Agent.Step).
func (e *Episode) Step(ctx context.Context) (*agent.Step, error) {
	if e.closed {
		return nil, errors.New("episode: closed")
	}
	t := time.Now()
	s, err := e.Agent.Step(ctx)
	e.elapsed += time.Since(t)
	if s != nil && s.Error != "" && ctx.Err() == nil {
		e.err = s.Error
	}
	return s, err
}

// Run plays up to n steps (see agent.Agent.Run): until the game ends, a
// limit is reached or a step fails, which the result's Error tells.
func (e *Episode) Run(ctx context.Context, n int) (*agent.RunResult, error) {
	if e.closed {
		return nil, errors.New("episode: closed")
	}
	t := time.Now()
	r, err := e.Agent.Run(ctx, n)
	e.elapsed += time.Since(t)
	e.last = r
	if r != nil && r.Error != "" && ctx.Err() == nil {
		e.err = r.Error
	}
	return r, err
}

// Prompt returns exactly the messages the model will be sent next.
func (e *Episode) Prompt(ctx context.Context) ([]llm.Message, error) {
	return e.Agent.Prompt(ctx)
}

// Result returns the episode so far as a RunResult: the last Run's, with
// the steps played since, or the agent's own when no Run was made.
func (e *Episode) Result() *agent.RunResult {
	r := e.Agent.Result()
	if e.last != nil {
		r.StoppedBy = e.last.StoppedBy
	}
	r.Duration = e.elapsed
	r.Error = e.err
	return r
}

// Err returns why the episode failed ("" when it did not): the error of
// the step that ended it.
func (e *Episode) Err() string { return e.err }

// Fork returns a copy of the episode to play differently: a new
// in-process game started from the same seed, brought to the same state by
// replaying the history's game-changing tool calls (the Z-machine is
// deterministic, so the same commands from the same seed give the same
// game), and a clone of the agent (agent.Agent.Clone) with the same
// history, observation and score, and tools bound to the new game. The two
// then play independently, each on its own game.
//
// What the clone shares and what it does not is agent.Agent.Clone's
// rule: a policy that can clone itself (a Clone() agent.Policy method, as
// the baselines have) is cloned, so a walkthrough goes on from the same
// command and a random policy draws the same numbers in both; any other
// policy is shared. The LLM and the memory strategy are shared too: a
// memory strategy built by memory.New writes the fork's summaries with the
// fork's own LLM (set f.Agent.LLM to try another model), and may reuse a
// summary it wrote for the other episode. OnStep is not carried over: the
// fork reports no steps until its own hook is set (f.Agent.OnStep = ...).
//
// The fork's Variant labels it: the n-th fork of an episode is "forkN",
// or "V/forkN" when the episode's Variant is V, so that its record and a
// table of both tell them apart.
func (e *Episode) Fork() (*Episode, error) {
	if e.closed {
		return nil, errors.New("fork: the episode is closed")
	}
	ctx := context.Background()
	c, err := newGameClient(e.Game, e.Seed, e.Version, e.detections)
	if err != nil {
		return nil, fmt.Errorf("fork: %w", err)
	}
	for _, s := range e.Agent.History {
		if s.Error != "" || !mcp.ChangesGame(s.Tool) {
			continue
		}
		if _, err := c.CallTool(ctx, s.Tool, s.Args); err != nil {
			c.Close()
			return nil, fmt.Errorf("fork: replaying step %d (%s): %w", s.Step, s.Tool, err)
		}
	}
	a := e.Agent.Clone()
	var names []string
	if e.Agent.Tools != nil {
		have, err := c.Tools(ctx)
		if err != nil {
			c.Close()
			return nil, fmt.Errorf("fork: %w", err)
		}
		for _, n := range e.Agent.Tools.Names() {
			if slices.Contains(have, n) {
				names = append(names, n)
			}
		}
	}
	a.Tools, err = tools.NewGameRegistry(ctx, c, names...)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("fork: %w", err)
	}
	e.forks++
	f := *e
	f.Agent, f.Client, f.closed, f.forks = a, c, false, 0
	f.Variant = forkLabel(e.Variant, e.forks)
	if e.last != nil {
		last := *e.last
		f.last = &last
	}
	return &f, nil
}

// forkLabel is the Variant of the n-th fork of an episode whose Variant is
// parent: "fork1", or "walk/fork1" of an episode of variant walk, so that
// a table of an episode and its forks tells them apart.
func forkLabel(parent string, n int) string {
	if parent == "" {
		return "fork" + strconv.Itoa(n)
	}
	return parent + "/fork" + strconv.Itoa(n)
}

// Close shuts the episode's game server down.
func (e *Episode) Close() error {
	if e.closed {
		return nil
	}
	e.closed = true
	if e.Client != nil {
		return e.Client.Close()
	}
	return nil
}

// Record returns the episode as an EpisodeRecord (see InvalidAction for
// what counts as invalid). The config hash and trajectory path are left
// for the experiment to fill in.
func (e *Episode) Record() EpisodeRecord {
	a := e.Agent
	r := EpisodeRecord{
		Variant:          e.Variant,
		Game:             e.Game,
		Seed:             e.Seed,
		LLMSeed:          e.LLMSeed,
		FinalScore:       a.Score,
		MaxScore:         a.MaxScore,
		Moves:            a.Moves,
		Steps:            len(a.History),
		GameCompleted:    a.Done,
		Victory:          a.Victory,
		LocationsVisited: len(a.Locations),
		Locations:        slices.Clone(a.Locations),
		FirstPointStep:   -1,
		Tokens:           a.Usage,
		EstimatedTokens:  a.EstimatedTokens,
		Cost:             a.Cost,
		DurationMS:       e.elapsed.Milliseconds(),
		Error:            e.err,
		Attempts:         max(e.Attempts, 1),
		Started:          stamp(e.Started),
		Finished:         stamp(e.Started.Add(e.elapsed)),
		GrueVersion:      versionOr(e.Version),
	}
	if a.Policy == nil {
		r.Model, r.Policy = a.Model, PolicyLLM
		r.BaseURL, r.PriceSource = EndpointOf(a.LLM), PriceSourceOf(a.LLM, a.Model)
	} else {
		r.Policy, r.PriceSource = a.Policy.Name(), PriceNone
	}
	r.GrueRevision = BuildRevision()
	if e.describe != nil {
		e.describe(&r)
	}
	score := 0
	for i, s := range a.History {
		if s.Error == "" {
			if s.Score > score && r.FirstPointStep < 0 {
				r.FirstPointStep = s.Step
			}
			score = s.Score
		}
		if InvalidAction(&a.History[i]) {
			r.InvalidActions++
		}
		r.ScoreByStep = append(r.ScoreByStep, score)
	}
	if e.restarting {
		r.Restarts, r.Wins, r.Losses, r.HighScore = e.restarts, e.wins, e.losses, e.highScore()
	}
	return r
}

// ParserFailures are the replies with which the games grue plays refuse a
// command they did not understand: Infocom's parser and Inform's library.
// A play_action whose reply contains one (case aside) is an invalid
// action. Replies that understood the command but refused it ("You can't
// go that way.", "You can't see any such thing.") are not: the command
// was valid English for the game, only wrong for the moment.
var ParserFailures = []string{
	// Infocom (Zork I-III)
	"I don't know the word",
	"That sentence isn't one I recognize",
	"I don't understand that sentence",
	"There was no verb in that sentence",
	"You used the word",
	"I beg your pardon?",
	"I couldn't find a verb in that sentence",
	// Inform 6 library
	"That's not a verb I recognise",
	"I didn't understand that sentence",
	"I only understood you as far as",
	"You seem to have said too much",
	"I didn't understand the way that finished",
	"That's not something you need to refer to",
}

// InvalidAction reports whether step s was an invalid action: a tool call
// that the tool refused (ToolError: an unknown tool, an empty action, a
// game that is over), or a play_action whose reply is the game's parser
// failing to understand the command (see ParserFailures). A step that
// failed for want of a model or a server (Error) is not an action at all,
// and not counted.
func InvalidAction(s *agent.Step) bool {
	if s.Error != "" {
		return false
	}
	if s.ToolError {
		return true
	}
	if s.Tool != agent.DefaultTool {
		return false
	}
	return isParserFailure(s.Observation)
}

func isParserFailure(obs string) bool {
	lower := strings.ToLower(obs)
	for _, p := range ParserFailures {
		if strings.Contains(lower, strings.ToLower(p)) {
			return true
		}
	}
	return false
}

// openGame opens a game of the config, its path taken from the config's
// folder when it is one.
func (c *Config) openGame(name string, seed int64) (*game.Game, error) {
	return game.Open(c.gamePath(name), game.Seed(seed))
}

// walkthrough returns the solution the catalog knows for game name.
func (c *Config) walkthrough(name string) (*agent.WalkthroughPolicy, error) {
	g, err := c.openGame(name, 1)
	if err != nil {
		return nil, err
	}
	e, ok := g.Entry()
	if !ok {
		return nil, fmt.Errorf("walkthrough policy: grue knows no walkthrough for %s (not in the catalog)", name)
	}
	cmds, err := e.Commands()
	if err != nil {
		return nil, fmt.Errorf("walkthrough policy: %w", err)
	}
	if len(cmds) == 0 {
		return nil, fmt.Errorf("walkthrough policy: grue knows no walkthrough for %s", name)
	}
	return agent.NewWalkthrough(cmds), nil
}

// gamePath is where game name is: a story path relative to the config's
// folder when there is a file there, else name itself (a game name, or a
// path from the working directory).
func (c *Config) gamePath(name string) string {
	if c.Dir == "" || filepath.IsAbs(name) {
		return name
	}
	p := filepath.Join(c.Dir, name)
	if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
		return p
	}
	return name
}
