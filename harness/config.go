package harness

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"

	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/token"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/memory"
	"github.com/grue-lab/grue/game/mcp"
	"github.com/grue-lab/grue/internal/boundedfile"
	"github.com/grue-lab/grue/internal/lazyregexp"
)

// The policies a variant may play with: the ReAct agent asking a model,
// or one of the baselines that need none.
const (
	PolicyLLM         = "llm"
	PolicyRandom      = agent.BaselineRandom
	PolicyWalkthrough = agent.BaselineWalkthrough
	PolicyExplorer    = agent.BaselineExplorer
	PolicyCommands    = agent.BaselineCommands
)

// What an episode does when its game ends before its step limit
// (Config.OnGameOver).
const (
	// GameOverStop ends the episode (the default).
	GameOverStop = "stop"
	// GameOverRestart starts the game again from its seed and plays on
	// within the same step limit, as TALES does; the episode then stops
	// early only on a win at the game's maximum score, and its record
	// counts the restarts and keeps the highest score reached
	// (EpisodeRecord.Restarts, HighScore).
	GameOverRestart = "restart"
)

// PolicyNames returns the policy names a Variant accepts: the model's,
// then agent's baselines (agent.BaselineNames), a new slice each call.
func PolicyNames() []string {
	return append([]string{PolicyLLM}, agent.BaselineNames()...)
}

// Defaults of a Config's zero fields.
const (
	// DefaultParallel is how many episodes run at once unless the config
	// or the command line says otherwise.
	DefaultParallel = 4
	// DefaultTrials is how many seeds a config that names neither seeds
	// nor trials plays.
	DefaultTrials = 1
)

// Config is an experiment: every variant of an agent plays every game
// from every seed. It is read from YAML ([LoadConfig], [ParseConfig]) or
// built in code; its field names in YAML are the json tags below.
//
//	name: memory-ab
//	variants:
//	  - name: window
//	    memory: window
//	    window: 10
//	  - name: hybrid
//	    memory: hybrid
//	    window: 5
//	games: [lantern, zork1]
//	trials: 5
//	base_seed: 1
//	max_steps: 100
//	limits: {tokens: 200000, cost: 0.50, time: 10m}
//	parallel: 8
//	rate_limit: 4        # requests per second to each endpoint
//	retries: 2           # more attempts for an episode that errored
//	cache: {dir: .cache/llm, mode: read-write}
type Config struct {
	// Name names the experiment (and its default run directory).
	Name string `json:"name"`
	// Description is free text, kept with the results.
	Description string `json:"description,omitempty"`
	// Label names the run in a comparison of several runs whose variant
	// names repeat (grue exp compare runs/a runs/b); "" means the run
	// directory's name. It is no part of the config's hash.
	Label string `json:"label,omitempty"`
	// Variants are the agents compared.
	Variants []Variant `json:"variants"`
	// Games are game names (grue games) or story file paths; a relative
	// path is taken from the config file's folder.
	Games []string `json:"games"`
	// Seeds are the game seeds each variant plays each game from. Without
	// them, Trials seeds are used: BaseSeed, BaseSeed+1, ...
	Seeds    []int64 `json:"seeds,omitempty"`
	Trials   int     `json:"trials,omitempty"`
	BaseSeed int64   `json:"base_seed,omitempty"`
	// MaxSteps bounds each episode's steps (agent.DefaultMaxSteps when 0).
	MaxSteps int `json:"max_steps,omitempty"`
	// GameSeeds, when it lists a game, are the seeds that game is
	// played from, in place of Seeds or Trials: a protocol with a seed
	// of its own for each game (TALES's Jericho seeds).
	GameSeeds map[string][]int64 `json:"game_seeds,omitempty"`
	// OnGameOver is what an episode does when its game ends before the
	// step limit: GameOverStop (the default, also "") or
	// GameOverRestart.
	OnGameOver string `json:"on_game_over,omitempty"`
	// Limits end an episode early: tokens, dollars, wall time.
	Limits Limits `json:"limits,omitempty"`
	// Parallel is how many episodes run at once (DefaultParallel when 0).
	Parallel int `json:"parallel,omitempty"`
	// RateLimit is the most model requests per second sent to one
	// endpoint (base URL), over all the episodes; 0 means no limit.
	RateLimit float64 `json:"rate_limit,omitempty"`
	// Retries is how many more times an episode that ended in an error
	// (a model that could not be reached, a server that died) is played
	// before its error is recorded.
	Retries int `json:"retries,omitempty"`
	// Cache records and replays the models' replies.
	Cache CacheConfig `json:"cache,omitempty"`

	// Dir is the folder relative paths are taken from: the config file's
	// folder, or "" (the working directory) for a config built in code.
	Dir string `json:"-"`
	// File is the file the config was read from, for error messages.
	File string `json:"-"`
}

