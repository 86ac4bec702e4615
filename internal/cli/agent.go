package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/openai"
	"github.com/grue-lab/grue/agent/memory"
	"github.com/grue-lab/grue/game/mcp"
	"github.com/grue-lab/grue/game/mcp/mcphttp"
	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/atomicfile"
)

// The policies grue agent plays with.
const (
	PolicyLLM         = "llm"
	policyRandom      = agent.BaselineRandom
	policyWalkthrough = agent.BaselineWalkthrough
	policyExplorer    = agent.BaselineExplorer
	policyCommands    = agent.BaselineCommands
)

// agentFlags are grue agent's command line.
type agentFlags struct {
	ModelFlags
	game     string
	seed     int64
	steps    int
	policy   string
	commands string
	server   string
	json     bool
	verbose  bool
	out      string
	protocol string
	memory   string
	window   int

	maxCost      float64
	maxEpisodeTk int
	maxWall      time.Duration
}

// ModelFlags are the flags that choose the model and shape its requests,
// which grue agent and grue code share: --model, --base-url, the sampling
// flags, the response cache and the request shaping flags. AddFlags
// defines them; Client makes the model client they say.
type ModelFlags struct {
	Model           string
	BaseURL         string
	Temperature     float64
	LLMSeed         int
	MaxTokens       int
	Stream          bool
	CacheDir        string
	CacheMode       string
	Timeout         time.Duration
	Retries         int
	MaxReplyBytes   int64
	ReasoningEffort string
	ReasoningModel  string
	ExtraBody       string
	DropParams      []string
}

func newAgentCmd(stdout, stderr io.Writer) *cobra.Command {
	var f agentFlags
	cmd := &cobra.Command{
		Use:   "agent [flags]",
		Short: "Play one episode with the ReAct agent (or a baseline policy)",
		Long: `Play one episode with grue's ReAct agent and print its RunResult: final
score, max score, moves, locations visited, whether the game was completed,
steps and tokens. The agent plays through MCP: grue's own game server in
process (--game, --seed), or any MCP game server (--server, a stdio command
or an http(s) URL).

The model comes from --model and --base-url or the environment
(OPENAI_API_KEY, OPENAI_BASE_URL, GRUE_MODEL; HF_TOKEN alone selects the
Hugging Face router). An endpoint needs a model: --model or GRUE_MODEL, or
the one model its /models lists; an endpoint with no model that can be
determined is an error, not a baseline played in the model's place. Only
with no endpoint and no model configured at all, and without --policy, does
the frontier explorer play (and grue says so): the baselines random,
walkthrough, explorer and commands (--policy commands
--commands FILE replays a command file, one command a line) need no model.

--cache DIR records the model's replies; --cache-mode replay plays a
recorded run again exactly, with no model server at all.`,
		Args: NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAgent(cmd, f, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.game, "game", "", "the game to play (a name from grue games or a story file; default: "+stories.DefaultName+", or the server's)")
	fl.Int64Var(&f.seed, "seed", 1, "seed of the game's random numbers")
	fl.IntVar(&f.steps, "steps", agent.DefaultMaxSteps, "the most steps to play")
	fl.StringVar(&f.policy, "policy", "", "who decides: "+PolicyLLM+" or a baseline ("+strings.Join(agent.BaselineNames(), ", ")+"); default: llm when a model is configured, else explorer")
	fl.StringVar(&f.commands, "commands", "", "with --policy commands: the command file to replay, one command a line")
	fl.StringVar(&f.server, "server", "", "an MCP game server to play on: a command (run over stdio) or an http(s) URL")
	fl.BoolVar(&f.json, "json", false, "print the RunResult as JSON")
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "print every step: thought, tool call, repairs and result")
	fl.StringVar(&f.out, "trajectory", "", "write the whole RunResult, with every step's prompt and reply, to this JSON file")
	fl.StringVar(&f.protocol, "protocol", "", "how the model answers: text (THOUGHT/TOOL/ARGS) or native (tool calls)")
	fl.StringVar(&f.memory, "memory", "", "memory strategy: "+strings.Join(memory.Names(), ", "))
	fl.IntVar(&f.window, "window", 0, "turns the window and hybrid memories keep verbatim")

	f.ModelFlags.AddFlags(cmd, agent.Defaults().MaxTokens)

	CompleteWords(cmd, "policy", append([]string{PolicyLLM}, agent.BaselineNames()...)...)
	CompleteWords(cmd, "protocol", agent.ProtocolText, agent.ProtocolNative)
	CompleteWords(cmd, "memory", memory.Names()...)

	fl.Float64Var(&f.maxCost, "max-cost", 0, "end the episode once it has cost this many dollars (0: no limit)")
	fl.IntVar(&f.maxEpisodeTk, "max-episode-tokens", 0, "end the episode once it has used this many tokens (0: no limit)")
	fl.DurationVar(&f.maxWall, "max-time", 0, "end the episode after this much wall time (0: no limit)")
	return cmd
}

