package main

// Whole-process benchmarks of grue against dfrotz on the heaviest games:
//
//	go test -run XXX -bench CorpusProcess ./cmd/grue
//	go test -run XXX -bench CorpusCallgrind -benchtime 1x ./cmd/grue
//
// Each game is played by `grue play --plain` and by `dfrotz -m -p -q` with
// the same script: for the corpus games a random script of 300 commands
// (testgames.RandomScript from the game's dictionary, seed 1, undo
// included), for Zork I its walkthrough (seed 12). docs/performance.md
// records the figures.

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/game/zmachine"
	"github.com/grue-lab/grue/internal/testgames"
)

// benchGame is one game of the process benchmarks: the story, the script
// both interpreters play and the seed they play it with.
type benchGame struct {
	name, story string
	seed        int64
	script      []byte
	commands    int
}

// heavyBenchGames are the corpus games that execute the most Z-machine
// instructions per command of a random script (7,000 to 23,000), spot.z5
// (where grue was furthest behind dfrotz), and the Zork I walkthrough.
var heavyBenchGames = []string{"piracy_2", "building", "parallel", "lily", "spot", "zork1"}

// loadBenchGames reads the stories and makes their scripts, skipping (or
// failing under CI=true) when the games are missing.
func loadBenchGames(b *testing.B) []benchGame {
	b.Helper()
	games, err := filepath.Abs(playBenchGames())
	if err != nil {
		b.Fatal(err)
	}
	var out []benchGame
	for _, name := range heavyBenchGames {
		g := benchGame{name: name, seed: 1}
		if name == "zork1" {
			g.story, g.seed = filepath.Join(games, "zork1.z3"), 12
			if g.script, err = os.ReadFile(filepath.Join(games, "zork1.walkthrough.txt")); err != nil {
				playBenchNeed(b, "zork1.walkthrough.txt not found (set GRUE_GAMES): "+err.Error())
			}
		} else {
			g.story = filepath.Join(games, "corpus", name+".z5")
			lines := corpusScript(b, g.story, 1, 300)
			g.script = []byte(strings.Join(lines, "\n") + "\n")
		}
		g.commands = strings.Count(string(g.script), "\n")
		out = append(out, g)
	}
	return out
}

// corpusScript makes the random script of n commands for the story at
// path from its dictionary.
func corpusScript(b *testing.B, path string, seed int64, n int) []string {
	b.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		playBenchNeed(b, fmt.Sprintf("%s not found (set GRUE_GAMES): %v", filepath.Base(path), err))
	}
	story, err := zmachine.Load(data)
	if err != nil {
		b.Fatalf("%s: %v", path, err)
	}
	m, err := zmachine.New(story, zmachine.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var words []string
	for _, e := range m.Dictionary() {
		words = append(words, e.Word)
	}
	return testgames.RandomScript(words, seed, n)
}

// findDfrotz returns dfrotz's path or skips.
func findDfrotz(b *testing.B) string {
	b.Helper()
	if p, err := exec.LookPath("dfrotz"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/games/dfrotz"); err != nil {
		playBenchNeed(b, "dfrotz not found (apt-get install -y frotz)")
	}
	return "/usr/games/dfrotz"
}

// argv returns the grue and dfrotz command lines that play g, with
// prefix (a valgrind command line, say) before each.
func (g benchGame) argv(grue, dfrotz string, prefix ...string) (gr, df []string) {
	seed := strconv.FormatInt(g.seed, 10)
	gr = append(append([]string{}, prefix...), grue, "play", "--plain", "--seed", seed, g.story)
	df = append(append([]string{}, prefix...), dfrotz, "-m", "-p", "-q", "-s", seed, "-w", "80", g.story)
	return gr, df
}

// runPlay runs argv with g's script on stdin in dir and returns its
// standard output and error; env is added to the environment.
func runPlay(b *testing.B, g benchGame, dir string, env []string, argv []string) (stdout, stderr string) {
	b.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = bytes.NewReader(g.script)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s on %s: %v\nstderr: %s", filepath.Base(argv[0]), g.name, err, errOut.String())
	}
	return out.String(), errOut.String()
}

