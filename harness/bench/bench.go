// Package bench runs published benchmarks' protocols on grue: TALES
// (Microsoft, 2025), TextQuests (CAIS, 2025) and AgentBoard's Jericho
// tasks (HKUST, 2024), each rule read from the protocol's own source
// (Protocol.Source; the tables in tales.go name the file and commit of
// every fact).
//
// A protocol run is an ordinary experiment ([harness.Config]) played by
// harness's runner into an ordinary run directory, so that grue exp
// status, compare, export, resume, shards and Slurm work on it. What makes
// it the protocol's is the config [Plan.Config] writes: the protocol's
// games, found among the user's story files by content ([Identify]: the
// MD5 the protocol lists, so renamed files are found and another release
// of a game is reported, never played in its place), its seeds, its step
// budget, what it does at game over (TALES starts the game again and
// plays on within the budget), and no admissible commands unless asked.
// The manifest records the protocol, every game as found, and every way
// grue's run differs from the protocol's harness ([harness.Benchmark]);
// [Summarize] turns the records into the tables each protocol publishes,
// in its column names, with those differences printed under them.
package bench

import (
	"cmp"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/game/mcp"
	"github.com/grue-lab/grue/harness"
)

// The protocols' names.
const (
	TALES      = "tales"
	TextQuests = "textquests"
	AgentBoard = "agentboard"
)

// DefaultSeed is the seed grue plays a game from when the protocol's own
// seed for it is not known to grue (the run says so).
const DefaultSeed = 1

// Game is one of a protocol's games.
type Game struct {
	// Name is the protocol's name for the game.
	Name string
	// File is the file name the protocol gives ("" when it gives none);
	// MD5 the MD5 of the file it plays ("" when it lists none: the game
	// is then found by name).
	File string
	MD5  string
	// MaxScore is the maximum the protocol states (0: none stated).
	MaxScore int
}

// Protocol is a published benchmark's protocol.
type Protocol struct {
	// Name is how grue bench names it; Title what it is, in a line.
	Name  string
	Title string
	// Source cites the repository, files and commits its rules were read
	// from.
	Source string
	// Games are its games.
	Games []Game
	// Steps is the step budget of a game.
	Steps int
	// Seeds are its default game seeds, for games without a seed of
	// their own (GameSeed).
	Seeds []int64
	// GameSeed returns the protocol's own seed for a game, if it has one
	// and grue knows it.
	GameSeed func(name string) (int64, bool)
	// OnGameOver is harness.GameOverStop or harness.GameOverRestart.
	OnGameOver string
	// Rules are the protocol's rules as grue plays them, one sentence
	// each, for --list and docs/benchmarks.md.
	Rules []string
	// Deviations are the ways every grue run of the protocol differs
	// from its harness.
	Deviations []string
	// Measure names what counts, as the protocol's summary says it.
	Measure string
	// HighScore says that what counts is the highest score reached at
	// any step, not the last (grue exp compare --score high).
	HighScore bool
}

