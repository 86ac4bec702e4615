// Package workbench is the grue workbench on the generic notebook
// ([github.com/grue-lab/grue/repl]): the session's game, episode and ctx,
// the :step/:play/:prompt magics, display of agent and harness records.
// `grue` with no arguments runs it; `grue run FILE.go` runs a script with
// the same bindings.
//
//	s, err := workbench.New(workbench.Options{Game: "zork1"})
//	res, err := s.Eval(ctx, `g.Step("open mailbox")`)
//
// A session binds grue's packages (package bindings) and the standard
// library, and imports fmt, strings, game, zmachine, stories, agent, llm,
// memory, tools and harness from the start (Preloaded). Its game is the
// variable g; its agent episode (a *harness.Episode on its own copy of
// the game) is ep, which the magics :step, :play and :prompt act on; ctx
// is the running cell's context. An episode is shown by its
// [harness.EpisodeSummary], a trajectory as a table of
// [agent.StepRow]s, through the interfaces of package repl.
package workbench

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/bindings"
	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/repl"
)

// GameVar is the name of the session variable that holds the session's
// game.
const GameVar = "g"

// EpisodeVar is the name of the session variable that holds the session's
// agent episode: a *harness.Episode in which an agent (agent.Defaults,
// with the model the environment configures, or a baseline policy) plays
// its own copy of the session's story from the session's seed.
//
// The episode's game is not g: g is the game to poke at by hand
// (g.Step("look")), ep is the agent's (ep.Step(ctx), :step, :play). The
// magics :step, :play and :prompt act on whatever ep holds when they run,
// so after ep = alt they step the fork.
const EpisodeVar = "ep"

// SessionNames says, in a line for a banner, the variables a session
// starts with.
const SessionNames = "g is the game, ep the agent's episode (:step, :play, :prompt), ctx the running cell's context"

// Preloaded are the packages every session imports at the start, by the
// name they go by. Other bound packages are imported on first use (a cell
// that says time.Now() imports "time"), or with an import statement.
var Preloaded = map[string]string{
	"fmt":      "fmt",
	"strings":  "strings",
	"game":     "github.com/grue-lab/grue/game",
	"zmachine": "github.com/grue-lab/grue/game/zmachine",
	"stories":  "github.com/grue-lab/grue/game/stories",
	"agent":    "github.com/grue-lab/grue/agent",
	"llm":      "github.com/grue-lab/grue/agent/llm",
	"memory":   "github.com/grue-lab/grue/agent/memory",
	"tools":    "github.com/grue-lab/grue/agent/tools",
	"harness":  "github.com/grue-lab/grue/harness",
}

// help is the workbench's paragraph of :help.
const help = `The session's game is the variable g (a *game.Game): g.Step("open
mailbox"), g.Info(), g.Map(). The agent's episode is ep (a
*harness.Episode on its own copy of the game): ep.Step(ctx), ep.Run(ctx,
20), ep.Prompt(ctx), alt, _ := ep.Fork(), ep.Agent.System, ep.Agent.History;
ctx is the running cell's context, which Ctrl-C cancels.`

// Options configure a workbench session.
type Options struct {
	// REPL configures the notebook: its output and input, os.Args, the
	// width. The workbench sets its Symbols, Preload, Docs, Help and
	// Setup, and runs a Setup given here after its own.
	REPL repl.Options
	// Game is the story that the session's game (the variable g) plays:
	// a name or path as game.Open takes it, "" for the default story.
	Game string
	// Seed seeds the game's random numbers; 0 means 1.
	Seed int64
	// NoGame leaves the session without a game (and without g), and
	// without an agent episode.
	NoGame bool
	// Model and BaseURL choose the model of the session's agent over the
	// environment's GRUE_MODEL and OPENAI_BASE_URL (see llm.ConfigFromEnv).
	Model   string
	BaseURL string
	// Policy chooses who plays the session's episode: "llm", "random",
	// "walkthrough" or "explorer" (harness.PolicyNames). "" means the model
	// when one is configured, else the explorer baseline; "llm" without a
	// model is an error, and so is an endpoint or a model named without a
	// model that can be used: a baseline plays only when none is
	// configured at all.
	Policy string
	// NoEpisode leaves the session without an agent episode (and without
	// ep): :play then plays in g.
	NoEpisode bool
	// Version is grue's version, which :save records in a notebook's
	// header.
	Version string
	// TrustEndpoint lets the header of a notebook being replayed choose
	// the agent's endpoint (base_url), which receives the user's API
	// key. Without it, a header's base_url other than the user's own
	// ($OPENAI_BASE_URL) is refused: a notebook from someone else must
	// not send the key to a server of theirs (grue run --trust-endpoint).
	TrustEndpoint bool
}