// Variant is one agent of an experiment. Zero fields take the default
// agent's settings ([agent.Defaults]); a variant with no model or base URL
// takes them from the environment ([llm.ConfigFromEnv]), so the same config
// runs against OpenAI, a local server or, in CI, a scripted one.
type Variant struct {
	// Name names the variant in results and tables: letters, digits,
	// '.', '_' and '-'.
	Name string `json:"name"`
	// Policy is llm (the default), random, walkthrough, explorer or
	// commands (PolicyNames).
	Policy string `json:"policy,omitempty"`
	// CommandsFile is the command file the commands policy replays, one
	// command a line (agent.ReadCommands), relative to the config's
	// folder; only with policy commands.
	CommandsFile string `json:"commands_file,omitempty"`

	// Model and BaseURL name the model and its OpenAI-compatible
	// endpoint; APIKeyEnv names the environment variable holding the
	// key (OPENAI_API_KEY by default). A key never goes in a config.
	Model     string `json:"model,omitempty"`
	BaseURL   string `json:"base_url,omitempty"`
	APIKeyEnv string `json:"api_key_env,omitempty"`
	// Protocol is text (THOUGHT/TOOL/ARGS) or native (tool calls).
	Protocol string `json:"protocol,omitempty"`

	// Memory names a strategy of [memory.Kinds] (none when empty); Window
	// the turns window and hybrid keep verbatim; MemoryBudget the tokens
	// memory may use; SummaryModel the model that writes summaries.
	Memory       string `json:"memory,omitempty"`
	Window       int    `json:"window,omitempty"`
	MemoryBudget int    `json:"memory_budget,omitempty"`
	SummaryModel string `json:"summary_model,omitempty"`

	// SystemPrompt is the system prompt; SystemPromptFile a file holding
	// it, relative to the config file's folder. At most one is given.
	SystemPrompt     string `json:"system_prompt,omitempty"`
	SystemPromptFile string `json:"system_prompt_file,omitempty"`

	// Tools are the game tools the agent may call ([agent.DefaultTools] by
	// default; see the game server's list: play_action, memory, get_map,
	// inventory, valid_actions, ...).
	Tools []string `json:"tools,omitempty"`

	Temperature *float64 `json:"temperature,omitempty"`
	MaxTokens   int      `json:"max_tokens,omitempty"`
	// VerbRepair and LoopLimit override the defaults (on, and 3) when
	// set.
	VerbRepair *bool `json:"verb_repair,omitempty"`
	LoopLimit  *int  `json:"loop_limit,omitempty"`
	// Stream asks the model for server-sent events.
	Stream bool `json:"stream,omitempty"`

	// ReasoningEffort is sent as reasoning_effort (minimal, low, medium,
	// high). ExtraBody's fields are sent verbatim in every request body
	// (Ollama's options.num_ctx and think, vLLM's chat_template_kwargs,
	// a router's provider preferences). DropParams names parameters
	// never sent to this variant's endpoint (llm.DroppableParams), as
	// the client would otherwise learn from the endpoint's 400s.
	ReasoningEffort string         `json:"reasoning_effort,omitempty"`
	ExtraBody       map[string]any `json:"extra_body,omitempty"`
	DropParams      []string       `json:"drop_params,omitempty"`
	// ReasoningModel, when set, says whether the model reasons from the
	// first request instead of guessing by its name
	// (llm.Config.ReasoningModel).
	ReasoningModel *bool `json:"reasoning_model,omitempty"`
}

// Limits end an episode early; zero means no limit.
type Limits struct {
	Tokens int           `json:"tokens,omitempty"`
	Cost   float64       `json:"cost,omitempty"` // US dollars
	Time   time.Duration `json:"time,omitempty"` // wall time, "10m" in YAML
}

// CacheConfig is the response cache: Dir (relative to the config file's
// folder) and Mode (off, read, write, read-write or replay; read-write
// when only Dir is given).
type CacheConfig struct {
	Dir  string `json:"dir,omitempty"`
	Mode string `json:"mode,omitempty"`
}

// FieldError is a problem with one field of a config: the file, line and
// column where it was read (when known) and the field's path
// ("variants[1].policy").
type FieldError struct {
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	Field  string `json:"field,omitempty"`
	Msg    string `json:"msg"`
}

