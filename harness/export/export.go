// Package export writes a grue run directory in the formats other tools
// read, so that results from grue sit next to those of other harnesses:
//
//   - [FormatTALES]: the per-step JSON Lines and the summary that TALES
//     (microsoft/tale-suite, benchmark.py) writes for each game;
//   - [FormatATIF]: Harbor's Agent Trajectory Interchange Format, one
//     trajectory file per episode;
//   - [FormatInspect]: Inspect's JSON eval log (inspect_ai), one log per
//     variant with a sample per episode.
//
// Each format's file says where its field names come from. The run
// directory is read as grue exp compare reads it (a sharded run's shards
// merged), every episode's trajectory file with it.
package export

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"slices"
	"strings"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/atomicfile"
	"github.com/grue-lab/grue/internal/lazyregexp"
)

// The names of the formats Export writes.
const (
	FormatTALES   = "tales"
	FormatATIF    = "atif"
	FormatInspect = "inspect"
)

// Format is one format Export writes: the one list of them that grue exp
// export's flag, help and completion read.
type Format struct {
	// Name is what --format gives.
	Name string
	// Doc says what the format writes, in lines short enough for help.
	Doc string
	// write writes run r into folder out and returns the files written.
	write func(r *Run, out string) ([]string, error)
}

// Formats returns the formats Export writes, in the order help lists them.
// A new format is its file and one entry here.
func Formats() []Format {
	return []Format{
		{Name: FormatTALES, write: writeTALES, Doc: `TALES (microsoft/tale-suite): for each episode, the per-step
rollout tales_VARIANT/GAME/a0_sSEED_stepsN.jsonl and its
summary .json, as TALES's benchmark.py writes them`},
		{Name: FormatATIF, write: writeATIF, Doc: `Harbor's Agent Trajectory Interchange Format (ATIF-v1.6): one
trajectory VARIANT/GAME_SEED.json per episode`},
		{Name: FormatInspect, write: writeInspect, Doc: `Inspect's JSON eval log (inspect_ai, log version 2): one log
per variant, a sample per episode, for inspect view`},
	}
}

// FormatNames returns the names of Formats, in order.
func FormatNames() []string {
	var names []string
	for _, f := range Formats() {
		names = append(names, f.Name)
	}
	return names
}