func runAgent(cmd *cobra.Command, f agentFlags, stdout, stderr io.Writer) error {
	if f.steps < 1 {
		return UsageError{fmt.Errorf("--steps must be at least 1, not %d", f.steps)}
	}
	tuneGC(false)
	ctx, stop := notifyContext(cmd.Context(), os.Interrupt)
	defer stop()

	cfg, err := agentConfig(cmd, f)
	if err != nil {
		return err
	}

	policy, client, note, err := agentPolicy(cmd, f)
	if err != nil {
		return err
	}
	gc, gameName, err := connectGame(ctx, f)
	if err != nil {
		return err
	}
	defer gc.Close()
	if note != "" && !f.json {
		fmt.Fprintln(stderr, note)
	}

	switch f.policy {
	case policyCommands:
		cmds, err := agent.ReadCommands(f.commands)
		if err != nil {
			return fmt.Errorf("--policy commands: %w", err)
		}
		policy = agent.NewCommands(cmds, f.commands)
	case policyRandom, policyExplorer, policyWalkthrough:
		// Made now that the game's name is known (the walkthrough is
		// the game's).
		if policy, err = agent.NewBaseline(f.policy, f.seed, gameName); err != nil {
			return fmt.Errorf("--policy %s: %w", f.policy, err)
		}
	}

	if client == nil {
		// A baseline asks valid_actions and get_map, which the four
		// default tools lack: it gets every game tool.
		cfg.Tools = nil
	}
	a := agent.New(cfg)
	if client != nil {
		a.LLM = client
		if m, ok := client.(llm.Endpoint); ok && cfg.Model == "" {
			a.Model = m.Model()
		}
	}
	a.Policy = policy
	if err := a.Connect(ctx, gc); err != nil {
		return err
	}
	if f.verbose {
		a.OnStep = func(s *agent.Step) { printStep(stdout, s) }
	}
	res, runErr := a.Run(ctx, f.steps)
	if res == nil {
		return runErr
	}
	head := whatRan(f, gameName, policy, a)
	if f.out != "" {
		if err := writeTrajectory(f.out, head, res); err != nil {
			return err
		}
	}
	if err := reportRun(stdout, f, head, res); err != nil {
		return err
	}
	if runErr != nil && !errors.Is(runErr, context.Canceled) {
		return runErr
	}
	if res.Error != "" {
		return fmt.Errorf("the episode ended early: %s", res.Error)
	}
	return nil
}

