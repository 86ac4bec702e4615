package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"
)

// BenchmarkStartShuffled measures start-up as BenchmarkStartProcess does,
// with two differences that make builds and machines comparable when the
// machine's load changes from one second to the next:
//
//   - every start of every command is run in one random order, so that a
//     busy moment slows them all alike, dfrotz's included;
//   - grue runs from several copies of its binary ($GRUE_BENCH_COPIES,
//     default 3), because identical files at different paths start
//     tenths of a millisecond apart, run after run (where the page cache
//     holds each: the tenth start-up round in `git show 7485481:docs/performance.md`).
//
// Each of the b.N rounds starts every command from every copy once. The
// metrics are each command's median start over all copies, in
// milliseconds, and agent's median over dfrotz's:
//
//	go test -run XXX -bench StartShuffled -benchtime 100x ./cmd/grue
func BenchmarkStartShuffled(b *testing.B) {
	games, story := startBenchStory(b)
	dfrotz := findDfrotz(b)
	copies := 3
	if s := os.Getenv("GRUE_BENCH_COPIES"); s != "" {
		var err error
		if copies, err = strconv.Atoi(s); err != nil || copies < 1 {
			b.Fatalf("GRUE_BENCH_COPIES=%q: want a positive number", s)
		}
	}
	dir := b.TempDir()
	built := buildGrue(b, dir)
	data, err := os.ReadFile(built)
	if err != nil {
		b.Fatal(err)
	}
	type start struct {
		name string // the metric
		argv []string
	}
	var starts []start
	for i := range copies {
		bin := filepath.Join(dir, fmt.Sprintf("grue-%d", i))
		if err := os.WriteFile(bin, data, 0o755); err != nil {
			b.Fatal(err)
		}
		starts = append(starts,
			start{"version", []string{bin, "version"}},
			start{"play", []string{bin, "play", "--plain", story}},
			start{"serve", []string{bin, "serve"}},
			start{"agent", []string{bin, "agent", "--game", story, "--policy", "walkthrough", "--steps", "1", "--json"}})
	}
	starts = append(starts, start{"dfrotz", []string{dfrotz, "-m", "-p", "-q", story}})

	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer null.Close()
	env := append(os.Environ(), "GRUE_GAMES="+games)
	took := map[string][]time.Duration{}
	order := make([]int, len(starts))
	for i := range order {
		order[i] = i
	}
	for b.Loop() {
		rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			s := starts[i]
			cmd := exec.Command(s.argv[0], s.argv[1:]...)
			cmd.Dir, cmd.Env = dir, env
			cmd.Stdin, cmd.Stdout, cmd.Stderr = null, null, null
			t := time.Now()
			if err := cmd.Run(); err != nil {
				b.Fatalf("%v: %v", s.argv, err)
			}
			took[s.name] = append(took[s.name], time.Since(t))
		}
	}
	median := func(name string) float64 {
		d := took[name]
		slices.Sort(d)
		return float64(d[len(d)/2].Microseconds()) / 1000
	}
	for _, name := range []string{"version", "play", "serve", "agent", "dfrotz"} {
		b.ReportMetric(median(name), name+"-ms")
	}
	b.ReportMetric(median("agent")/median("dfrotz"), "agent/dfrotz")
	b.ReportMetric(0, "ns/op") // a round is many starts: the metrics are the medians
}