// Error returns "file:line:col: field: msg", leaving out what is unknown.
func (e *FieldError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d:%d", e.Line, e.Column)
		}
		b.WriteString(": ")
	} else if e.Line > 0 {
		fmt.Fprintf(&b, "line %d, column %d: ", e.Line, e.Column)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, "field %s: ", e.Field)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// LoadConfig reads and validates the experiment config in the YAML file
// path. Relative paths in it are taken from the file's folder. Every error
// names the file, the line and column, and the field. The file must be a
// regular file of at most MaxConfigBytes.
func LoadConfig(path string) (*Config, error) {
	data, err := boundedfile.ReadFile(path, MaxConfigBytes)
	if err != nil {
		return nil, fmt.Errorf("experiment config: %w", err)
	}
	cfg, err := ParseConfig(data, path)
	if err != nil {
		return nil, err
	}
	cfg.Dir = filepath.Dir(path)
	if err := cfg.Validate(); err != nil {
		return nil, locate(err, data, path)
	}
	return cfg, nil
}

// ParseConfig decodes YAML into a Config without validating it (see
// Validate). Unknown fields and values of the wrong type are errors; name
// is the file name used in them. Dir is left "". data must be at most
// MaxConfigBytes, nest at most MaxConfigDepth deep, and expand (aliases
// replaced by what they stand for) to at most MaxConfigNodes values.
func ParseConfig(data []byte, name string) (*Config, error) {
	if len(data) > MaxConfigBytes {
		return nil, &FieldError{File: name, Msg: fmt.Sprintf("larger than the limit of %s", boundedfile.FormatSize(MaxConfigBytes))}
	}
	if err := checkDocument(data, name); err != nil {
		return nil, err
	}
	var cfg Config
	err := yaml.UnmarshalWithOptions(data, &cfg, yaml.Strict())
	if err != nil {
		return nil, yamlError(err, data, name, "see the fields of harness.Config and harness.Variant")
	}
	cfg.File = name
	return &cfg, nil
}

// yamlError turns a go-yaml error into a FieldError naming the position
// and the field (the key whose value could not be read).
func yamlError(err error, data []byte, file, fields string) error {
	var ye yaml.Error
	if !errors.As(err, &ye) || ye.GetToken() == nil {
		// A value the decoder parsed itself and refused without saying
		// where (a duration such as "soon"): find the value in the source.
		fe := &FieldError{File: file, Msg: err.Error()}
		if m := quoted.FindAllString(err.Error(), -1); len(m) > 0 {
			if v, uerr := strconv.Unquote(m[len(m)-1]); uerr == nil {
				for _, tk := range lexer.Tokenize(string(data)) {
					if tk.Value == v && tk.Prev != nil && tk.Prev.Type == token.MappingValueType {
						fe.Line, fe.Column, fe.Field = tk.Position.Line, tk.Position.Column, keyOf(tk)
						if fe.Field == "time" {
							fe.Msg = fmt.Sprintf("%q is not a duration (such as 90s or 10m)", v)
						}
						break
					}
				}
			}
		}
		return fe
	}
	tk := ye.GetToken()
	fe := &FieldError{File: file, Line: tk.Position.Line, Column: tk.Position.Column}
	var (
		unknown *yaml.UnknownFieldError
		typ     *yaml.TypeError
		node    *yaml.UnexpectedNodeTypeError
		dup     *yaml.DuplicateKeyError
	)
	switch {
	case errors.As(err, &unknown):
		fe.Field = tk.Value
		fe.Msg = "unknown field (misspelt? " + fields + ")"
	case errors.As(err, &typ):
		fe.Field = keyOf(tk)
		fe.Msg = fmt.Sprintf("%q is not %s", tk.Value, kindName(typ.DstType.String()))
	case errors.As(err, &node):
		fe.Field = keyOf(tk)
		fe.Msg = fmt.Sprintf("%s given where %s is expected", node.Actual.YAMLName(), node.Expected.YAMLName())
	case errors.As(err, &dup):
		fe.Field = tk.Value
		fe.Msg = "given twice"
	default:
		fe.Field = keyOf(tk)
		fe.Msg = ye.GetMessage()
	}
	return fe
}

// quoted matches a double-quoted string in an error message.
var quoted = lazyregexp.New(`"(?:[^"\\]|\\.)*"`)

// keyOf finds the mapping key whose value holds tk: the string before
// the nearest ':' before it, or "" when there is none.
func keyOf(tk *token.Token) string {
	depth := 0
	for p := tk.Prev; p != nil; p = p.Prev {
		switch p.Type {
		case token.SequenceEndType, token.MappingEndType:
			depth++
		case token.SequenceStartType, token.MappingStartType:
			if depth > 0 {
				depth--
			}
		case token.MappingValueType:
			if depth == 0 && p.Prev != nil {
				return p.Prev.Value
			}
		}
	}
	return ""
}