// agentConfig is the agent's settings: the defaults with the flags on top.
// A bad setting is a usage error.
func agentConfig(cmd *cobra.Command, f agentFlags) (agent.Config, error) {
	cfg := agent.Defaults()
	if f.protocol != "" {
		cfg.Protocol = f.protocol
	}
	if f.memory != "" {
		cfg.Memory = f.memory
	}
	if f.window > 0 {
		cfg.Window = f.window
	}
	cfg.Limits.MaxSteps = f.steps
	cfg.Limits.MaxCost = f.maxCost
	cfg.Limits.MaxTokens = f.maxEpisodeTk
	cfg.Limits.MaxWall = f.maxWall
	if cmd.Flags().Changed("temperature") || cfg.Temperature == nil {
		t := f.Temperature
		cfg.Temperature = &t
	}
	if cmd.Flags().Changed("llm-seed") || cfg.Seed == nil {
		s := f.LLMSeed
		cfg.Seed = &s
	}
	if f.MaxTokens > 0 {
		cfg.MaxTokens = f.MaxTokens
	}
	cfg.ReasoningEffort = f.ReasoningEffort
	extra, err := ParseExtraBody(f.ExtraBody)
	if err != nil {
		return agent.Config{}, UsageError{err}
	}
	cfg.ExtraBody = extra
	if err := cfg.Validate(); err != nil {
		return agent.Config{}, UsageError{err}
	}
	return cfg, nil
}

// runHead is what an agent's result says ran, ahead of its RunResult in
// --json and --trajectory: the game and seed, who played (the policy, and
// for a model its name and endpoint, credentials masked), grue's version
// and VCS revision, and where the cost's price came from
// (harness.PriceSourceOf: "unknown" for a model with no known price,
// whose cost is then null, not 0).
type runHead struct {
	Game   string `json:"game"`
	Seed   int64  `json:"seed"`
	Policy string `json:"policy"`
	// Baseline says that no model played: a baseline policy did.
	Baseline     bool   `json:"baseline"`
	Model        string `json:"model,omitempty"`
	BaseURL      string `json:"base_url,omitempty"`
	GrueVersion  string `json:"grue_version"`
	GrueRevision string `json:"grue_revision"`
	PriceSource  string `json:"price_source"`
}

// whatRan is the runHead of agent a's episode on gameName.
func whatRan(f agentFlags, gameName string, p agent.Policy, a *agent.Agent) runHead {
	who := policyName(p, a.Model)
	h := runHead{Game: gameName, Seed: f.seed, Policy: who, Baseline: slices.Contains(agent.BaselineNames(), who),
		GrueVersion: Version(), GrueRevision: harness.BuildRevision(), PriceSource: harness.PriceNone}
	if p == nil {
		h.Model, h.BaseURL, h.PriceSource = a.Model, harness.EndpointOf(a.LLM), harness.PriceSourceOf(a.LLM, a.Model)
	}
	return h
}

// costUnknown reports whether h's cost is unknown (no known price).
func (h runHead) costUnknown() bool { return h.PriceSource == harness.PriceUnknown }

// resultJSON is res's JSON object headed by h, its cost null when unknown.
func resultJSON(h runHead, res *agent.RunResult) ([]byte, error) {
	b, err := res.JSONWith(h)
	if err != nil || !h.costUnknown() {
		return b, err
	}
	return nullField(b, "cost")
}

// nullField returns the JSON object b with its top-level field name null.
func nullField(b []byte, name string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object: %v", err)
	}
	var out bytes.Buffer
	out.WriteByte('{')
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		k, _ := t.(string)
		if k == name {
			v = json.RawMessage("null")
		}
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		out.Write(kb)
		out.WriteByte(':')
		out.Write(v)
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

// reportRun prints the episode's result on stdout: as JSON with --json,
// else as the earlier Python agent's run_agent.py did.
func reportRun(stdout io.Writer, f agentFlags, head runHead, res *agent.RunResult) error {
	if f.json {
		r := *res
		r.History, r.Opening = nil, "" // the trajectory is --trajectory's
		b, err := resultJSON(head, &r)
		if err != nil {
			return fmt.Errorf("grue agent: %w", err)
		}
		var out bytes.Buffer
		if err := json.Indent(&out, b, "", "  "); err != nil {
			return fmt.Errorf("grue agent: %w", err)
		}
		out.WriteByte('\n')
		_, err = stdout.Write(out.Bytes())
		return err
	}
	printResult(stdout, head, res)
	return nil
}