// Export writes run directory dir in format (one of [FormatNames]) into
// folder out, which it makes, and returns the files it wrote, in order. An
// episode whose trajectory file is missing is exported from its record
// alone (no steps); one whose trajectory cannot be read stops the export
// with an error naming the file.
func Export(dir, format, out string) ([]string, error) {
	formats := Formats()
	i := slices.IndexFunc(formats, func(f Format) bool { return f.Name == format })
	if i < 0 {
		return nil, fmt.Errorf("export: unknown format %q (valid: %s)", format, strings.Join(FormatNames(), ", "))
	}
	write := formats[i].write
	r, err := Load(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	files, err := write(r, out)
	if err != nil {
		return files, fmt.Errorf("export %s as %s: %w", dir, format, err)
	}
	return files, nil
}

// Run is a run directory as the exporters read it.
type Run struct {
	Dir string
	// Manifest is the run's manifest; nil for a directory without one
	// (an eval's).
	Manifest *harness.Manifest
	// Episodes are the run's episodes, by variant, game and seed.
	Episodes []Episode
}

// Episode is one record and its trajectory (nil when the file is
// missing).
type Episode struct {
	Record     harness.EpisodeRecord
	Trajectory *harness.Trajectory
}

// Load reads run directory dir: its manifest, its records (a sharded
// run's merged) and each record's trajectory.
func Load(dir string) (*Run, error) {
	r := &Run{Dir: dir}
	var rs *harness.ResultSet
	if harness.IsSharded(dir) {
		m, err := harness.MergeShards(dir)
		if err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		r.Manifest, rs = m.Manifest, m.Results
	} else {
		var err error
		if rs, err = harness.LoadResults(dir); err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		m, err := harness.ReadManifest(dir)
		switch {
		case err == nil:
			r.Manifest = m
		case !errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("export: %w", err)
		}
	}
	if rs.Len() == 0 {
		return nil, fmt.Errorf("export: %s holds no episode records", dir)
	}
	recs := slices.Clone(rs.Records)
	slices.SortStableFunc(recs, func(a, b harness.EpisodeRecord) int {
		return strings.Compare(a.Key().String(), b.Key().String())
	})
	for _, rec := range recs {
		ep := Episode{Record: rec}
		if rec.Trajectory != "" {
			tr, err := harness.ReadTrajectory(dir, rec)
			switch {
			case err == nil:
				ep.Trajectory = tr
			case !errors.Is(err, fs.ErrNotExist):
				return nil, fmt.Errorf("export: %w", err)
			}
		}
		r.Episodes = append(r.Episodes, ep)
	}
	return r, nil
}

// Name is the experiment's name: the manifest's, else the directory's.
func (r *Run) Name() string {
	if r.Manifest != nil && r.Manifest.Config != nil && r.Manifest.Config.Name != "" {
		return r.Manifest.Config.Name
	}
	return filepath.Base(filepath.Clean(r.Dir))
}

// variant returns the config's variant named name, if the manifest has it.
func (r *Run) variant(name string) (harness.Variant, bool) {
	if r.Manifest == nil || r.Manifest.Config == nil {
		return harness.Variant{}, false
	}
	for _, v := range r.Manifest.Config.Variants {
		if v.Name == name {
			return v, true
		}
	}
	return harness.Variant{}, false
}

// maxSteps is the experiment's step limit, or the most steps an episode
// took when the manifest does not say.
func (r *Run) maxSteps() int {
	if r.Manifest != nil && r.Manifest.Config != nil && r.Manifest.Config.MaxSteps > 0 {
		return r.Manifest.Config.MaxSteps
	}
	n := 0
	for _, ep := range r.Episodes {
		n = max(n, ep.Record.Steps)
	}
	return n
}

// steps returns the episode's steps, none when it has no trajectory.
func (ep Episode) steps() []agent.Step {
	if ep.Trajectory == nil || ep.Trajectory.RunResult == nil {
		return nil
	}
	return ep.Trajectory.History
}

// opening returns the game's text before the first step, "" when the
// trajectory does not have it.
func (ep Episode) opening() string {
	if ep.Trajectory == nil || ep.Trajectory.RunResult == nil {
		return ""
	}
	return ep.Trajectory.Opening
}

// policy names what chose the episode's actions: the policy the
// trajectory's steps name (walkthrough, random, explorer), else llm when
// a model answered, else the variant's policy as the manifest has it;
// "unknown" when none of them says.
func (ep Episode) policy(r *Run) string {
	for _, s := range ep.steps() {
		if s.Policy != "" {
			return s.Policy
		}
	}
	if ep.Record.Model != "" {
		return harness.PolicyLLM
	}
	if v, ok := r.variant(ep.Record.Variant); ok && v.Policy != "" {
		return strings.ToLower(v.Policy)
	}
	return "unknown"
}

// system returns the system prompt the model was sent, "" for a policy.
func (ep Episode) system() string {
	for _, s := range ep.steps() {
		if len(s.Prompt) > 0 && s.Prompt[0].Role == "system" {
			return s.Prompt[0].Content
		}
	}
	return ""
}

// actionText is what a step did, as a text game's command: the command of
// play_action, else the tool and its arguments.
func actionText(s agent.Step) string {
	if a, ok := s.Args["action"].(string); ok && s.Tool == agent.DefaultTool {
		return a
	}
	if len(s.Args) == 0 {
		return s.Tool
	}
	b, _ := json.Marshal(s.Args)
	return s.Tool + " " + string(b)
}

// callID is the step's tool call ID, or one made from its number when
// the call was not a native one.
func callID(s agent.Step) string {
	if s.CallID != "" {
		return s.CallID
	}
	return fmt.Sprintf("call_%d", s.Step)
}

// unsafeName matches what may not go in a file name.
var unsafeName = lazyregexp.New(`[^A-Za-z0-9._-]+`)

// fileName makes s safe as a file name.
func fileName(s string) string {
	s = unsafeName.ReplaceAllString(s, "_")
	if s == "" || s == "." || s == ".." {
		return "_"
	}
	return s
}

// gameName is a game as a file name: a story path's base name without
// its extension.
func gameName(game string) string {
	if strings.ContainsAny(game, `/\`) {
		game = strings.TrimSuffix(filepath.Base(game), filepath.Ext(game))
	}
	return fileName(game)
}

// writeJSON writes v as indented JSON to path, atomically.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, append(b, '\n'), 0o644)
}