// kindName says in words what a Go type wants.
func kindName(goType string) string {
	switch {
	case goType == "time.Duration":
		return "a duration (such as 90s or 10m)"
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	case strings.Contains(goType, "int"):
		return "an integer"
	case strings.Contains(goType, "float"):
		return "a number"
	case strings.Contains(goType, "bool"):
		return "true or false"
	case strings.Contains(goType, "string"):
		return "a string"
	}
	return "a " + goType
}

// variantName is what a variant's name may hold: it names files.
var variantName = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// Validate checks the config as Run would use it: at least one variant
// and one game, variant names unique and usable as file names, known
// policies, protocols, memory strategies and tools, games that open and,
// for the walkthrough policy, have a walkthrough, prompt files that can be
// read, seeds and limits in range, api_key_env naming an LLM key variable
// (llm.CheckKeyEnv). It reports every problem it finds, each a
// *FieldError naming the field, joined (errors.Join). A config over the
// size limits (MaxVariants, MaxGames, MaxSeeds, MaxEpisodes, MaxSteps,
// MaxParallel, MaxRetries) is reported for that alone, before anything
// is done for its variants, games or seeds.
func (c *Config) Validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, &FieldError{File: c.File, Field: field, Msg: fmt.Sprintf(format, args...)})
	}
	if c.checkSizes(bad) {
		return errors.Join(errs...)
	}
	if strings.TrimSpace(c.Name) == "" {
		bad("name", "the experiment has no name")
	} else if !variantName.MatchString(c.Name) {
		bad("name", "%q: use letters, digits, '.', '_' and '-' (it names the run directory)", c.Name)
	}
	if len(c.Variants) == 0 {
		bad("variants", "no variants: an experiment needs at least one")
	}
	seen := map[string]int{}
	for i, v := range c.Variants {
		c.validateVariant(i, v, seen, bad)
	}
	c.validateGames(bad)
	c.validateRun(bad)
	return errors.Join(errs...)
}

// validateVariant reports (through bad) the problems of c.Variants[i], v;
// seen maps the variant names met so far to their index.
func (c *Config) validateVariant(i int, v Variant, seen map[string]int, bad func(field, format string, args ...any)) {
	at := func(f string) string { return fmt.Sprintf("variants[%d].%s", i, f) }
	switch {
	case v.Name == "":
		bad(at("name"), "the variant has no name")
	case !variantName.MatchString(v.Name):
		bad(at("name"), "%q: use letters, digits, '.', '_' and '-' (it names files)", v.Name)
	}
	if j, dup := seen[v.Name]; dup && v.Name != "" {
		bad(at("name"), "duplicate variant name %q (also variants[%d])", v.Name, j)
	}
	seen[v.Name] = i
	policy := v.policy()
	if !slices.Contains(PolicyNames(), policy) {
		bad(at("policy"), "unknown policy %q (valid: %s)", v.Policy, strings.Join(PolicyNames(), ", "))
	}
	switch {
	case policy == PolicyCommands && v.CommandsFile == "":
		bad(at("commands_file"), "the commands policy needs a commands_file to replay")
	case policy != PolicyCommands && v.CommandsFile != "":
		bad(at("commands_file"), "a commands_file goes with policy commands, not %s", policy)
	case v.CommandsFile != "":
		if _, err := agent.ReadCommands(c.path(v.CommandsFile)); err != nil {
			bad(at("commands_file"), "%v", err)
		}
	}
	if _, ok := memory.Lookup(v.Memory); v.Memory != "" && !ok {
		bad(at("memory"), "unknown memory strategy %q (valid: %s)", v.Memory, strings.Join(memory.Names(), ", "))
	}
	switch strings.ToLower(v.Protocol) {
	case "", agent.ProtocolText, agent.ProtocolNative:
	default:
		bad(at("protocol"), "unknown protocol %q (valid: %s, %s)", v.Protocol, agent.ProtocolText, agent.ProtocolNative)
	}
	if v.Window < 0 {
		bad(at("window"), "negative window %d", v.Window)
	}
	if v.MemoryBudget < 0 {
		bad(at("memory_budget"), "negative memory budget %d", v.MemoryBudget)
	}
	if v.MaxTokens < 0 {
		bad(at("max_tokens"), "negative max_tokens %d", v.MaxTokens)
	}
	if v.LoopLimit != nil && *v.LoopLimit < 0 {
		bad(at("loop_limit"), "negative loop_limit %d", *v.LoopLimit)
	}
	if v.Temperature != nil && (*v.Temperature < 0 || *v.Temperature > 2) {
		bad(at("temperature"), "temperature %g is outside [0, 2]", *v.Temperature)
	}
	if v.SystemPrompt != "" && v.SystemPromptFile != "" {
		bad(at("system_prompt_file"), "give system_prompt or system_prompt_file, not both")
	} else if v.SystemPromptFile != "" {
		if _, err := boundedfile.ReadFile(c.path(v.SystemPromptFile), MaxPromptBytes); err != nil {
			bad(at("system_prompt_file"), "%v", err)
		}
	}
	validateModelFields(i, v, bad)
	if len(v.Tools) > 0 {
		known := mcp.ToolNames()
		for k, t := range v.Tools {
			if !slices.Contains(known, t) {
				bad(fmt.Sprintf("variants[%d].tools[%d]", i, k), "unknown game tool %q (valid: %s)", t, strings.Join(known, ", "))
			}
		}
		if !slices.Contains(v.Tools, agent.DefaultTool) {
			bad(at("tools"), "the tools must include %s, the only way to act", agent.DefaultTool)
		}
	}
	if _, ok := memory.Lookup(cmp.Or(v.Memory, "none")); ok {
		if err := v.AgentConfig().Validate(); err != nil {
			bad(at("memory"), "%v", err)
		}
	}
}