// Session is a notebook session with the workbench: a *repl.Session
// whose game and episode the workbench keeps.
type Session struct {
	*repl.Session
	b *bench
}

// New starts a workbench session: the interpreter with grue's bindings,
// the preloaded packages, the game g and the episode ep.
func New(opts Options) (*Session, error) {
	w := &Session{}
	ro := opts.replOptions(func(b *bench) {
		if w.b == nil {
			w.b = b // this session's; a notebook that :run runs starts its own
		}
	})
	s, err := repl.New(ro)
	if err != nil {
		return nil, err
	}
	w.Session = s
	return w, nil
}

// RunFile runs a script or a notebook as repl.RunFile does, with grue's
// bindings; a notebook runs in a fresh workbench session that opts
// configure.
func RunFile(ctx context.Context, path string, args []string, opts Options) error {
	return repl.RunFile(ctx, path, args, opts.replOptions(nil))
}

// Game is the session's game: what g held at the start, or after :reset.
// Nil with Options.NoGame.
func (s *Session) Game() *game.Game { return s.b.game }

// Episode returns the session's current agent episode: what the variable
// ep holds, or the episode the session started with when ep holds none.
// It is nil only for a session without an episode (Options.NoEpisode,
// Options.NoGame).
func (s *Session) Episode() *harness.Episode { return s.b.current(s.Session) }

// Player says who plays the session's episode: "model: gpt-4o-mini", or
// "policy: explorer (no model configured: ...)". It is "" for a session
// without an episode.
func (s *Session) Player() string { return s.b.player }

// replOptions are the notebook's options for a workbench session:
// grue's bindings and docs, the preloaded packages, and a Setup that
// gives each session a bench of its own, which started (when not nil)
// hears of.
func (o Options) replOptions(started func(*bench)) repl.Options {
	ro := o.REPL
	var cur *bench // the session's, once Setup has run
	ro.Symbols = symbols(func() *bench { return cur })
	ro.Preload = Preloaded
	ro.Docs = docs{}
	ro.Help = help
	more := ro.Setup
	ro.Setup = func(s *repl.Session) error {
		b := &bench{opts: o}
		if err := b.opts.fromNotebook(s.NotebookMeta()); err != nil {
			return err
		}
		if b.opts.Seed == 0 {
			b.opts.Seed = 1
		}
		b.install(s)
		cur = b
		if started != nil {
			started(b)
		}
		if more != nil {
			return more(s)
		}
		return nil
	}
	return ro
}

// fromNotebook fills in the options left out (the flags not given) from
// the header of the notebook a session replays: its game, seed, policy,
// model and endpoint.
func (o *Options) fromNotebook(meta []repl.Meta) error {
	for _, m := range meta {
		switch m.Key {
		case "game":
			if o.Game == "" {
				o.Game = m.Value
			}
		case "seed":
			seed, err := strconv.ParseInt(m.Value, 10, 64)
			if err != nil {
				return fmt.Errorf("the notebook's seed %q: %w", m.Value, err)
			}
			if o.Seed == 0 {
				o.Seed = seed
			}
		case "policy":
			if o.Policy == "" {
				o.Policy = m.Value
			}
		case "model":
			if o.Model == "" {
				o.Model = m.Value
			}
		case "base_url":
			if o.BaseURL != "" || m.Value == "" {
				continue
			}
			own := strings.TrimSuffix(os.Getenv("OPENAI_BASE_URL"), "/")
			if !o.TrustEndpoint && strings.TrimSuffix(m.Value, "/") != own {
				return fmt.Errorf("the notebook's header names the endpoint %s (base_url), which would receive your API key: run it with --trust-endpoint if you trust that server, with --base-url URL to choose your own, or remove the line", llm.RedactURL(m.Value))
			}
			o.BaseURL = m.Value
		}
	}
	return nil
}

// docs documents grue's bound packages from bindings' doc comments.
type docs struct{}

func (docs) Doc(importPath, name string) (repl.Doc, bool) {
	d, ok := bindings.DocOf(importPath, name)
	return repl.Doc(d), ok
}

func (docs) Symbols(importPath string) []repl.Doc {
	ds := bindings.Docs(importPath)
	out := make([]repl.Doc, len(ds))
	for i, d := range ds {
		out[i] = repl.Doc(d)
	}
	return out
}

