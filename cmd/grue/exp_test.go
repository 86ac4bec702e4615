package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/cli"
	"github.com/grue-lab/grue/internal/testgames"
)

// playerCommands are what the scripted model plays, in turn.
var playerCommands = []string{"look", "north", "west", "open mailbox", "take leaflet", "east", "inventory", "south", "examine me", "frobnicate"}

var stepHeader = regexp.MustCompile(`\[Step (\d+) `)

// playerServer is a local model server that answers like a plausible
// model, in the THOUGHT/TOOL/ARGS format, after delay: a command chosen
// from the step number and the request's seed, and now and then a look at
// the map. An answer depends on its request alone, so a run is the same
// whatever order its parallel episodes ask in.
func playerServer(t testing.TB, delay time.Duration) *llmtest.Server {
	srv := llmtest.NewServer()
	t.Cleanup(srv.Close)
	srv.Fallback(func(req llmtest.Request) llmtest.Response {
		step := 1
		if m := stepHeader.FindStringSubmatch(req.LastUser()); m != nil {
			step, _ = strconv.Atoi(m[1])
		}
		seed := 0
		if req.Seed != nil {
			seed = *req.Seed
		}
		if step%4 == 0 {
			return llmtest.Text("THOUGHT: Where have I been?\nTOOL: get_map\nARGS: {}").After(delay)
		}
		cmd := playerCommands[(step+seed)%len(playerCommands)]
		return llmtest.Text(fmt.Sprintf("THOUGHT: I will try %s.\nTOOL: play_action\nARGS: {\"action\": %q}", cmd, cmd)).After(delay)
	})
	return srv
}

// gamesEnv points $GRUE_GAMES at the shared story files (skipping, or
// under CI failing, without zork1).
func gamesEnv(t *testing.T) {
	t.Helper()
	t.Setenv("GRUE_GAMES", filepath.Dir(testgames.Path(t, "zork1.z3")))
}

// grueExp runs "grue exp ARGS..." in process.
func grueExp(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"exp"}, args...), strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// sameRecords checks that two result sets hold the same episodes with the
// same outcomes: everything but times.
func sameRecords(t *testing.T, got, want *harness.ResultSet) {
	t.Helper()
	strip := func(rs *harness.ResultSet) []string {
		var out []string
		for _, r := range rs.Records {
			r.Started, r.Finished, r.DurationMS = time.Time{}, time.Time{}, 0
			out = append(out, fmt.Sprintf("%+v", r))
		}
		slices.Sort(out)
		return out
	}
	g, w := strip(got), strip(want)
	if len(g) != len(w) {
		t.Fatalf("%d records, want %d", len(g), len(w))
	}
	for i := range g {
		if g[i] != w[i] {
			t.Errorf("records differ:\n got %s\nwant %s", g[i], w[i])
		}
	}
}

// TestExperimentConfigs runs each config in experiments/, shortened to one
// seed and a few steps, the model variants against a local scripted model.
func TestExperimentConfigs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the three example experiments end to end")
	}
	gamesEnv(t)
	srv := playerServer(t, 0)
	modelEnv(t, srv)
	for _, name := range []string{"baseline", "with_memory", "with_tools"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("..", "..", "experiments", name+".yaml")
			cfg, err := harness.LoadConfig(path)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "run")
			stdout, stderr, code := grueExp(t, "run", path, "--out", out, "--steps", "4", "--trials", "1")
			if code != cli.ExitOK {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			want := len(cfg.Variants) * len(cfg.Games)
			if !strings.Contains(stdout, fmt.Sprintf("Results: %s (%d of %d episodes)", out, want, want)) {
				t.Errorf("stdout does not say where the results are:\n%s", stdout)
			}
			for _, v := range cfg.Variants {
				if !strings.Contains(stdout, v.Name) {
					t.Errorf("the table does not show variant %s:\n%s", v.Name, stdout)
				}
			}
			// Off a terminal, the progress is a line per episode.
			if got := strings.Count(stderr, "\n["); got != want || !strings.Contains(stderr, fmt.Sprintf("[%d/%d] ", want, want)) {
				t.Errorf("progress lines:\n%s", stderr)
			}
			rs, err := harness.LoadResults(out)
			if err != nil {
				t.Fatal(err)
			}
			if rs.Len() != want {
				t.Fatalf("%d records, want %d", rs.Len(), want)
			}
			for _, r := range rs.Records {
				if r.Failed() || r.Steps == 0 || r.Steps > 4 {
					t.Errorf("%s: %d steps, error %q", r.Key(), r.Steps, r.Error)
				}
			}
		})
	}
	// The model variants sent their requests, with their prompts: the
	// all_tools variant's system prompt came from its file.
	sawFile := false
	for _, req := range srv.Requests() {
		if len(req.Messages) > 0 && strings.Contains(req.Messages[0].Content, "valid_actions lists the commands") {
			sawFile = true
		}
	}
	if !sawFile {
		t.Error("no request carried the prompt of experiments/prompts/all_tools.txt")
	}
}