// validateModelFields reports (through bad) the problems of variant i's
// model settings: its key variable and the parameters it drops.
func validateModelFields(i int, v Variant, bad func(field, format string, args ...any)) {
	if v.APIKeyEnv != "" {
		if err := llm.CheckKeyEnv(v.APIKeyEnv); err != nil {
			bad(fmt.Sprintf("variants[%d].api_key_env", i), "%v", err)
		}
	}
	for k, p := range v.DropParams {
		switch {
		case !slices.Contains(llm.DroppableParams, p):
			bad(fmt.Sprintf("variants[%d].drop_params[%d]", i, k), "unknown parameter %q: grue can leave out %s", p, strings.Join(llm.DroppableParams, ", "))
		case slices.Index(v.DropParams, p) != k:
			bad(fmt.Sprintf("variants[%d].drop_params[%d]", i, k), "%q is listed twice", p)
		}
	}
}

// validateGames reports (through bad) the games that are empty, listed
// twice or cannot be opened, and those a walkthrough variant has no
// walkthrough for.
func (c *Config) validateGames(bad func(field, format string, args ...any)) {
	if len(c.Games) == 0 {
		bad("games", "no games: name at least one (see grue games)")
	}
	for i, g := range c.Games {
		if strings.TrimSpace(g) == "" {
			bad(fmt.Sprintf("games[%d]", i), "empty game name")
			continue
		}
		if slices.Index(c.Games, g) != i {
			bad(fmt.Sprintf("games[%d]", i), "game %q is listed twice", g)
			continue
		}
		if _, err := c.openGame(g, 1); err != nil {
			bad(fmt.Sprintf("games[%d]", i), "%v", err)
			continue
		}
		for j, v := range c.Variants {
			if v.policy() != PolicyWalkthrough {
				continue
			}
			if _, err := c.walkthrough(g); err != nil {
				bad(fmt.Sprintf("variants[%d].policy", j), "%v", err)
			}
		}
	}
}