// BenchmarkCorpusProcess plays each heavy game as a whole process, with grue
// and with dfrotz in turn in every iteration, and reports each one's
// milliseconds a run and their ratio (grue-ms/dfrotz-ms; under 1 means grue
// is faster). Wall time on a shared machine is noisy: BenchmarkCorpusCallgrind
// counts instructions instead.
func BenchmarkCorpusProcess(b *testing.B) {
	dfrotz := findDfrotz(b)
	games := loadBenchGames(b)
	grue := buildGrue(b, b.TempDir())
	for _, g := range games {
		b.Run(g.name, func(b *testing.B) {
			gr, df := g.argv(grue, dfrotz)
			dir := b.TempDir()
			var tg, td time.Duration
			first := true
			for b.Loop() {
				t0 := time.Now()
				outG, _ := runPlay(b, g, dir, nil, gr)
				t1 := time.Now()
				outD, _ := runPlay(b, g, dir, nil, df)
				tg, td = tg+t1.Sub(t0), td+time.Since(t1)
				if first && g.name == "zork1" {
					first = false
					const want = "Your score is 350 (total of 350 points)"
					if !strings.Contains(outG, want) || !strings.Contains(outD, want) {
						b.Fatalf("grue or dfrotz did not finish the walkthrough (no %q)", want)
					}
				}
			}
			n := float64(b.N)
			b.ReportMetric(float64(tg.Microseconds())/1000/n, "grue-ms")
			b.ReportMetric(float64(td.Microseconds())/1000/n, "dfrotz-ms")
			b.ReportMetric(float64(tg)/float64(td), "grue/dfrotz")
		})
	}
}

// collected matches callgrind's count of instructions executed.
var collected = regexp.MustCompile(`Collected : (\d+)`)

// BenchmarkCorpusCallgrind counts the machine instructions each heavy game
// takes as a whole process under grue and under dfrotz, with valgrind's
// callgrind (skipped without valgrind), and reports both counts in millions
// and their ratio. The counts do not change from run to run, so one
// iteration is enough (-benchtime 1x). grue runs with GOMAXPROCS=1: under
// valgrind, which runs one thread at a time, the Go scheduler's idle
// threads add millions of instructions that vary from run to run; and with
// asynchronous preemption off, whose signals crash callgrind 3.19.
func BenchmarkCorpusCallgrind(b *testing.B) {
	valgrind, err := exec.LookPath("valgrind")
	if err != nil {
		playBenchNeed(b, "valgrind not found (apt-get install -y valgrind)")
	}
	dfrotz := findDfrotz(b)
	games := loadBenchGames(b)
	grue := buildGrue(b, b.TempDir())
	for _, g := range games {
		b.Run(g.name, func(b *testing.B) {
			dir := b.TempDir()
			count := func(env []string, argv []string) float64 {
				_, errOut := runPlay(b, g, dir, env, argv)
				m := collected.FindStringSubmatch(errOut)
				if m == nil {
					b.Fatalf("no instruction count from callgrind:\n%s", errOut)
				}
				n, _ := strconv.ParseFloat(m[1], 64)
				return n
			}
			prefix := []string{valgrind, "--tool=callgrind", "--callgrind-out-file=" + filepath.Join(dir, "callgrind.out")}
			gr, df := g.argv(grue, dfrotz, prefix...)
			var ig, id float64
			for b.Loop() {
				ig = count([]string{"GOMAXPROCS=1", "GODEBUG=asyncpreemptoff=1"}, gr)
				id = count(nil, df)
			}
			b.ReportMetric(ig/1e6, "grue-MIr")
			b.ReportMetric(id/1e6, "dfrotz-MIr")
			b.ReportMetric(ig/id, "grue/dfrotz")
		})
	}
}