// agentPolicy chooses who decides: a baseline policy or the model, and
// builds the model's client (with its cache) for the latter. note tells
// the user when a baseline was chosen for want of a model.
func agentPolicy(cmd *cobra.Command, f agentFlags) (agent.Policy, llm.Client, string, error) {
	if (f.policy == policyCommands) != (f.commands != "") {
		return nil, nil, "", UsageError{errors.New("--policy commands and --commands FILE go together")}
	}
	switch f.policy {
	case policyRandom, policyExplorer, policyWalkthrough, policyCommands:
		return nil, nil, "", nil // a baseline, made once the game is open
	case "", PolicyLLM:
	default:
		return nil, nil, "", UsageError{fmt.Errorf("unknown --policy %q (want %s or %s)", f.policy, PolicyLLM, strings.Join(agent.BaselineNames(), ", "))}
	}

	client, none, err := f.ModelFlags.client(cmd, f.policy == PolicyLLM)
	switch {
	case err != nil:
		return nil, nil, "", err
	case client == nil:
		return agent.NewExplorer(f.seed), nil, "grue agent: " + none + ": playing the explorer baseline", nil
	}
	return nil, client, "", nil
}

// Client makes the model client of the flags and the environment
// (llm.ConfigFromEnv), with the response cache the flags ask for: the
// model grue agent --policy llm plays with. It is an error when no model
// is configured.
func (f ModelFlags) Client(cmd *cobra.Command) (llm.Client, error) {
	c, _, err := f.client(cmd, true)
	return c, err
}

// client is Client. Unless required, no model configured at all (no
// endpoint and no model named) is not an error: client then returns a nil
// client and says why in none, and a baseline plays. An endpoint or a
// model named without a model that can be used is always an error: a
// baseline never plays in a model's place.
func (f ModelFlags) client(cmd *cobra.Command, required bool) (c llm.Client, none string, err error) {
	lc := llm.ConfigFromEnv()
	if f.Model != "" {
		lc.Model = f.Model
	}
	if f.BaseURL != "" {
		lc.BaseURL = f.BaseURL
	}
	lc.Stream = f.Stream
	lc.Timeout = f.Timeout
	lc.MaxRetries = f.Retries
	if f.MaxReplyBytes < 0 {
		return nil, "", UsageError{fmt.Errorf("--max-reply-bytes %d: want a positive number of bytes", f.MaxReplyBytes)}
	}
	if f.MaxReplyBytes > 0 {
		lc.MaxReplyBytes = f.MaxReplyBytes
	}
	lc.DropParams = f.DropParams
	switch strings.ToLower(f.ReasoningModel) {
	case "":
	case "yes", "true":
		yes := true
		lc.ReasoningModel = &yes
	case "no", "false":
		no := false
		lc.ReasoningModel = &no
	default:
		return nil, "", UsageError{fmt.Errorf("--reasoning-model %q: want yes or no", f.ReasoningModel)}
	}

	mode := llm.CacheOff
	if f.CacheDir != "" {
		mode = llm.CacheReadWrite
	}
	if f.CacheMode != "" {
		m, err := llm.ParseCacheMode(f.CacheMode)
		if err != nil {
			return nil, "", UsageError{fmt.Errorf("--cache-mode: %w", err)}
		}
		mode = m
		if mode != llm.CacheOff && f.CacheDir == "" {
			return nil, "", UsageError{errors.New("--cache-mode needs --cache DIR")}
		}
	}

	if mode == llm.CacheReplayOnly {
		// A replay needs no endpoint, only the model the run was
		// recorded with (the cache keys do not depend on the endpoint).
		if lc.Model == "" {
			return nil, "", UsageError{errors.New("--cache-mode replay needs the model the run was recorded with (--model or GRUE_MODEL)")}
		}
		cache, err := llm.NewCache(f.CacheDir, mode)
		if err != nil {
			return nil, "", err
		}
		return llm.ReplayFrom(cache, lc.Model, strings.TrimRight(lc.BaseURL, "/")), "", nil
	}

	if lc.BaseURL != "" {
		// One call to /models: the one model a server serves is the
		// default, and a misspelt model fails now, not at every step.
		// An endpoint is configured, so a model is meant: a failure
		// here is an error, never a baseline played in the model's
		// place.
		checked, err := openai.CheckModel(cmd.Context(), lc)
		if errors.Is(err, openai.ErrNoModel) {
			return nil, "", fmt.Errorf("%w, or pass --model", err)
		}
		if err != nil {
			return nil, "", err
		}
		lc = checked
	}
	switch {
	case lc.BaseURL != "" && lc.Model == "":
		return nil, "", fmt.Errorf("no model named for %s: pass --model or set GRUE_MODEL", llm.RedactURL(lc.BaseURL))
	case lc.BaseURL == "" && lc.Model != "":
		return nil, "", fmt.Errorf("model %q named, but no endpoint: pass --base-url or set OPENAI_BASE_URL (or OPENAI_API_KEY, or HF_TOKEN)", lc.Model)
	}
	if !lc.Configured() {
		if required {
			return nil, "", errors.New("--policy llm: no model is configured: set OPENAI_API_KEY, OPENAI_BASE_URL or HF_TOKEN (and GRUE_MODEL), or pass --model and --base-url")
		}
		return nil, "no model configured (OPENAI_API_KEY, OPENAI_BASE_URL, HF_TOKEN)", nil
	}
	oc, err := openai.New(lc)
	if err != nil {
		return nil, "", err
	}
	if mode == llm.CacheOff {
		return oc, "", nil
	}
	cache, err := llm.NewCache(f.CacheDir, mode)
	if err != nil {
		return nil, "", err
	}
	return llm.WithCache(oc, cache), "", nil
}