// validateRun reports (through bad) the problems of the run's settings:
// seeds and trials, limits, parallelism, retries and the cache.
func (c *Config) validateRun(bad func(field, format string, args ...any)) {
	switch {
	case len(c.Seeds) > 0 && c.Trials > 0:
		bad("trials", "give seeds or trials, not both")
	case c.Trials < 0:
		bad("trials", "negative trials %d", c.Trials)
	}
	seenSeed := make(map[int64]bool, len(c.Seeds))
	for i, s := range c.Seeds {
		if seenSeed[s] {
			bad(fmt.Sprintf("seeds[%d]", i), "seed %d is listed twice", s)
		}
		seenSeed[s] = true
	}
	if c.MaxSteps < 0 {
		bad("max_steps", "negative max_steps %d", c.MaxSteps)
	}
	switch c.OnGameOver {
	case "", GameOverStop, GameOverRestart:
	default:
		bad("on_game_over", "unknown %q (valid: %s, %s)", c.OnGameOver, GameOverStop, GameOverRestart)
	}
	for _, g := range slices.Sorted(maps.Keys(c.GameSeeds)) {
		seeds := c.GameSeeds[g]
		switch {
		case !slices.Contains(c.Games, g):
			bad("game_seeds."+g, "%q is not one of the games", g)
		case len(seeds) == 0:
			bad("game_seeds."+g, "no seeds")
		case len(seeds) > MaxSeeds:
			bad("game_seeds."+g, "%d seeds, more than the limit of %d", len(seeds), MaxSeeds)
		}
		seen := map[int64]bool{}
		for i, s := range seeds {
			if seen[s] {
				bad(fmt.Sprintf("game_seeds.%s[%d]", g, i), "seed %d is listed twice", s)
			}
			seen[s] = true
		}
	}
	if c.Limits.Tokens < 0 {
		bad("limits.tokens", "negative limit %d", c.Limits.Tokens)
	}
	if c.Limits.Cost < 0 {
		bad("limits.cost", "negative limit %g", c.Limits.Cost)
	}
	if c.Limits.Time < 0 {
		bad("limits.time", "negative limit %s", c.Limits.Time)
	}
	if c.Parallel < 0 {
		bad("parallel", "negative parallel %d", c.Parallel)
	}
	if c.RateLimit < 0 {
		bad("rate_limit", "negative rate limit %g", c.RateLimit)
	}
	if c.Retries < 0 {
		bad("retries", "negative retries %d", c.Retries)
	}
	if c.Cache.Mode != "" {
		m, err := llm.ParseCacheMode(c.Cache.Mode)
		switch {
		case err != nil:
			bad("cache.mode", "%v", err)
		case m != llm.CacheOff && c.Cache.Dir == "":
			bad("cache.dir", "cache mode %s needs a cache dir", c.Cache.Mode)
		}
	}
}

// checkSizes reports (through bad) the counts of c over their limits, and
// whether there was one: such a config is not looked at further.
func (c *Config) checkSizes(bad func(field, format string, args ...any)) bool {
	over := false
	check := func(field string, n, limit int, what string) {
		if n > limit {
			bad(field, "%d %s, more than the limit of %d", n, what, limit)
			over = true
		}
	}
	check("variants", len(c.Variants), MaxVariants, "variants")
	check("games", len(c.Games), MaxGames, "games")
	check("seeds", len(c.Seeds), MaxSeeds, "seeds")
	check("trials", c.Trials, MaxSeeds, "trials")
	check("max_steps", c.MaxSteps, MaxSteps, "steps")
	check("parallel", c.Parallel, MaxParallel, "episodes at once")
	check("retries", c.Retries, MaxRetries, "retries")
	if over {
		return true
	}
	seeds := len(c.Seeds)
	field := "seeds"
	if seeds == 0 {
		seeds, field = max(c.Trials, DefaultTrials), "trials"
		if c.Trials == 0 {
			field = "games"
		}
	}
	if n := len(c.Variants) * len(c.Games) * seeds; n > MaxEpisodes {
		bad(field, "%d variants x %d games x %d seeds = %d episodes, more than the limit of %d", len(c.Variants), len(c.Games), seeds, n, MaxEpisodes)
		return true
	}
	return false
}

// locate gives the FieldErrors in err the line and column of their field
// in the YAML source data.
func locate(err error, data []byte, file string) error {
	var list []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		list = j.Unwrap()
	} else {
		list = []error{err}
	}
	for _, e := range list {
		var fe *FieldError
		if !errors.As(e, &fe) || fe.Field == "" || fe.Line > 0 {
			continue
		}
		fe.File = file
		fe.Line, fe.Column = positionOf(data, fe.Field)
	}
	return errors.Join(list...)
}

// positionOf finds where the field at path ("variants[1].policy") is in
// data: its value's position, or, for a field that is absent, the nearest
// enclosing one that is there. It returns 0, 0 when none is.
func positionOf(data []byte, field string) (line, col int) {
	parts := strings.Split(field, ".")
	for n := len(parts); n > 0; n-- {
		p, err := yaml.PathString("$." + strings.Join(parts[:n], "."))
		if err != nil {
			continue
		}
		node, err := p.ReadNode(bytes.NewReader(data))
		if err != nil || node == nil || node.GetToken() == nil {
			continue
		}
		pos := node.GetToken().Position
		return pos.Line, pos.Column
	}
	return 0, 0
}

// policy is the variant's policy, llm when none is named.
func (v Variant) policy() string {
	if v.Policy == "" {
		return PolicyLLM
	}
	return strings.ToLower(v.Policy)
}

// path resolves p from the config's folder.
func (c *Config) path(p string) string {
	if p == "" || filepath.IsAbs(p) || c.Dir == "" {
		return p
	}
	return filepath.Join(c.Dir, p)
}

