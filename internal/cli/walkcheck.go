package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/game/validactions"
	"github.com/grue-lab/grue/internal/boundedfile"
)

// walkthroughLimit bounds a walkthrough or reference transcript file.
const walkthroughLimit = 8 << 20

// walkCheckFlags are grue games STORY --check-walkthrough's.
type walkCheckFlags struct {
	file      string
	seed      int64
	reference string
	actions   bool
}

// walkCheckReport is what --check-walkthrough --json prints.
type walkCheckReport struct {
	Story  string                  `json:"story"`
	Seed   int64                   `json:"seed"`
	States []game.WalkthroughState `json:"states"`
	// The check's counts (game.WalkthroughCheck).
	Headings    int  `json:"headings"`
	LocationsOK int  `json:"locations_ok"`
	ScoreErrors int  `json:"score_errors"`
	EndErrors   int  `json:"end_errors"`
	Ended       bool `json:"ended"`
	Won         bool `json:"won"`
	OK          bool `json:"ok"`
	// Actions is the valid-action coverage, with --valid-actions.
	Actions *actionCoverage `json:"valid_actions,omitempty"`
}

// actionCoverage is how often the walkthrough's next command was among
// the valid actions of the state it was played from, or one of them led
// to the same world, and what finding them cost a state.
type actionCoverage struct {
	States  int `json:"states"`
	Covered int `json:"covered"`
	// Changing counts the states whose next command changes the world
	// (its objects or score, otherwise than waiting a turn does: what
	// valid actions count as a change), CoveredChanging those of them
	// where it was covered: the measure, since a valid action is
	// by definition a command that changes the world.
	Changing        int      `json:"world_changing"`
	CoveredChanging int      `json:"covered_changing"`
	Missed          []string `json:"missed,omitempty"` // "N: command" of the world-changing states, the first 20
	MedianMS        float64  `json:"median_ms"`
	P90MS           float64  `json:"p90_ms"`
	MaxMS           float64  `json:"max_ms"`
	// CutShort counts the states whose call ran out of its time budget.
	CutShort int `json:"cut_short"`
}

// checkWalkthrough replays f.file on story and compares each state with a
// reference transcript: f.reference, or dfrotz's, run here with the same
// seed.
func checkWalkthrough(cmd *cobra.Command, story string, f walkCheckFlags, asJSON bool) error {
	data, err := boundedfile.ReadFile(f.file, walkthroughLimit)
	if err != nil {
		return UsageError{fmt.Errorf("--check-walkthrough: %w", err)}
	}
	var cmds []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			cmds = append(cmds, l)
		}
	}
	if len(cmds) == 0 {
		return UsageError{fmt.Errorf("--check-walkthrough %s: no commands (one a line; # starts a comment)", f.file)}
	}
	path, builtIn := story, false
	if p, err := game.Find(story); err == nil {
		path = p
	} else if !strings.EqualFold(story, stories.DefaultName) {
		return err
	} else {
		builtIn = true // the built-in story: dfrotz gets a copy of its bytes
	}
	var transcript []byte
	if f.reference != "" {
		if transcript, err = boundedfile.ReadFile(f.reference, walkthroughLimit); err != nil {
			return UsageError{fmt.Errorf("--reference: %w", err)}
		}
	} else if transcript, err = dfrotzTranscript(cmd, path, builtIn, f.seed, cmds); err != nil {
		return err
	}
	ref := game.SplitTranscript(string(transcript))

	g, err := game.Open(path, game.Seed(f.seed))
	if err != nil {
		return err
	}
	var cov *actionCoverage
	if f.actions {
		if cov, err = coverage(path, f.seed, cmds); err != nil {
			return err
		}
	}
	c, err := game.CheckWalkthrough(g, cmds, ref)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(walkCheckReport{Story: path, Seed: f.seed, States: c.States, Headings: c.Headings,
			LocationsOK: c.LocationsOK, ScoreErrors: c.ScoreErrors, EndErrors: c.EndErrors, Ended: c.Ended,
			Won: c.Won, OK: c.OK(), Actions: cov}); err != nil {
			return err
		}
	} else {
		for i, s := range c.States {
			var what []string
			if !s.LocationOK {
				what = append(what, fmt.Sprintf("location %q, the reference's heading %q", s.Location, s.Heading))
			}
			if !s.ScoreOK {
				what = append(what, fmt.Sprintf("score %d, the reference prints %d", s.Score, s.RefScore))
			}
			if !s.EndOK {
				what = append(what, fmt.Sprintf("game over %v, the reference's %v", s.Done, s.RefEnd))
			}
			if len(what) > 0 {
				fmt.Fprintf(out, "%d %q: %s\n", i+1, s.Command, strings.Join(what, "; "))
			}
		}
		fmt.Fprintln(out, c)
		if c.Headings == 0 {
			fmt.Fprintln(out, "location not checked: the reference prints no room headings (dfrotz prints no bold text, and Inform games print their headings in bold)")
		}
		if cov != nil {
			fmt.Fprintf(out, "valid actions: the next command among them at %d of %d states (%.0f%%), at %d of the %d where it changes the world (%.0f%%); per state median %.1f ms, p90 %.1f ms, max %.1f ms\n",
				cov.Covered, cov.States, 100*float64(cov.Covered)/float64(max(cov.States, 1)),
				cov.CoveredChanging, cov.Changing, 100*float64(cov.CoveredChanging)/float64(max(cov.Changing, 1)),
				cov.MedianMS, cov.P90MS, cov.MaxMS)
			if cov.CutShort > 0 {
				fmt.Fprintf(out, "valid actions: %d calls cut short by the time budget (%v)\n", cov.CutShort, validactions.DefaultBudget)
			}
			for _, m := range cov.Missed {
				fmt.Fprintf(out, "  not among them, though it changes the world: %s\n", m)
			}
		}
	}
	if !c.OK() {
		return ExitStatus{Code: 1}
	}
	return nil
}

