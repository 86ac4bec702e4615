package harness

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// lanternDeath walks into the dark cave of the built-in story without
// the lantern: 10 points for the lantern taken and dropped on the way
// (taking it scores), then the grue at the tenth command.
var lanternDeath = []string{"west", "open toolbox", "take lantern", "east", "south", "pick apple", "north", "north", "north", "north"}

// restartConfig is one commands variant replaying cmds on lantern for
// steps steps, restarting at game over when restart is set.
func restartConfig(t *testing.T, cmds []string, steps int, restart bool) *Config {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "cmds.txt"), []byte(strings.Join(cmds, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := &Config{Name: "restart", Dir: dir, Games: []string{"lantern"}, Seeds: []int64{1}, MaxSteps: steps,
		Variants: []Variant{{Name: "replay", Policy: PolicyCommands, CommandsFile: "cmds.txt"}}}
	if restart {
		cfg.OnGameOver = GameOverRestart
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	return cfg
}

func runOne(t *testing.T, cfg *Config) EpisodeRecord {
	t.Helper()
	rs, err := Run(context.Background(), cfg, RunOptions{Out: filepath.Join(t.TempDir(), "run")})
	if err != nil {
		t.Fatal(err)
	}
	if rs.Len() != 1 {
		t.Fatalf("%d records", rs.Len())
	}
	return rs.Records[0]
}

// TALES's rule: a game that ends within the step budget is started again
// and played on with the steps left; what counts is the highest score.
func TestRestartOnGameOverPlaysOnWithinTheBudget(t *testing.T) {
	cmds := append(slices.Clone(lanternDeath), lanternDeath...)
	rec := runOne(t, restartConfig(t, cmds, 15, true))
	if rec.Failed() {
		t.Fatal(rec.Error)
	}
	if rec.Steps != 15 || rec.Restarts != 1 || rec.Losses != 1 || rec.Wins != 0 {
		t.Fatalf("steps %d restarts %d losses %d wins %d, want 15 steps after one death and a restart", rec.Steps, rec.Restarts, rec.Losses, rec.Wins)
	}
	if rec.HighScore != 10 || rec.ScoreByStep[9] != 10 {
		t.Errorf("high score %d, scores %v: want the 10 of the first game", rec.HighScore, rec.ScoreByStep)
	}
	// The second game starts from nothing: its score is its own.
	if rec.ScoreByStep[10] != 0 {
		t.Errorf("the score after the restart is %d, want 0 (a new game): %v", rec.ScoreByStep[10], rec.ScoreByStep)
	}
	if rec.GameCompleted {
		t.Errorf("the last game had not ended, the record says it had")
	}
}

// Without the rule the episode stops at the death, as before.
func TestStopOnGameOverIsTheDefault(t *testing.T) {
	cmds := append(slices.Clone(lanternDeath), lanternDeath...)
	rec := runOne(t, restartConfig(t, cmds, 15, false))
	if rec.Steps != 10 || !rec.GameCompleted || rec.Restarts != 0 || rec.HighScore != 0 {
		t.Fatalf("steps %d completed %v restarts %d high %d: want a stop at the death, step 10", rec.Steps, rec.GameCompleted, rec.Restarts, rec.HighScore)
	}
}

// A win at the maximum stops the episode early, restart or not.
func TestRestartStopsOnAWinAtTheMaximum(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "game", "stories", "lantern.walkthrough.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	for l := range strings.SplitSeq(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			cmds = append(cmds, l)
		}
	}
	cmds = append(cmds, cmds...) // more than the win needs
	rec := runOne(t, restartConfig(t, cmds, 200, true))
	if !rec.Victory || rec.Wins != 1 || rec.Restarts != 0 || rec.HighScore != rec.MaxScore || rec.Steps >= len(cmds) {
		t.Fatalf("victory %v wins %d restarts %d high %d/%d steps %d: want a stop at the win", rec.Victory, rec.Wins, rec.Restarts, rec.HighScore, rec.MaxScore, rec.Steps)
	}
}

func TestOnGameOverValidated(t *testing.T) {
	cfg := &Config{Name: "x", Games: []string{"lantern"}, Variants: []Variant{{Name: "r", Policy: "random"}}, OnGameOver: "reboot"}
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "on_game_over") {
		t.Errorf("on_game_over reboot: %v", err)
	}
	cfg = &Config{Name: "x", Games: []string{"lantern"}, Variants: []Variant{{Name: "r", Policy: PolicyCommands}}}
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "commands_file") {
		t.Errorf("commands without a file: %v", err)
	}
}

// Per-game seeds replace the config's seeds for the games they name.
func TestGameSeeds(t *testing.T) {
	cfg := &Config{Name: "x", Games: []string{"lantern", "other"}, Seeds: []int64{1, 2}, GameSeeds: map[string][]int64{"lantern": {12}},
		Variants: []Variant{{Name: "r", Policy: "random"}}}
	var got []string
	for _, s := range cfg.Episodes() {
		got = append(got, s.Key().String())
	}
	want := []string{"r/lantern/12", "r/other/1", "r/other/2"}
	if !slices.Equal(got, want) {
		t.Errorf("episodes %v, want %v", got, want)
	}
	h := cfg.Hash()
	cfg.GameSeeds["lantern"] = []int64{0}
	if cfg.Hash() == h {
		t.Error("the game seeds are not in the config's hash")
	}
	cfg.GameSeeds["nope"] = []int64{1}
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "game_seeds.nope") {
		t.Errorf("seeds of a game not played: %v", err)
	}
}