// connectGame opens the game the episode is played on: grue's own server
// in process, or the MCP server --server names (a URL or a command).
func connectGame(ctx context.Context, f agentFlags) (*mcp.Client, string, error) {
	if f.server == "" {
		name := f.game
		if name == "" {
			name = stories.DefaultName
		}
		c, err := mcp.NewInProcessClient(mcp.WithGame(name), mcp.WithSeed(f.seed))
		if err != nil {
			return nil, "", err
		}
		// The server opens the game on the first call: ask for the state
		// now, so that a bad name or file is reported plainly, before the
		// episode, and the game's own name comes back.
		res, err := c.CallTool(ctx, mcp.ToolMemory, nil)
		if err == nil && res.IsError {
			err = errors.New(res.Text)
		}
		if err != nil {
			c.Close()
			return nil, "", err
		}
		return c, res.String("game"), nil
	}

	var c *mcp.Client
	var err error
	if strings.HasPrefix(f.server, "http://") || strings.HasPrefix(f.server, "https://") {
		c, err = mcphttp.NewClient(ctx, f.server)
	} else {
		argv := strings.Fields(f.server)
		if len(argv) == 0 {
			return nil, "", UsageError{errors.New("--server is empty")}
		}
		c, err = mcp.NewStdioClient(ctx, argv[0], argv[1:]...)
	}
	if err != nil {
		return nil, "", fmt.Errorf("--server %s: %w", f.server, err)
	}
	name := f.game
	if f.game != "" || f.seed != 1 {
		args := map[string]any{"seed": f.seed}
		if f.game != "" {
			args["game"] = f.game
		}
		res, err := c.CallTool(ctx, mcp.ToolResetGame, args)
		if err != nil {
			c.Close()
			return nil, "", fmt.Errorf("--server %s: reset_game: %w", f.server, err)
		}
		if res.IsError {
			c.Close()
			return nil, "", fmt.Errorf("--server %s: reset_game: %s", f.server, res.Text)
		}
	}
	if name == "" {
		// Ask the server which game it plays (grue's servers say so in
		// every result's structured content).
		if res, err := c.CallTool(ctx, mcp.ToolMemory, nil); err == nil {
			name = res.String("game")
		}
	}
	return c, name, nil
}

// policyName says who played: the baseline's name, or "llm (MODEL)".
func policyName(p agent.Policy, model string) string {
	if p != nil {
		return p.Name()
	}
	if model == "" {
		return PolicyLLM
	}
	return PolicyLLM + " (" + model + ")"
}