// SeedList returns the game seeds the config plays: Seeds, or Trials
// seeds from BaseSeed (DefaultTrials when neither is given), at most
// MaxSeeds of them (Validate refuses a config with more).
func (c *Config) SeedList() []int64 {
	if len(c.Seeds) > 0 {
		return slices.Clone(c.Seeds)
	}
	n := min(c.Trials, MaxSeeds)
	if n <= 0 {
		n = DefaultTrials
	}
	out := make([]int64, n)
	for i := range out {
		out[i] = c.BaseSeed + int64(i)
	}
	return out
}

// Steps returns the step limit of each episode.
func (c *Config) Steps() int {
	if c.MaxSteps > 0 {
		return c.MaxSteps
	}
	return agent.DefaultMaxSteps
}

// canonical is the part of a config that decides what its episodes do:
// what Hash covers. Parallelism, the rate limit, retries and the cache
// change how fast a run goes, not its outcome, and are left out, so that
// a run resumed with more workers is the same experiment.
type canonical struct {
	Name     string             `json:"name"`
	Variants []canonicalVariant `json:"variants"`
	Games    []string           `json:"games"`
	Seeds    []int64            `json:"seeds"`
	MaxSteps int                `json:"max_steps"`
	Limits   Limits             `json:"limits"`
	// Fields added since: left out when unset, so that the hashes of
	// configs written before stay what they were.
	GameSeeds  map[string][]int64 `json:"game_seeds,omitempty"`
	OnGameOver string             `json:"on_game_over,omitempty"`
}

// canonicalVariant is a variant with its prompt file read.
type canonicalVariant struct {
	Variant
	SystemPromptText string `json:"system_prompt_text,omitempty"`
	// CommandsSHA256 is the SHA-256 of the commands file's content.
	CommandsSHA256 string `json:"commands_sha256,omitempty"`
}