// Protocols returns the protocols grue bench plays, in the order --list
// shows them: a new slice each call.
func Protocols() []*Protocol {
	byName := map[string]Game{}
	for _, g := range talesGames {
		byName[g.Name] = g
	}
	var ab []Game
	for _, n := range agentboardGames {
		ab = append(ab, byName[n])
	}
	return []*Protocol{
		{
			Name:   TALES,
			Title:  "TALES (Microsoft, 2025): the Jericho games, 100 steps, the highest normalised score reached",
			Source: talesSource,
			Games:  slices.Clone(talesGames),
			Steps:  100,
			Seeds:  []int64{DefaultSeed},
			GameSeed: func(name string) (int64, bool) {
				s, ok := jerichoSeeds[name]
				return s, ok
			},
			OnGameOver: harness.GameOverRestart,
			HighScore:  true,
			Measure:    "Normalized Score: the highest score reached at any step over the game's maximum; the mean over games",
			Rules: []string{
				"the game list and each file's MD5 are tales/jericho/games.json's; a file is identified by its MD5, whatever its name",
				"the step budget is 100 (benchmark.py --nb-steps default)",
				"each game is played from its game-specific seed (benchmark.py --game-seed default: Jericho's seed for the game); --seeds overrides",
				"when the game ends within the budget it is reset and played on, the budget counting on; the run stops early only on a win at the game's maximum",
				"what counts is the highest score reached at any point over the game's maximum (norm_score = highscore / max_score)",
				"admissible commands are off unless asked (--admissible-commands); one action per step",
			},
			Deviations: []string{
				"the agent's next observation after a reset is the ended game's last text, \"-= Restarting =-\" and the new opening, as benchmark.py builds it; grue's agent keeps its memory across the reset (TALES calls agent.reset, whose effect is the agent's own)",
				"a reset starts the game again from its seed (grue's reset_game); TALES's env.reset() after a game over passes no seed",
				"Jericho's won/lost are grue's own reading of the game's ending (GameCompleted, Victory); a game grue cannot tell the end of plays on to the budget",
			},
		},
		{
			Name:       TextQuests,
			Title:      "TextQuests (CAIS, 2025): 25 Infocom games, 500 steps, points as a share of the maximum",
			Source:     textquestsSource,
			Games:      slices.Clone(textquestsGames),
			Steps:      500,
			Seeds:      []int64{1},
			OnGameOver: harness.GameOverStop,
			HighScore:  true,
			Measure:    "points: the highest in-game score reached as a percentage of the game's maximum; the mean over games",
			Rules: []string{
				"the 25 games and their maximum scores are game_info.py's MAX_SCORES",
				"the step budget is 500 (max_steps, upstream default)",
				"the Z-machine seed is 1 (upstream uses 1); --seeds overrides",
				"points is the highest in-game score reached, as a percentage of the game's maximum",
				"no clues (the headline setting); one action per step",
			},
			Deviations: []string{
				"TextQuests plays files recompiled by the Jiminy Cricket project (from its dataset); grue plays the files you bring, found by name, and cannot check that they are those",
				"progress (the leaderboard's Progress: hand-picked checkpoints from the dataset's game_progress.json) is unknown to grue: reported unknown",
				"harm (the moral annotations of the recompiled files) is unknown to grue: reported unknown",
				"TextQuests's agent may type \"restore N\" to go back to step N and \"restart\"; grue's episode ends at game over",
				"TextQuests ends an episode at the maximum score; grue plays on to the game's end or the budget (the points are the same)",
				"TextQuests's system prompt carries the game's feelies; grue's prompt is its own agent's",
			},
		},
		{
			Name:       AgentBoard,
			Title:      "AgentBoard (HKUST, 2024), its Jericho tasks: 20 games, 30 steps",
			Source:     agentboardSource,
			Games:      ab,
			Steps:      30,
			Seeds:      []int64{DefaultSeed},
			OnGameOver: harness.GameOverStop,
			Measure:    "Success Rate: the share of games won; Progress Rate (subgoals) as AgentBoard's labels define it",
			Rules: []string{
				"the 20 games are env.jericho.game_name of eval_configs/main_results_all_tasks.yaml",
				"the step budget is 30 (run.max_num_steps)",
				"one action per step; the game ends the episode",
			},
			Deviations: []string{
				"AgentBoard lists no MD5: grue identifies its games by the MD5 TALES's games.json gives the same Jericho game",
				"Progress Rate needs AgentBoard's subgoal labels (data/jericho/test.jsonl), which grue does not have: reported unknown",
				"AgentBoard's seed for the Jericho games was not read: grue plays seed 1",
				"AgentBoard's agent may ask \"check valid actions\" and \"inventory\" as actions; grue's agent asks its tools",
			},
		},
	}
}

// Lookup returns the protocol called name.
func Lookup(name string) (*Protocol, error) {
	var names []string
	for _, p := range Protocols() {
		if strings.EqualFold(p.Name, name) {
			return p, nil
		}
		names = append(names, p.Name)
	}
	return nil, fmt.Errorf("no benchmark protocol %q (protocols: %s)", name, strings.Join(names, ", "))
}