// writeTrajectory writes the whole RunResult, headed by what ran (head),
// as indented JSON, atomically
// (atomicfile.Write): the file is complete or as it was, even after a crash.
func writeTrajectory(path string, head runHead, res *agent.RunResult) error {
	b, err := resultJSON(head, res)
	if err != nil {
		return fmt.Errorf("trajectory: %w", err)
	}
	var data bytes.Buffer
	if err := json.Indent(&data, b, "", "  "); err != nil {
		return fmt.Errorf("trajectory: %w", err)
	}
	if err := atomicfile.Write(path, append(data.Bytes(), '\n'), 0o644); err != nil {
		return fmt.Errorf("trajectory: %w", err)
	}
	return nil
}

// printResult prints a RunResult as the earlier Python agent's
// run_agent.py did.
func printResult(w io.Writer, h runHead, r *agent.RunResult) {
	gameName, seed, who := h.Game, h.Seed, h.Policy
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	fmt.Fprintf(w, "Game: %s (seed %d)\n", gameName, seed)
	fmt.Fprintf(w, "Policy: %s\n", who)
	if r.MaxScore > 0 {
		fmt.Fprintf(w, "Final score: %d of %d (%.1f%%)\n", r.FinalScore, r.MaxScore, 100*float64(r.FinalScore)/float64(r.MaxScore))
	} else {
		fmt.Fprintf(w, "Final score: %d\n", r.FinalScore)
	}
	if r.MovesUnknown {
		fmt.Fprintln(w, "Moves: unknown")
	} else {
		fmt.Fprintf(w, "Moves: %d\n", r.Moves)
	}
	fmt.Fprintf(w, "Locations visited: %d\n", r.LocationsVisited)
	fmt.Fprintf(w, "Game completed: %s", yes(r.GameCompleted))
	if r.GameCompleted {
		fmt.Fprintf(w, " (%s)", map[bool]string{true: "won", false: "lost"}[r.Victory])
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Steps: %d (stopped by %s)\n", r.Steps, r.StoppedBy)
	fmt.Fprintf(w, "Tokens: %d (prompt %d, completion %d)\n", r.Tokens.TotalTokens, r.Tokens.PromptTokens, r.Tokens.CompletionTokens)
	if h.costUnknown() {
		fmt.Fprintf(w, "Cost: unknown (no known price for %s: set GRUE_PRICES to a price file)\n", h.Model)
	} else {
		fmt.Fprintf(w, "Cost: $%.4f\n", r.Cost)
	}
	if r.Error != "" {
		fmt.Fprintf(w, "Error: %s\n", r.Error)
	}
}

// printStep prints one step for -v: the thought, the call, the repairs
// and retries, and the result.
func printStep(w io.Writer, s *agent.Step) {
	fmt.Fprintf(w, "--- step %d\n", s.Step)
	if s.Warning != "" {
		fmt.Fprintf(w, "warning: %s\n", s.Warning)
	}
	if s.Reply != nil {
		for _, r := range s.Reply.Retries {
			if r.Learned != "" {
				fmt.Fprintf(w, "retry: %s (learned: %s)\n", r.Error, r.Learned)
				continue
			}
			fmt.Fprintf(w, "retry: %s (waited %s)\n", r.Error, r.Wait.Round(time.Millisecond))
		}
		if s.Reply.Cached {
			fmt.Fprintln(w, "reply: from the cache")
		}
		if len(s.Reply.Omitted) > 0 {
			fmt.Fprintf(w, "not sent: %s\n", strings.Join(s.Reply.Omitted, "; "))
		}
		if s.Reply.Reasoning != "" {
			fmt.Fprintf(w, "REASONING: %s\n", oneLine(s.Reply.Reasoning))
		}
	}
	if s.Thought != "" {
		fmt.Fprintf(w, "THOUGHT: %s\n", oneLine(s.Thought))
	}
	args, _ := json.Marshal(s.Args)
	fmt.Fprintf(w, "TOOL: %s %s\n", s.Tool, args)
	for _, r := range s.Repairs {
		fmt.Fprintf(w, "repair (%s): %q -> %q", r.Kind, r.From, r.To)
		if r.Detail != "" {
			fmt.Fprintf(w, ": %s", r.Detail)
		}
		fmt.Fprintln(w)
	}
	if s.Error != "" {
		fmt.Fprintf(w, "error: %s\n", s.Error)
		return
	}
	obs := strings.TrimSpace(s.Observation)
	fmt.Fprintf(w, "%s\n", Indent(obs, "  "))
}

// AddFlags defines the model's flags on cmd, --max-tokens defaulting to
// maxTokens.
func (f *ModelFlags) AddFlags(cmd *cobra.Command, maxTokens int) {
	fl := cmd.Flags()
	fl.StringVar(&f.Model, "model", "", "the model (default: $GRUE_MODEL)")
	fl.StringVar(&f.BaseURL, "base-url", "", "an OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)")
	fl.Float64Var(&f.Temperature, "temperature", 0, "sampling temperature")
	fl.IntVar(&f.LLMSeed, "llm-seed", 1, "seed sent with every model request")
	fl.IntVar(&f.MaxTokens, "max-tokens", maxTokens, "cap on each reply's tokens (a reasoning model gets its reasoning allowance on top)")
	fl.BoolVar(&f.Stream, "stream", false, "stream replies (server-sent events)")
	fl.StringVar(&f.CacheDir, "cache", "", "response cache directory (record and replay model replies)")
	fl.StringVar(&f.CacheMode, "cache-mode", "", "cache mode: off, read, write, read-write or replay (default: read-write with --cache)")
	fl.DurationVar(&f.Timeout, "timeout", 0, "time limit of each try of a model call (default 60s)")
	fl.IntVar(&f.Retries, "retries", 0, "retries of a failed model call (default 5; -1 for none)")
	fl.Int64Var(&f.MaxReplyBytes, "max-reply-bytes", 0, "cap in bytes on one model reply, streamed or not: a longer one fails the call (default 32 MiB, or $GRUE_MAX_REPLY_BYTES)")
	addModelFlags(fl, &f.ReasoningEffort, &f.ExtraBody, &f.DropParams)
	fl.StringVar(&f.ReasoningModel, "reasoning-model", "", "treat the model as a reasoning model (yes) or not (no) from the first request, instead of guessing by its name and learning from the server")
	CompleteWords(cmd, "reasoning-model", "yes", "no")
	CompleteWords(cmd, "reasoning-effort", "minimal", "low", "medium", "high")
	CompleteWords(cmd, "drop-param", llm.DroppableParams...)

	CompleteWords(cmd, "cache-mode", "off", "read", "write", "read-write", "replay")
}

// addModelFlags adds the flags that shape model requests beyond the
// usual sampling ones: --reasoning-effort, --extra-body and --drop-param.
func addModelFlags(fl *pflag.FlagSet, effort, extra *string, drop *[]string) {
	fl.StringVar(effort, "reasoning-effort", "", "reasoning_effort sent to the model: minimal, low, medium, high (what the model takes; default: none sent)")
	fl.StringVar(extra, "extra-body", "", `JSON object of request body fields sent verbatim, e.g. '{"options":{"num_ctx":32768}}' (Ollama), '{"chat_template_kwargs":{"enable_thinking":false}}' (vLLM)`)
	fl.StringSliceVar(drop, "drop-param", nil, "request parameter never sent to this endpoint (repeatable): "+strings.Join(llm.DroppableParams, ", ")+"; refused ones are also learned from the server's 400")
}

// completeWords makes the shell complete flag name of cmd with words.
func CompleteWords(cmd *cobra.Command, name string, words ...string) {
	_ = cmd.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(words, cobra.ShellCompDirectiveNoFileComp))
}

// parseExtraBody reads --extra-body: a JSON object, numbers kept as
// written.
func ParseExtraBody(s string) (map[string]any, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("--extra-body: want a JSON object, such as '{\"think\": false}': %w", err)
	}
	if m == nil {
		return nil, errors.New("--extra-body: want a JSON object, such as '{\"think\": false}', not null")
	}
	if dec.More() {
		return nil, errors.New("--extra-body: text after the JSON object")
	}
	return m, nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func Indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