// Hash returns the SHA-256 (hex) of the config's canonical form: its name,
// variants (with the text of their prompt files), games, seeds (expanded),
// step limit and limits, as JSON. Two configs with the same hash run the
// same episodes; a resumed run must have its first run's hash. Settings
// taken from the environment (a variant's model when the config names
// none) are not part of it, so that a config runs anywhere; Run checks
// them on resume against the run's manifest (ErrEndpointMismatch).
func (c *Config) Hash() string {
	b, _ := json.Marshal(c.canonical()) // plain data: cannot fail
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// canonical is c's canonical form, which Hash hashes.
func (c *Config) canonical() canonical {
	cv := canonical{Name: c.Name, Games: slices.Clone(c.Games), Seeds: c.SeedList(), MaxSteps: c.Steps(), Limits: c.Limits, GameSeeds: c.GameSeeds}
	if c.OnGameOver != GameOverStop {
		cv.OnGameOver = c.OnGameOver
	}
	for _, v := range c.Variants {
		// A key in the base URL's query is no part of the experiment.
		v.BaseURL = llm.RedactURL(v.BaseURL)
		x := canonicalVariant{Variant: v}
		if v.SystemPromptFile != "" {
			if b, err := boundedfile.ReadFile(c.path(v.SystemPromptFile), MaxPromptBytes); err == nil {
				x.SystemPromptText = string(b)
			}
			x.SystemPromptFile = filepath.Base(v.SystemPromptFile)
		}
		if v.CommandsFile != "" {
			if b, err := boundedfile.ReadFile(c.path(v.CommandsFile), agent.MaxCommandsBytes); err == nil {
				sum := sha256.Sum256(b)
				x.CommandsSHA256 = hex.EncodeToString(sum[:])
			}
			x.CommandsFile = filepath.Base(v.CommandsFile)
		}
		cv.Variants = append(cv.Variants, x)
	}
	return cv
}

// EpisodeSpec is one episode an experiment plays: a variant on a game
// from a game seed, with the LLM seed derived from them.
type EpisodeSpec struct {
	Variant string `json:"variant"`
	Game    string `json:"game"`
	Seed    int64  `json:"seed"`
	LLMSeed int64  `json:"llm_seed"`
}

// Key returns the spec's (variant, game, seed).
func (s EpisodeSpec) Key() EpisodeKey {
	return EpisodeKey{Variant: s.Variant, Game: s.Game, Seed: s.Seed}
}

// Episodes expands the config into its episodes: seed by seed, and for
// each seed game by game and variant by variant, so that a run stopped
// early has played every variant on the same (game, seed) pairs, which is
// what a paired comparison needs. Each episode gets an LLM seed derived
// from the base seed, the variant, the game and the game seed (LLMSeed),
// so that a rerun sends the model the same seeds.
func (c *Config) Episodes() []EpisodeSpec {
	var out []EpisodeSpec
	seeds := c.SeedList()
	most := len(seeds)
	for _, s := range c.GameSeeds {
		most = max(most, len(s))
	}
	for i := range most {
		for _, g := range c.Games {
			list := seeds
			if gs, ok := c.GameSeeds[g]; ok {
				list = gs
			}
			if i >= len(list) {
				continue
			}
			s := list[i]
			for _, v := range c.Variants {
				out = append(out, EpisodeSpec{Variant: v.Name, Game: g, Seed: s, LLMSeed: LLMSeed(c.BaseSeed, v.Name, g, s)})
			}
		}
	}
	return out
}

// SeedsFor returns the seeds game g is played from: its GameSeeds, else
// SeedList.
func (c *Config) SeedsFor(g string) []int64 {
	if s, ok := c.GameSeeds[g]; ok {
		return slices.Clone(s)
	}
	return c.SeedList()
}

// LLMSeed derives an episode's LLM seed: the first 31 bits of the SHA-256
// of the base seed, variant, game and game seed, so it fits any server's
// seed field and is the same on every machine.
func LLMSeed(base int64, variant, game string, seed int64) int64 {
	sum := sha256.Sum256(fmt.Appendf(nil, "grue-llm-seed\x00%d\x00%s\x00%s\x00%d", base, variant, game, seed))
	var n int64
	for _, b := range sum[:4] {
		n = n<<8 | int64(b)
	}
	return n & 0x7fffffff
}

// Variant returns the variant called name.
func (c *Config) Variant(name string) (Variant, bool) {
	for _, v := range c.Variants {
		if v.Name == name {
			return v, true
		}
	}
	return Variant{}, false
}

// AgentConfig returns the agent settings the variant gives: the default
// agent's ([agent.Defaults]) with the variant's fields on top. A
// SystemPromptFile is not read here (Config.AgentConfig reads it), and
// neither the model's seed nor the experiment's limits are set.
//
// A baseline policy plays with every game tool the server has (the random
// policy asks valid_actions, the explorer get_map) unless Tools names
// them.
func (v Variant) AgentConfig() agent.Config {
	cfg := agent.Defaults()
	cfg.Model = v.Model
	if v.Protocol != "" {
		cfg.Protocol = strings.ToLower(v.Protocol)
	}
	if v.Memory != "" {
		cfg.Memory = strings.ToLower(v.Memory)
	}
	if v.Window > 0 {
		cfg.Window = v.Window
	}
	cfg.MemoryBudget = v.MemoryBudget
	cfg.SummaryModel = v.SummaryModel
	if v.SystemPrompt != "" {
		cfg.System = v.SystemPrompt
	}
	switch {
	case len(v.Tools) > 0:
		cfg.Tools = slices.Clone(v.Tools)
	case v.policy() != PolicyLLM:
		cfg.Tools = nil
	}
	if v.Temperature != nil {
		t := *v.Temperature
		cfg.Temperature = &t
	}
	if v.MaxTokens > 0 {
		cfg.MaxTokens = v.MaxTokens
	}
	if v.VerbRepair != nil {
		cfg.VerbRepair = *v.VerbRepair
	}
	if v.LoopLimit != nil {
		cfg.LoopLimit = *v.LoopLimit
	}
	cfg.ReasoningEffort = v.ReasoningEffort
	cfg.ExtraBody = maps.Clone(v.ExtraBody)
	return cfg
}

// AgentConfig returns the agent settings of variant v in this experiment:
// v.AgentConfig with its prompt file read, the experiment's step limit and
// limits, and llmSeed as the model's seed.
func (c *Config) AgentConfig(v Variant, llmSeed int64) (agent.Config, error) {
	cfg := v.AgentConfig()
	if v.SystemPromptFile != "" {
		b, err := boundedfile.ReadFile(c.path(v.SystemPromptFile), MaxPromptBytes)
		if err != nil {
			return cfg, fmt.Errorf("variant %s: system_prompt_file: %w", v.Name, err)
		}
		cfg.System = string(b)
	}
	seed := int(llmSeed)
	cfg.Seed = &seed
	cfg.Limits = agent.Limits{
		MaxSteps:  c.Steps(),
		MaxTokens: c.Limits.Tokens,
		MaxCost:   c.Limits.Cost,
		MaxWall:   c.Limits.Time,
	}
	return cfg, nil
}
