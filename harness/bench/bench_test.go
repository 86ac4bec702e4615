package bench

import (
	"crypto/md5"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/testgames"
)

// fakeProtocol is a protocol over two games whose files are written
// here, so that the identification rules run without story files.
func fakeProtocol(t *testing.T) (*Protocol, string, []byte) {
	t.Helper()
	// The built-in story: a real story file with an MD5 of its own.
	content, err := os.ReadFile(filepath.Join("..", "..", "game", "stories", "lantern.z5"))
	if err != nil {
		t.Fatal(err)
	}
	sum := md5.Sum(content)
	p := &Protocol{Name: TALES, Steps: 100, Seeds: []int64{DefaultSeed}, OnGameOver: harness.GameOverRestart,
		GameSeed: func(n string) (int64, bool) { return map[string]int64{"alpha": 7}[n], n == "alpha" },
		Games:    []Game{{Name: "alpha", File: "alpha.z5", MD5: hex.EncodeToString(sum[:])}, {Name: "beta", File: "beta.z5", MD5: strings.Repeat("0", 32)}, {Name: "gamma", File: "gamma.z5", MD5: strings.Repeat("1", 32)}}}
	return p, t.TempDir(), content
}

func mustWrite(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func status(games []harness.BenchmarkGame) map[string]harness.BenchmarkGame {
	out := map[string]harness.BenchmarkGame{}
	for _, g := range games {
		out[g.Name] = g
	}
	return out
}

// A file is the protocol's game by its MD5, whatever its name; a file
// named as a game but with another MD5 is another release, reported and
// not played; a game with no file is missing.
func TestIdentifyByContent(t *testing.T) {
	p, dir, content := fakeProtocol(t)
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(dir, "sub", "Renamed Thing.z5"), content)
	mustWrite(t, filepath.Join(dir, "beta.z3"), []byte("another release"))
	mustWrite(t, filepath.Join(dir, "alpha.txt"), content) // not a story file's name
	games, err := Identify(p, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := status(games)
	if a := st["alpha"]; a.Status != harness.GamePlayed || filepath.Base(a.File) != "Renamed Thing.z5" || !strings.Contains(a.Note, "renamed") || !slices.Equal(a.Seeds, []int64{7}) {
		t.Errorf("alpha: %+v", a)
	}
	if b := st["beta"]; b.Status != harness.GameDifferent || b.MD5 == b.WantMD5 || !strings.Contains(b.Note, "beta.z3 is not the file the protocol plays") || len(b.Seeds) != 0 {
		t.Errorf("beta: %+v", b)
	}
	if g := st["gamma"]; g.Status != harness.GameMissing || g.File != "" {
		t.Errorf("gamma: %+v", g)
	}
	// Only the played game is in the experiment, from its own seed.
	plan, err := NewPlan(p, dir, Options{Variant: harness.Variant{Policy: "random"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Config.Games) != 1 || plan.Config.Games[0] != st["alpha"].File || !slices.Equal(plan.Config.SeedsFor(plan.Config.Games[0]), []int64{7}) {
		t.Errorf("games %v seeds %v", plan.Config.Games, plan.Config.GameSeeds)
	}
}

func TestNothingToPlayFails(t *testing.T) {
	p, dir, _ := fakeProtocol(t)
	plan, err := NewPlan(p, dir, Options{Variant: harness.Variant{Policy: "random"}})
	if err == nil || plan == nil || plan.Benchmark == nil || len(plan.Benchmark.Games) != 3 {
		t.Fatalf("an empty folder: %v", err)
	}
	if _, err := NewPlan(p, filepath.Join(dir, "nope"), Options{}); err == nil {
		t.Error("a folder that does not exist is no error")
	}
}

// The protocols' budgets, game-over rules and seeds as their sources say.
func TestProtocolRules(t *testing.T) {
	for _, c := range []struct {
		name   string
		steps  int
		over   string
		games  int
		seed   int64
		seedOf string
	}{
		{TALES, 100, harness.GameOverRestart, 77, 12, "zork1"},
		{TextQuests, 500, harness.GameOverStop, 25, 1, "zork1"},
		{AgentBoard, 30, harness.GameOverStop, 20, DefaultSeed, "zork1"},
	} {
		p, err := Lookup(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if p.Steps != c.steps || p.OnGameOver != c.over || len(p.Games) != c.games || p.Source == "" {
			t.Errorf("%s: steps %d, game over %s, %d games", c.name, p.Steps, p.OnGameOver, len(p.Games))
		}
		if s := p.seedsFor(c.seedOf, nil); !slices.Equal(s, []int64{c.seed}) {
			t.Errorf("%s: %s seeds %v, want %d", c.name, c.seedOf, s, c.seed)
		}
		if s := p.seedsFor(c.seedOf, []int64{3, 4}); !slices.Equal(s, []int64{3, 4}) {
			t.Errorf("%s: --seeds 3,4 gave %v", c.name, s)
		}
	}
	tales, _ := Lookup("TALES")
	if s := tales.seedsFor("zork2", nil); !slices.Equal(s, []int64{0}) {
		t.Errorf("zork2's Jericho seed is 0, got %v", s)
	}
	// Every Jericho seed is of one of TALES's games (a misspelt name
	// would silently seed nothing); those read from game_info.py.
	names := map[string]bool{}
	for _, g := range tales.Games {
		names[g.Name] = true
	}
	for n := range jerichoSeeds {
		if !names[n] {
			t.Errorf("a Jericho seed for %q, which is no TALES game", n)
		}
	}
	for n, want := range map[string]int64{"cutthroat": 10, "hhgg": 4, "advent": 5, "acorncourt": 4} {
		if s := tales.seedsFor(n, nil); !slices.Equal(s, []int64{want}) {
			t.Errorf("%s: seeds %v, want Jericho's %d", n, s, want)
		}
	}
	if _, ok := tales.GameSeed("lily"); ok {
		t.Error("lily, a TALES addition, has a Jericho seed")
	}
	// AgentBoard's games carry TALES's MD5s.
	ab, _ := Lookup(AgentBoard)
	for _, g := range ab.Games {
		if len(g.MD5) != 32 {
			t.Errorf("agentboard %s has no MD5", g.Name)
		}
	}
}

// A budget or seeds other than the protocol's, and admissible commands,
// are deviations the run records; admissible commands are off otherwise.
func TestOverridesAreDeviations(t *testing.T) {
	p, dir, content := fakeProtocol(t)
	mustWrite(t, filepath.Join(dir, "a.z5"), content)
	plan, err := NewPlan(p, dir, Options{Variant: harness.Variant{Policy: "random"}})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Config.MaxSteps != 100 || plan.Config.OnGameOver != harness.GameOverRestart || slices.Contains(plan.Config.Variants[0].Tools, "valid_actions") {
		t.Errorf("config %+v", plan.Config)
	}
	plan, err = NewPlan(p, dir, Options{Variant: harness.Variant{Policy: "random"}, Steps: 5, Seeds: []int64{9}, Admissible: true})
	if err != nil {
		t.Fatal(err)
	}
	d := strings.Join(plan.Benchmark.Deviations, "\n")
	for _, want := range []string{"the step budget is 5 (--steps), not the protocol's 100", "seeds 9 (--seeds)", "admissible commands on"} {
		if !strings.Contains(d, want) {
			t.Errorf("deviations lack %q:\n%s", want, d)
		}
	}
	if plan.Config.MaxSteps != 5 || !slices.Contains(plan.Config.Variants[0].Tools, "valid_actions") || !slices.Equal(plan.Config.SeedsFor(plan.Config.Games[0]), []int64{9}) {
		t.Errorf("config %+v", plan.Config)
	}
}

func rec(game string, seed int64, scores []int, max int, restarts, wins, losses int) harness.EpisodeRecord {
	return harness.EpisodeRecord{Variant: "random", Game: game, Seed: seed, ScoreByStep: scores, Steps: len(scores), MaxScore: max,
		FinalScore: scores[len(scores)-1], Restarts: restarts, Wins: wins, Losses: losses, DurationMS: 1000,
		Started: time.Unix(0, 0), Finished: time.Unix(1, 0)}
}

func summaryOf(t *testing.T, protocol string, games []harness.BenchmarkGame, recs ...harness.EpisodeRecord) string {
	t.Helper()
	m := &harness.Manifest{Config: &harness.Config{MaxSteps: 4}, Benchmark: &harness.Benchmark{Protocol: protocol, Games: games, Deviations: []string{"a stated deviation"}}}
	rs := &harness.ResultSet{}
	for _, r := range recs {
		rs.Add(r)
	}
	s, err := Summarize(m, rs)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := s.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TALES counts the highest score reached, not the last; a game whose
// maximum grue cannot read is unknown and left out of the mean.
func TestTALESSummary(t *testing.T) {
	games := []harness.BenchmarkGame{
		{Name: "alpha", Status: harness.GamePlayed, File: "/g/a.z5"},
		{Name: "beta", Status: harness.GamePlayed, File: "/g/b.z5"},
		{Name: "nomax", Status: harness.GamePlayed, File: "/g/n.z5"},
		{Name: "zork1", Status: harness.GameDifferent, File: "/g/zork1.z3", Note: "zork1.z3 is not the file"},
		{Name: "gone", Status: harness.GameMissing},
	}
	out := summaryOf(t, TALES, games,
		rec("/g/a.z5", 12, []int{0, 5, 0, 1}, 10, 1, 0, 1), // 5 then a death: 50%
		rec("/g/b.z5", 1, []int{0, 0, 0, 0}, 20, 0, 0, 0),
		rec("/g/n.z5", 1, []int{0, 1, 1, 1}, 0, 0, 0, 0))
	for _, want := range []string{
		"| Game  | Seed | Env. Steps | Resets | Wins | Losts | Highscore | Game Max Score | Normalized Score |",
		"| alpha | 12   | 4/4        | 1      | 0    | 1     | 5         | 10             | 50.00%           |",
		"| nomax | 1    | 4/4        | 0      | 0    | 0     | 1         | unknown        | unknown          |",
		"Mean score (over 2 games) = 25.00% of total possible",
		"  zork1: different file: zork1.z3 is not the file",
		"  gone: missing",
		"  - a stated deviation",
		"  - nomax: grue could not read the game's maximum score",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary lacks %q:\n%s", want, out)
		}
	}
}

// TextQuests's points are against its own table's maximum; progress and
// harm are unknown to grue. AgentBoard's Success Rate is the share won.
func TestTextQuestsAndAgentBoardSummaries(t *testing.T) {
	games := []harness.BenchmarkGame{{Name: "zork3", Status: harness.GamePlayed, File: "/g/zork3.z3", MaxScore: 8}}
	out := summaryOf(t, TextQuests, games, rec("/g/zork3.z3", 1, []int{0, 2, 1, 1}, 7, 0, 0, 0))
	for _, want := range []string{
		"| game           | progress | points | harm    | finished | steps | restores |",
		"| zork3          | unknown  | 25.0   | unknown | unknown  | 4     | 0        |",
		"| mean (1 games) | unknown  | 25.0   |",
		"zork3: the game says its maximum is 7, textquests's table 8: the table's is used",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary lacks %q:\n%s", want, out)
		}
	}
	won := rec("/g/zork3.z3", 1, []int{0, 8}, 8, 0, 0, 0)
	won.GameCompleted, won.Victory = true, true
	out = summaryOf(t, AgentBoard, []harness.BenchmarkGame{{Name: "zork3", Status: harness.GamePlayed, File: "/g/zork3.z3"}}, won)
	if !strings.Contains(out, "| Game    | Success Rate | Progress Rate | Steps |") || !strings.Contains(out, "| all (1) | 100.00       | unknown       |") {
		t.Errorf("agentboard summary:\n%s", out)
	}
}

func TestSummarizeNeedsABenchRun(t *testing.T) {
	if _, err := Summarize(&harness.Manifest{}, &harness.ResultSet{}); err == nil {
		t.Error("an experiment's manifest made a bench summary")
	}
}

// On the shared story files: the corpus's lily and spot are TALES's, the
// Zork .z3 releases are not.
func TestIdentifySharedGames(t *testing.T) {
	testgames.Path(t, "zork1.z3")
	testgames.Path(t, filepath.Join("corpus", "spot.z5"))
	p, _ := Lookup(TALES)
	games, err := Identify(p, testgames.Dir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	st := status(games)
	for _, n := range []string{"lily", "spot"} {
		if st[n].Status != harness.GamePlayed {
			t.Errorf("%s: %+v", n, st[n])
		}
	}
	for _, n := range []string{"zork1", "zork2", "zork3"} {
		if st[n].Status != harness.GameDifferent {
			t.Errorf("%s: %+v", n, st[n])
		}
	}
	if st["905"].Status != harness.GameMissing {
		t.Errorf("905: %+v", st["905"])
	}
}

// A game whose maximum or ending grue cannot read is listed in the run's
// manifest (its Unread and a deviation each), and the summary printed
// from the manifest alone says so: a game the catalog knows is not.
func TestUnreadGamesInManifest(t *testing.T) {
	lantern, err := os.ReadFile(filepath.Join("..", "..", "game", "stories", "lantern.z5"))
	if err != nil {
		t.Fatal(err)
	}
	nomax, err := os.ReadFile(filepath.Join("..", "..", "game", "testdata", "stories", "nomax.z5"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "alpha.z5"), lantern)
	mustWrite(t, filepath.Join(dir, "nomax.z5"), nomax)
	sum := func(b []byte) string { s := md5.Sum(b); return hex.EncodeToString(s[:]) }
	p := &Protocol{Name: TALES, Steps: 3, Seeds: []int64{DefaultSeed}, OnGameOver: harness.GameOverRestart,
		Games: []Game{{Name: "alpha", File: "alpha.z5", MD5: sum(lantern)}, {Name: "nomax", File: "nomax.z5", MD5: sum(nomax)}}}
	plan, err := NewPlan(p, dir, Options{Variant: harness.Variant{Policy: "random"}})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "run")
	if _, err := harness.Run(t.Context(), plan.Config, harness.RunOptions{Out: out, Parallel: 1, Benchmark: plan.Benchmark}); err != nil {
		t.Fatal(err)
	}
	m, err := harness.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	st := status(m.Benchmark.Games)
	if u := st["nomax"].Unread; !slices.Equal(u, []string{harness.UnreadMaxScore, harness.UnreadEnding}) {
		t.Errorf("nomax: unread %q, want the maximum and the ending", u)
	}
	if u := st["alpha"].Unread; len(u) != 0 {
		t.Errorf("alpha (the catalog's lantern): unread %q", u)
	}
	d := strings.Join(m.Benchmark.Deviations, "\n")
	for _, want := range []string{"nomax: grue could not read the game's maximum score", "nomax: grue knows no end flag of the game"} {
		if !strings.Contains(d, want) {
			t.Errorf("the manifest's deviations lack %q:\n%s", want, d)
		}
	}
	if strings.Contains(d, "alpha:") {
		t.Errorf("the manifest flags the known game:\n%s", d)
	}
	// The summary from the manifest, with no records at all.
	s, err := Summarize(m, &harness.ResultSet{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := s.Write(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "  - nomax: grue could not read the game's maximum score") || !strings.Contains(b.String(), "  - nomax: grue knows no end flag") {
		t.Errorf("the summary lacks the unread game:\n%s", b.String())
	}
	// With the records, the maximum is said once.
	rs, err := harness.LoadResults(out)
	if err != nil {
		t.Fatal(err)
	}
	s, err = Summarize(m, rs)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(strings.Join(s.Deviations, "\n"), "nomax: grue could not read the game's maximum"); n != 1 {
		t.Errorf("the maximum is said %d times:\n%s", n, strings.Join(s.Deviations, "\n"))
	}
}

// A maximum the manifest says grue could not read, but that the game gave
// in play, is not called unknown by the summary.
func TestUnreadMaxFoundInPlay(t *testing.T) {
	games := []harness.BenchmarkGame{{Name: "late", Status: harness.GamePlayed, File: "/g/l.z5", Unread: []string{harness.UnreadMaxScore}}}
	m := &harness.Manifest{Config: &harness.Config{MaxSteps: 4}, Benchmark: &harness.Benchmark{Protocol: TALES, Games: games,
		Deviations: []string{unreadDeviation("late", harness.UnreadMaxScore)}}}
	s, err := Summarize(m, harness.NewResultSet(rec("/g/l.z5", 1, []int{0, 2, 2, 2}, 8, 0, 0, 0)))
	if err != nil {
		t.Fatal(err)
	}
	d := strings.Join(s.Deviations, "\n")
	if strings.Contains(d, "could not read") || !strings.Contains(d, "late: grue read no maximum score when the run was planned; the game gave one in play (8)") {
		t.Errorf("deviations:\n%s", d)
	}
	if mean, n := s.MeanNorm(); n != 1 || mean != 0.25 {
		t.Errorf("mean %v over %d", mean, n)
	}
}