// dfrotzTranscript runs dfrotz (Frotz's dumb interface, the reference
// interpreter grue is held to) on path (builtIn: the built-in story's
// bytes) with seed and cmds, and returns what it printed.
func dfrotzTranscript(cmd *cobra.Command, path string, builtIn bool, seed int64, cmds []string) ([]byte, error) {
	dfrotz, err := exec.LookPath("dfrotz")
	if err != nil {
		if _, serr := os.Stat("/usr/games/dfrotz"); serr == nil {
			dfrotz, err = "/usr/games/dfrotz", nil
		}
	}
	if err != nil {
		return nil, errors.New("--check-walkthrough needs a reference transcript: give --reference FILE " +
			"(dfrotz -m -p -q -s SEED -w 80 STORY < WALKTHROUGH), or install frotz for dfrotz")
	}
	dir, err := os.MkdirTemp("", "grue-walkcheck-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	abs := filepath.Join(dir, "story.z5")
	if builtIn {
		_, data := stories.Default()
		if err := os.WriteFile(abs, data, 0o600); err != nil {
			return nil, err
		}
	} else if abs, err = filepath.Abs(path); err != nil {
		return nil, err
	}
	run := exec.CommandContext(cmd.Context(), dfrotz, "-m", "-p", "-q", "-s", strconv.FormatInt(seed, 10), "-w", "80", abs)
	run.Stdin = strings.NewReader(strings.Join(cmds, "\n") + "\n")
	run.Dir = dir // a save file the walkthrough writes lands here
	var stdout, stderr bytes.Buffer
	run.Stdout, run.Stderr = &limitedWriter{w: &stdout, n: walkthroughLimit}, &limitedWriter{w: &stderr, n: 4096}
	if err := run.Run(); err != nil {
		return nil, fmt.Errorf("dfrotz: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

// coverage plays cmds on a game of its own and, before each, asks for the
// valid actions, timing each call.
func coverage(path string, seed int64, cmds []string) (*actionCoverage, error) {
	g, err := game.Open(path, game.Seed(seed))
	if err != nil {
		return nil, err
	}
	cov := &actionCoverage{}
	var times []float64
	for i, c := range cmds {
		if g.Done() {
			break
		}
		start := time.Now()
		acts, err := g.ValidActions()
		times = append(times, float64(time.Since(start).Microseconds())/1000)
		if err != nil {
			return nil, fmt.Errorf("valid actions before command %d (%q): %w", i+1, c, err)
		}
		cov.States++
		if g.ValidActionsCutShort() {
			cov.CutShort++
		}
		want := game.CanonicalCommand(c)
		covered := slices.ContainsFunc(acts, func(a string) bool { return game.CanonicalCommand(a) == want })
		if !covered {
			if covered, err = sameWorld(g, c, acts); err != nil {
				return nil, err
			}
		}
		changing, err := changesWorld(g, c)
		if err != nil {
			return nil, err
		}
		if covered {
			cov.Covered++
		}
		if changing {
			cov.Changing++
			if covered {
				cov.CoveredChanging++
			} else if len(cov.Missed) < 20 {
				cov.Missed = append(cov.Missed, fmt.Sprintf("%d: %s", i+1, c))
			}
		}
		if _, err := g.Step(c); err != nil {
			return nil, fmt.Errorf("walkthrough command %d (%q): %w", i+1, c, err)
		}
	}
	if len(times) > 0 {
		slices.Sort(times)
		cov.MedianMS, cov.P90MS, cov.MaxMS = times[len(times)/2], times[len(times)*9/10], times[len(times)-1]
	}
	return cov, nil
}

// changesWorld reports whether cmd, played from g's state, changes the
// world (WorldHash) otherwise than waiting a turn does, or ends the game.
func changesWorld(g *game.Game, cmd string) (bool, error) {
	f, err := g.Fork()
	if err != nil {
		return false, err
	}
	start, before := f.Save(), f.WorldHash()
	r, err := f.Step(cmd)
	if err != nil {
		return false, nil
	}
	after := f.WorldHash()
	if r.Done {
		return true, nil
	}
	if err := f.Restore(start); err != nil {
		return false, err
	}
	if _, err := f.Step("wait"); err != nil {
		return after != before, nil
	}
	return after != before && after != f.WorldHash(), nil
}

// sameWorld reports whether one of acts leads from g's state to the world
// cmd leads to (the same world hash, objects and score: "take egg" for
// "get egg", "down" for "d", though the parser's memory differs), trying
// each on a fork of g.
func sameWorld(g *game.Game, cmd string, acts []string) (bool, error) {
	f, err := g.Fork()
	if err != nil {
		return false, err
	}
	start := f.Save()
	if _, err := f.Step(cmd); err != nil {
		return false, nil // a command the game cannot play leads nowhere
	}
	want := f.WorldHash()
	for _, a := range acts {
		if err := f.Restore(start); err != nil {
			return false, err
		}
		if _, err := f.Step(a); err == nil && f.WorldHash() == want {
			return true, nil
		}
	}
	return false, nil
}

// limitedWriter keeps the first n bytes written to it and drops the rest.
type limitedWriter struct {
	w io.Writer
	n int64
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(int64(len(p)), l.n)
		if _, err := l.w.Write(p[:k]); err != nil {
			return 0, err
		}
		l.n -= k
	}
	return len(p), nil
}
