package harness

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkParallelEpisodes plays 16 episodes of 3 steps against a local
// model server that answers every request in 100 ms, one at a time and 16
// at a time, and reports the speed-up (the issue asks for at least 10x):
//
//	go test -run '^$' -bench ParallelEpisodes -benchtime 1x ./harness
func BenchmarkParallelEpisodes(b *testing.B) {
	srv := playerServer(b, 100*time.Millisecond)
	cfg := &Config{
		Name:     "throughput",
		Variants: []Variant{{Name: "model", Model: "scripted", BaseURL: srv.URL()}},
		Games:    []string{"lantern"},
		Trials:   16,
		BaseSeed: 1,
		MaxSteps: 3,
	}
	n := 0
	run := func(parallel int) time.Duration {
		n++
		start := time.Now()
		rs, err := Run(context.Background(), cfg, RunOptions{Out: filepath.Join(b.TempDir(), fmt.Sprint(n)), Parallel: parallel})
		took := time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range rs.Records {
			if r.Failed() || r.Steps != 3 {
				b.Fatalf("%s: %d steps, error %q", r.Key(), r.Steps, r.Error)
			}
		}
		if rs.Len() != 16 {
			b.Fatalf("%d episodes, want 16", rs.Len())
		}
		return took
	}
	var seq, par time.Duration
	for b.Loop() {
		seq += run(1)
		par += run(16)
	}
	speedup := float64(seq) / float64(par)
	b.ReportMetric(speedup, "speedup")
	b.ReportMetric(seq.Seconds()/float64(b.N), "sequential-s/op")
	b.ReportMetric(par.Seconds()/float64(b.N), "parallel16-s/op")
	if speedup < 10 {
		b.Errorf("16 parallel episodes were only %.1fx faster than one at a time; want at least 10x", speedup)
	}
}