// TestExpKillAndResume is the test: an experiment of two variants
// (a baseline and a scripted model) x two games x five seeds, killed with
// SIGKILL half-way through and resumed, has every episode exactly once,
// and the same records as the run that was never interrupted.
func TestExpKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("runs an experiment of 20 episodes twice")
	}
	gamesEnv(t)
	srv := playerServer(t, 25*time.Millisecond)
	modelEnv(t, srv)
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "ab.yaml")
	config := `name: ab
variants:
  - name: walkthrough
    policy: walkthrough
  - name: model
    memory: window
    window: 4
games: [lantern, zork1]
seeds: [1, 2, 3, 4, 5]
max_steps: 10
parallel: 2
`
	if err := os.WriteFile(cfgPath, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	grue, err := exec.LookPath("grue") // this test binary, as testscript.Main set it up
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "killed")
	results := filepath.Join(out, harness.ResultsFile)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, grue, "exp", "run", cfgPath, "--out", out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait for 6 of the 20 records, then kill -9.
	var lines int
	if !waitUntil(ctx, func() bool {
		b, _ := os.ReadFile(results)
		lines = bytes.Count(b, []byte("\n"))
		return lines >= 6
	}) {
		t.Fatalf("no progress: %d records\n%s", lines, stderr.String())
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	before, err := harness.LoadResults(out)
	if err != nil {
		t.Fatal(err)
	}
	if before.Len() >= 20 {
		t.Fatalf("the run had finished (%d records) before it was killed: slow the model down", before.Len())
	}
	t.Logf("killed with %d of 20 episodes recorded", before.Len())

	// Resume, as a user would, in another process.
	resume := exec.CommandContext(ctx, grue, "exp", "run", cfgPath, "--out", out, "--resume", "--quiet")
	if b, err := resume.CombinedOutput(); err != nil {
		t.Fatalf("resume: %v\n%s", err, b)
	} else if !strings.Contains(string(b), "Results: "+out+" (20 of 20 episodes)") {
		t.Errorf("resume printed:\n%s", b)
	}
	resumed, err := harness.LoadResults(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range resumed.Problems {
		if strings.Contains(p.Msg, "duplicate") {
			t.Errorf("an episode was recorded twice: %s", p)
		}
	}
	keys := map[harness.EpisodeKey]int{}
	data, _ := os.ReadFile(results)
	for _, l := range strings.Split(string(data), "\n") {
		rs, _ := harness.ReadResults(strings.NewReader(l), "line")
		for _, r := range rs.Records {
			keys[r.Key()]++
		}
	}
	if len(keys) != 20 {
		t.Errorf("%d distinct episodes recorded, want 20", len(keys))
	}
	for k, n := range keys {
		if n != 1 {
			t.Errorf("%s recorded %d times", k, n)
		}
	}
	// Every record has its trajectory.
	for _, r := range resumed.Records {
		if _, err := harness.ReadTrajectory(out, r); err != nil {
			t.Error(err)
		}
	}

	// The same experiment, never interrupted.
	whole := filepath.Join(dir, "whole")
	if stdout, stderr, code := grueExp(t, "run", cfgPath, "--out", whole, "--quiet"); code != cli.ExitOK {
		t.Fatalf("uninterrupted run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	want, err := harness.LoadResults(whole)
	if err != nil {
		t.Fatal(err)
	}
	sameRecords(t, resumed, want)

	m, err := harness.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Resumes) != 1 || m.Resumes[0].Remaining != 20-before.Len() || m.GrueVersion != cli.Version() {
		t.Errorf("manifest: version %s, resumes %+v", m.GrueVersion, m.Resumes)
	}
}

func TestExpCommandLine(t *testing.T) {
	srv := playerServer(t, 0)
	modelEnv(t, srv)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "x.yaml")
	os.WriteFile(cfg, []byte("name: x\nvariants:\n  - name: walk\n    policy: walkthrough\n  - name: m\ngames: [lantern]\nseeds: [1, 2]\nmax_steps: 5\n"), 0o644)
	typo := filepath.Join(dir, "typo.yaml")
	os.WriteFile(typo, []byte("name: x\nvariants:\n  - name: a\n    polcy: random\ngames: [lantern]\n"), 0o644)
	out := filepath.Join(dir, "run")

	for _, tc := range []struct {
		args   []string
		status int
		stdout string
		stderr string
	}{
		{[]string{"run", typo}, cli.ExitError, "", "grue exp run: " + typo + ":4:5: field polcy: unknown field"},
		{[]string{"run", cfg, "--resume"}, cli.ExitUsage, "", "--resume needs --out DIR"},
		{[]string{"run", cfg, "--trials", "2", "--seeds", "1"}, cli.ExitUsage, "", "give --trials or --seeds, not both"},
		{[]string{"run", cfg, "--seeds", "1,x"}, cli.ExitUsage, "", `--seeds: "x" is not a number`},
		{[]string{"run"}, cli.ExitUsage, "", "accepts 1 arg(s)"},
		{[]string{"run", cfg, "--out", out, "--quiet"}, cli.ExitOK, "Results: " + out + " (4 of 4 episodes)", ""},
		{[]string{"run", cfg, "--out", out}, cli.ExitError, "", "already holds a run: resume it (--resume)"},
		{[]string{"run", cfg, "--out", out, "--resume", "--steps", "6"}, cli.ExitError, "", "cannot resume " + out + ": the config differs"},
		{[]string{"compare", out}, cli.ExitOK, "walk", ""},
		{[]string{"compare", out, "--format", "csv", "--baseline", "walk"}, cli.ExitOK, "variant,", ""},
		{[]string{"compare", out, "--format", "yaml"}, cli.ExitUsage, "", `unknown --format "yaml"`},
		{[]string{"compare", out, "--baseline", "nobody"}, cli.ExitError, "", `no variant "nobody"`},
		{[]string{"compare"}, cli.ExitUsage, "", "name at least one run directory"},
		{[]string{"compare", filepath.Join(dir, "nothing")}, cli.ExitError, "", "no such file"},
		{[]string{}, cli.ExitUsage, "", "name a subcommand"},
	} {
		stdout, stderr, status := grueExp(t, tc.args...)
		if status != tc.status || !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) {
			t.Errorf("grue exp %s: status %d, stdout %q, stderr %q; want status %d, stdout with %q, stderr with %q",
				strings.Join(tc.args, " "), status, stdout, stderr, tc.status, tc.stdout, tc.stderr)
		}
	}

	// compare --plot draws the curves; --format json is the comparison,
	// against the config's first variant, as exp run's.
	plots := filepath.Join(dir, "plots")
	stdout, stderr, status := grueExp(t, "compare", out, "--format", "json", "--plot", plots)
	if status != cli.ExitOK || !strings.Contains(stdout, `"baseline": "walk"`) || !strings.Contains(stderr, "wrote "+filepath.Join(plots, "score_lantern.svg")) {
		t.Errorf("compare --plot: status %d\n%s\n%s", status, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(plots, "score_lantern.png")); err != nil {
		t.Error(err)
	}
}

// TestExpInterrupt: Ctrl-C stops grue exp run from starting episodes, lets
// those in flight finish, and says how to resume.
func TestExpInterrupt(t *testing.T) {
	srv := playerServer(t, 20*time.Millisecond)
	modelEnv(t, srv)
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "m.yaml")
	os.WriteFile(cfgPath, []byte("name: m\nvariants: [{name: model}]\ngames: [lantern]\ntrials: 12\nmax_steps: 8\nparallel: 2\n"), 0o644)
	grue, err := exec.LookPath("grue")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, grue, "exp", "run", cfgPath, "--out", out)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if !waitUntil(ctx, func() bool {
		b, _ := os.ReadFile(filepath.Join(out, harness.ResultsFile))
		return bytes.Count(b, []byte("\n")) >= 2
	}) {
		t.Fatalf("no progress\n%s", stderr.String())
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != cli.ExitError {
		t.Fatalf("interrupted run: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted: finishing the episodes in flight") ||
		!strings.Contains(stdout.String(), "finish it with:\n  grue exp run "+cfgPath+" --out "+out+" --resume") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
	rs, err := harness.LoadResults(out)
	if err != nil {
		t.Fatal(err)
	}
	// The episodes in flight finished: every record is whole, none failed.
	if rs.Len() < 2 || rs.Len() >= 12 || len(rs.Problems) > 0 {
		t.Fatalf("%d records, problems %v", rs.Len(), rs.Problems)
	}
	for _, r := range rs.Records {
		if r.Failed() || r.Steps != 8 {
			t.Errorf("%s: %d steps, error %q", r.Key(), r.Steps, r.Error)
		}
	}
}