// GameNames maps the story files a bench run played (its records'
// games) to the protocol's names for them; nil for a run that is not a
// bench run.
func GameNames(m *harness.Manifest) map[string]string {
	if m == nil || m.Benchmark == nil {
		return nil
	}
	out := map[string]string{}
	for _, g := range m.Benchmark.Games {
		if g.Status == harness.GamePlayed {
			out[g.File] = g.Name
		}
	}
	return out
}

// Names returns the protocols' names.
func Names() []string {
	var out []string
	for _, p := range Protocols() {
		out = append(out, p.Name)
	}
	return out
}

// Bounds of a games folder (Identify): it is the user's, but it is read
// whole, so a folder past these is refused rather than read for hours.
const (
	MaxFiles     = 10_000
	MaxDepth     = 4
	MaxStorySize = 16 << 20
)

// storyExts are the story file extensions Identify looks at.
var storyExts = []string{".z1", ".z2", ".z3", ".z4", ".z5", ".z6", ".z7", ".z8", ".dat", ".zblorb", ".zlb"}

// found is a story file in the games folder.
type found struct {
	path, md5 string
}

// scan lists the story files under dir (MaxDepth folders down) with
// their MD5s. Symbolic links are not followed.
func scan(dir string) ([]found, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("games folder: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("games folder %s: not a folder", dir)
	}
	var out []found
	n := 0
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.IsDir() {
			if rel != "." && strings.Count(rel, string(filepath.Separator)) >= MaxDepth-1 {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !slices.Contains(storyExts, strings.ToLower(filepath.Ext(path))) {
			return nil
		}
		if n++; n > MaxFiles {
			return fmt.Errorf("more than %d story files", MaxFiles)
		}
		sum, err := md5File(path)
		if err != nil {
			return err
		}
		out = append(out, found{path, sum})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("games folder %s: %w", dir, err)
	}
	return out, nil
}

// md5File is the hex MD5 of the file at path, at most MaxStorySize long.
func md5File(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := md5.New()
	n, err := io.Copy(h, io.LimitReader(f, MaxStorySize+1))
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if n > MaxStorySize {
		return "", fmt.Errorf("%s: more than %d bytes: not a story file", path, MaxStorySize)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// stem is a file name without its extension, in lower case.
func stem(path string) string {
	b := filepath.Base(path)
	return strings.ToLower(strings.TrimSuffix(b, filepath.Ext(b)))
}

// Identify finds each of p's games among the story files under dir. A
// game with an MD5 is the file with that MD5, whatever its name (played);
// failing that, a file named as the game (its name or the protocol's
// file name) is another release and is reported as such (GameDifferent,
// not played); else the game is missing. A game without an MD5 is the
// file named as it. Seeds are the protocol's (the game's own when it has
// one), or seeds when given.
func Identify(p *Protocol, dir string, seeds []int64) ([]harness.BenchmarkGame, error) {
	files, err := scan(dir)
	if err != nil {
		return nil, err
	}
	byMD5 := map[string]string{}
	byName := map[string]found{}
	for _, f := range files {
		if _, dup := byMD5[f.md5]; !dup {
			byMD5[f.md5] = f.path
		}
		if _, dup := byName[stem(f.path)]; !dup {
			byName[stem(f.path)] = f
		}
	}
	var out []harness.BenchmarkGame
	for _, g := range p.Games {
		bg := harness.BenchmarkGame{Name: g.Name, WantMD5: g.MD5, MaxScore: g.MaxScore, Status: harness.GameMissing}
		named, hasName := byName[strings.ToLower(g.Name)]
		if !hasName && g.File != "" {
			named, hasName = byName[stem(g.File)]
		}
		switch path, ok := byMD5[g.MD5]; {
		case g.MD5 != "" && ok:
			bg.Status, bg.File, bg.MD5 = harness.GamePlayed, path, g.MD5
			if stem(path) != strings.ToLower(g.Name) && stem(path) != stem(g.File) {
				bg.Note = "identified by its MD5 (renamed file)"
			}
		case g.MD5 != "" && hasName:
			bg.Status, bg.File, bg.MD5 = harness.GameDifferent, named.path, named.md5
			bg.Note = fmt.Sprintf("%s is not the file the protocol plays (MD5 %s, the protocol's %s): another release; not played", filepath.Base(named.path), named.md5, g.MD5)
		case g.MD5 == "" && hasName:
			bg.Status, bg.File, bg.MD5 = harness.GamePlayed, named.path, named.md5
			bg.Note = "found by file name: the protocol lists no MD5"
		default:
			bg.Note = "no story file with the protocol's MD5 or the game's name"
			if g.MD5 == "" {
				bg.Note = "no story file named as the game"
			}
		}
		if bg.Status == harness.GamePlayed {
			bg.Seeds = p.seedsFor(g.Name, seeds)
		}
		out = append(out, bg)
	}
	return out, nil
}

// seedsFor returns the seeds game name is played from: seeds when given,
// else the game's own, else the protocol's.
func (p *Protocol) seedsFor(name string, seeds []int64) []int64 {
	if len(seeds) > 0 {
		return slices.Clone(seeds)
	}
	if p.GameSeed != nil {
		if s, ok := p.GameSeed(name); ok {
			return []int64{s}
		}
	}
	return slices.Clone(p.Seeds)
}

// Options are how a protocol run is played: who plays, and the
// overrides the user gave.
type Options struct {
	// Variant is who plays: its name and policy (llm, a baseline) and,
	// for a model, the model settings. Its Tools are set by Config.
	Variant harness.Variant
	// Seeds, when given, replace the protocol's seeds for every game.
	Seeds []int64
	// Steps, when positive, replaces the protocol's budget (a deviation
	// the run records).
	Steps int
	// Admissible gives the agent the valid_actions tool (the protocol's
	// admissible commands), off by default.
	Admissible bool
}

// Plan is a protocol run about to be played: the games found, the
// config, and the manifest's Benchmark.
type Plan struct {
	Protocol  *Protocol
	Config    *harness.Config
	Benchmark *harness.Benchmark
}

// ErrNoGames is returned by NewPlan when none of the protocol's games is
// among the story files: there is nothing to play.
var ErrNoGames = errors.New("none of the protocol's games is in the games folder")

// NewPlan identifies p's games under dir and makes the experiment that
// plays those found by p's rules, with opts.
func NewPlan(p *Protocol, dir string, opts Options) (*Plan, error) {
	games, err := Identify(p, dir, opts.Seeds)
	if err != nil {
		return nil, err
	}
	b := &harness.Benchmark{Protocol: p.Name, Source: p.Source, Games: games, Deviations: slices.Clone(p.Deviations)}
	cfg := &harness.Config{Name: p.Name, Description: p.Title, MaxSteps: p.Steps, OnGameOver: p.OnGameOver, GameSeeds: map[string][]int64{}}
	if opts.Steps > 0 && opts.Steps != p.Steps {
		cfg.MaxSteps = opts.Steps
		b.Deviations = append(b.Deviations, fmt.Sprintf("the step budget is %d (--steps), not the protocol's %d", opts.Steps, p.Steps))
	}
	if len(opts.Seeds) > 0 {
		b.Deviations = append(b.Deviations, fmt.Sprintf("seeds %s (--seeds), not the protocol's", formatSeeds(opts.Seeds)))
	}
	for i := range games {
		g := &games[i]
		if g.Status != harness.GamePlayed {
			continue
		}
		g.Unread = unread(g.File, g.Seeds, g.MaxScore)
		for _, u := range g.Unread {
			b.Deviations = append(b.Deviations, unreadDeviation(g.Name, u))
		}
		cfg.Games = append(cfg.Games, g.File)
		cfg.GameSeeds[g.File] = g.Seeds
		if p.GameSeed != nil && len(opts.Seeds) == 0 {
			if _, ok := p.GameSeed(g.Name); !ok {
				b.Deviations = append(b.Deviations, fmt.Sprintf("%s: the protocol's own seed for this game is not known to grue: played from seed %s", g.Name, formatSeeds(g.Seeds)))
			}
		}
	}
	if len(cfg.Games) == 0 {
		return &Plan{Protocol: p, Benchmark: b}, fmt.Errorf("%s: %w (%s)", p.Name, ErrNoGames, dir)
	}
	v := opts.Variant
	if v.Name == "" {
		v.Name = cmp.Or(v.Policy, harness.PolicyLLM)
	}
	// The agent acts (play_action) and reads the game's state (memory:
	// its text, score and moves, which TALES's info also gives);
	// admissible commands are the valid_actions tool: off unless asked.
	v.Tools = []string{mcp.ToolPlayAction, mcp.ToolMemory}
	if opts.Admissible {
		v.Tools = append(v.Tools, mcp.ToolValidActions)
		b.Deviations = append(b.Deviations, "admissible commands on (--admissible-commands): the agent may ask the valid_actions tool, grue's list of the actions that change the world, not Jericho's")
	}
	if strings.EqualFold(v.Policy, harness.PolicyRandom) && !opts.Admissible && p.Name == TALES {
		b.Deviations = append(b.Deviations, "grue's random baseline plays a random compass direction when it has no admissible commands; TALES's random agent (agents/random.py, commit 0938ed9d1fe213ea5877e61e7bd40673c746908f) draws from 15 commands (the directions, look, inventory, take/drop/eat/attack a word of the text, wait, YES)")
	}
	cfg.Variants = []harness.Variant{v}
	cfg.Seeds = slices.Clone(p.Seeds)
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name, err)
	}
	return &Plan{Protocol: p, Config: cfg, Benchmark: b}, nil
}

// unread opens the story file at path from its first seed and says what
// grue cannot read of it (harness.UnreadMaxScore, harness.UnreadEnding):
// the maximum only when the protocol states none (stated 0). A file that
// does not open is left to the run, which reports it.
func unread(path string, seeds []int64, stated int) []string {
	var opts []game.Option
	if len(seeds) > 0 {
		opts = append(opts, game.Seed(seeds[0]))
	}
	g, err := game.Open(path, opts...)
	if err != nil {
		return nil
	}
	// A title screen waits for a key; the game is read at its first
	// command prompt, as grue games reads it.
	for i := 0; i < 5 && g.KeyExpected(); i++ {
		if _, err := g.Step(""); err != nil {
			return nil
		}
	}
	var out []string
	s := g.Scoring()
	if stated <= 0 && s.MaxScore <= 0 {
		out = append(out, harness.UnreadMaxScore)
	}
	if _, known := g.Entry(); !known && s.EndGlobal < 0 {
		out = append(out, harness.UnreadEnding)
	}
	return out
}

// unreadDeviation is the manifest's sentence for what grue could not
// read of game name (harness.BenchmarkGame.Unread).
func unreadDeviation(name, what string) string {
	switch what {
	case harness.UnreadMaxScore:
		return fmt.Sprintf("%s: %s: its normalised score is unknown and left out of the mean", name, unreadMaxScoreText)
	case harness.UnreadEnding:
		return fmt.Sprintf("%s: grue knows no end flag of the game (the catalog does not know it and it has no Inform deadflag grue found): it tells the game's end only from its text (an end banner, a final question, the machine halting), and a game over it misses plays on to the budget", name)
	}
	return fmt.Sprintf("%s: grue could not read its %s", name, what)
}

// unreadMaxScoreText is how the summary and the manifest say that grue
// could not read a game's maximum.
const unreadMaxScoreText = "grue could not read the game's maximum score"

func formatSeeds(s []int64) string {
	var parts []string
	for _, x := range s {
		parts = append(parts, fmt.Sprint(x))
	}
	return strings.Join(parts, ",")
}
