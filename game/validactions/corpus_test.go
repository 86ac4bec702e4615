package validactions_test

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// corpusScript is the scripted play over which the corpus table of
// docs/games.md measures valid actions: the state after opening (and
// answering Parc's opening question), then after each of these commands.
var corpusScript = []string{"look", "north", "take all", "south", "east", "inventory", "west", "up", "down", "wait"}

// corpusNames lists every game of the corpus, in the order of the table
// (those of package game's corpusScores, and BrandX and Parc).
func corpusNames() []string {
	names := []string{"BrandX", "Parc", "amish", "break-in", "building", "bunny", "candy",
		"causality", "cavetrip", "cheater", "cia", "death", "fable", "frozen", "lily", "mansion",
		"minster", "parallel", "piracy_2", "sherbet", "spot"}
	sort.Slice(names, func(i, j int) bool { return strings.ToLower(names[i]) < strings.ToLower(names[j]) })
	return names
}

// corpusState is what valid actions gave at one state of corpusScript.
type corpusState struct {
	located bool
	// movesOn: waiting a turn ends the game or moves the player (a
	// scene that plays out whatever is typed).
	movesOn bool
	acts    []string
	took    time.Duration // wall time
	cpu     time.Duration // CPU time of the process, all threads
	instr   uint64        // Z-machine instructions the candidates ran
	cut     bool          // the call ran out of its time budget
}

// corpusPlay plays corpusScript on corpus game name and finds the valid
// actions at each state (without the cache: every state is worked out).
func corpusPlay(t testing.TB, name string) []corpusState {
	t.Helper()
	g := openCorpusTB(t, name)
	if g.YesNoQuestion() { // Parc asks whether to show its introduction
		if _, err := g.Step("no"); err != nil {
			t.Fatal(err)
		}
	}
	var out []corpusState
	for i := 0; i <= len(corpusScript); i++ {
		if i > 0 {
			if _, err := g.Step(corpusScript[i-1]); err != nil {
				t.Fatal(err)
			}
		}
		if g.Done() || g.KeyExpected() {
			break
		}
		_, loc := g.Location()
		start, cpu0 := time.Now(), cpuTime()
		vas(g).Cache.Forget() // not the cache
		acts, err := g.ValidActions()
		cpu := cpuTime() - cpu0
		if err != nil {
			t.Fatalf("%s state %d: %v", name, i, err)
		}
		took := time.Since(start)
		f, err := g.Fork()
		if err != nil {
			t.Fatal(err)
		}
		r, err := f.Step("wait")
		_, to := f.Location()
		moves := err != nil || r.Done || f.Machine().State() != g.Machine().State() || to != loc
		out = append(out, corpusState{located: loc != 0, movesOn: moves, acts: acts, took: took, cpu: cpu, instr: vas(g).Cache.Instr(), cut: g.ValidActionsCutShort()})
	}
	return out
}

// TestValidActionsCorpus checks that every corpus game has valid actions
// in every state of the scripted play where its location is known, and
// that moving about is among them where the game allows it.
func TestValidActionsCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("finds valid actions in some 200 states")
	}
	for _, name := range corpusNames() {
		t.Run(name, func(t *testing.T) {
			for i, s := range corpusPlay(t, name) {
				switch {
				case s.located && len(s.acts) == 0 && s.movesOn:
					t.Logf("state %d: no valid actions: waiting ends the game or moves the player, as every command does", i)
				case s.located && len(s.acts) == 0:
					t.Errorf("state %d: no valid actions", i)
				}
			}
		})
	}
}

// BenchmarkValidActionsCorpus finds the valid actions over corpusScript in
// every corpus game (GRUE_CORPUS names a few instead) and reports the
// median, 90th percentile and longest time per state over all states and
// the states cut short by the time budget (wall time, and the CPU time
// the process spent, which a machine shared with other work does not
// inflate), and per game with -v the
// median count and time (the docs/games.md table). The figure is
// taken on one core: taskset -c 0 go test -run X -bench Corpus.
func BenchmarkValidActionsCorpus(b *testing.B) {
	names := corpusNames()
	if only := os.Getenv("GRUE_CORPUS"); only != "" {
		names = strings.Fields(only)
	}
	var all, allCPU, allInstr []float64
	cut := 0
	for i := 0; i < b.N; i++ {
		all, allCPU, allInstr, cut = all[:0], allCPU[:0], allInstr[:0], 0
		for _, name := range names {
			var ms, cpu, minstr, counts []float64
			for _, s := range corpusPlay(b, name) {
				ms = append(ms, float64(s.took.Microseconds())/1000)
				cpu = append(cpu, float64(s.cpu.Microseconds())/1000)
				minstr = append(minstr, float64(s.instr)/1e6)
				counts = append(counts, float64(len(s.acts)))
				if s.cut {
					cut++
				}
			}
			all, allCPU, allInstr = append(all, ms...), append(allCPU, cpu...), append(allInstr, minstr...)
			if i == 0 && testing.Verbose() {
				fmt.Printf("| %s | %d states | actions %.0f | %.1f ms | %.1f cpu-ms | %.2f Minstr |\n",
					name, len(ms), median(counts), median(ms), median(cpu), median(minstr))
			}
		}
	}
	b.ReportMetric(median(all), "ms/state")
	b.ReportMetric(median(allCPU), "cpu-ms/state")
	b.ReportMetric(median(allInstr), "Minstr/state")
	b.ReportMetric(percentile(all, 0.9), "p90-ms/state")
	b.ReportMetric(percentile(allCPU, 0.9), "p90-cpu-ms/state")
	b.ReportMetric(slices.Max(allCPU), "max-cpu-ms/state")
	b.ReportMetric(slices.Max(all), "max-ms/state")
	b.ReportMetric(float64(cut), "cut-states")
}

// percentile returns the p-th quantile of xs (0 for none): the value
// below which a share p of them lie.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// median returns the median of xs (0 for none).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