// bench is the workbench's state in one session: the game and episode it
// started with (and after each :reset), the episodes it must close.
type bench struct {
	opts    Options
	game    *game.Game
	episode *harness.Episode   // the episode the session started (or :reset) with
	owned   []*harness.Episode // the episodes the session made, for Close
	player  string             // who plays episode, for the banner
	// policy is who plays episode ("llm", "explorer", ...); model and
	// baseURL the model and endpoint (redacted) when a model does.
	policy, model, baseURL string
	llm                    llm.Client // the session's model, nil without one
	// quiet turns off the line that runs print for each step (:quiet);
	// inMagic is set while :step or :play print steps their own way.
	quiet, inMagic bool
}

// install adds the workbench's magics to s, and its start (at New and
// each :reset) and its end (Close).
func (b *bench) install(s *repl.Session) {
	for _, m := range b.magics() {
		s.AddMagic(m)
	}
	s.AddHTML(transcriptHTML)
	s.OnReset(b.reset)
	s.OnClose(b.close)
	s.OnCell(b.follow)
}

// reset opens the session's game and starts its episode, closing the
// previous episode (nothing can reach it any more), and defines g and ep.
func (b *bench) reset(s *repl.Session) error {
	b.close()
	b.game, b.episode, b.player = nil, nil, ""
	b.policy, b.model, b.baseURL, b.llm = "", "", "", nil
	if b.opts.NoGame {
		s.SetBanner("no game")
		return nil
	}
	g, err := game.Open(b.opts.Game, game.Seed(b.opts.Seed))
	if err != nil {
		return fmt.Errorf("open game: %w", err)
	}
	b.game = g
	if err := s.DefineVar(GameVar, g); err != nil {
		return err
	}
	if !b.opts.NoEpisode {
		e, player, err := b.newEpisode()
		if err != nil {
			return err
		}
		b.episode, b.player = e, player
		b.owned = append(b.owned, e)
		if err := s.DefineVar(EpisodeVar, e); err != nil {
			return err
		}
	}
	s.SetBanner(b.banner())
	b.setMeta(s)
	return nil
}

// setMeta records the session's setup in the header that :save writes,
// which grue run reads to replay the notebook so: grue's version and VCS
// revision, the game and seed, who plays (policy, model, endpoint) and,
// for a model, where its price comes from (harness.PriceSourceOf).
func (b *bench) setMeta(s *repl.Session) {
	s.SetMeta("grue", b.opts.Version)
	name := b.opts.Game
	if name == "" {
		name = b.game.Name()
	}
	s.SetMeta("game", name)
	s.SetMeta("seed", strconv.FormatInt(b.opts.Seed, 10))
	s.SetMeta("policy", b.policy)
	s.SetMeta("model", b.model)
	s.SetMeta("base_url", b.baseURL)
	s.SetMeta("grue_revision", harness.BuildRevision())
	price := ""
	if b.llm != nil {
		price = harness.PriceSourceOf(b.llm, b.model)
	}
	s.SetMeta("price_source", price)
}

// banner says what the session holds: the game and its seed, and who
// plays the agent's episode: "game: lantern (seed 1), model: gpt-4o-mini",
// or "game: lantern (seed 1), policy: explorer (no model configured: ...)".
func (b *bench) banner() string {
	s := fmt.Sprintf("game: %s (seed %d)", b.game.Name(), b.opts.Seed)
	if b.player != "" {
		s += ", " + b.player
	}
	return s
}

// close shuts down the session's own episodes (the one it started with,
// and after each :reset). Episodes and forks that cells made are theirs to
// close.
func (b *bench) close() error {
	var err error
	for _, e := range b.owned {
		if cerr := e.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}
	b.owned = nil
	return err
}

// current is the episode that ep holds, or the one the session started
// with when ep holds none.
func (b *bench) current(s *repl.Session) *harness.Episode {
	if v, ok := s.Globals()[EpisodeVar]; ok && v.IsValid() && v.CanInterface() {
		if e, ok := v.Interface().(*harness.Episode); ok && e != nil {
			return e
		}
	}
	return b.episode
}

// currentGame is the game that g holds, or the one the session started
// with when g holds none.
func (b *bench) currentGame(s *repl.Session) *game.Game {
	if v, ok := s.Globals()[GameVar]; ok && v.IsValid() && v.CanInterface() {
		if g, ok := v.Interface().(*game.Game); ok && g != nil {
			return g
		}
	}
	return b.game
}
