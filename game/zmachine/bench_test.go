package zmachine_test

// Benchmarks of the interpreter on Zork I. docs/performance.md says how to
// run them and records the figures measured.

import (
	"os"
	"testing"

	"github.com/grue-lab/grue/internal/testgames"

	"github.com/grue-lab/grue/game/zmachine"
)

// loadGame loads a shared story file, or skips the test or benchmark.
func loadGame(b testing.TB, name string) *zmachine.Story {
	b.Helper()
	data, err := os.ReadFile(testgames.Path(b, name))
	if err != nil {
		b.Fatal(err)
	}
	story, err := zmachine.Load(data)
	if err != nil {
		b.Fatalf("Load %s: %v", name, err)
	}
	return story
}

// walkthrough returns the Zork I solution's commands, or skips.
func walkthrough(b *testing.B) []string {
	b.Helper()
	return readScript(b, testgames.Path(b, "zork1.walkthrough.txt"))
}

// playTo starts a Zork I machine at seed 12 and plays the first n commands
// of the walkthrough.
func playTo(b *testing.B, story *zmachine.Story, lines []string, n int) *zmachine.Machine {
	b.Helper()
	m, err := zmachine.New(story, zmachine.Options{Seed: 12, Width: 80})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := m.Start(); err != nil {
		b.Fatalf("Start: %v", err)
	}
	for i, l := range lines[:n] {
		if _, err := m.Step(l); err != nil {
			b.Fatalf("command %d %q: %v", i, l, err)
		}
	}
	return m
}

// BenchmarkWalkthroughInProcess plays the whole Zork I walkthrough (396
// commands, seed 12) per iteration: New, Start and every Step.
func BenchmarkWalkthroughInProcess(b *testing.B) {
	story := loadGame(b, "zork1.z3")
	lines := walkthrough(b)
	b.ReportAllocs()
	var instr uint64
	var commands int
	for b.Loop() {
		m, err := zmachine.New(story, zmachine.Options{Seed: 12, Width: 80})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := m.Start(); err != nil {
			b.Fatalf("Start: %v", err)
		}
		for i, l := range lines {
			if m.State() == zmachine.Halted {
				break
			}
			if _, err := m.Step(l); err != nil {
				b.Fatalf("command %d %q: %v", i, l, err)
			}
			commands++
		}
		instr += m.Instructions()
	}
	sec := b.Elapsed().Seconds()
	if commands > 0 && sec > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(commands), "ns/command")
		b.ReportMetric(float64(instr)/sec, "instr/s")
		b.ReportMetric(float64(instr)/float64(b.N), "instr/op")
	}
}

// BenchmarkStep times one typical command from a fixed mid-game state
// (after the walkthrough's first 30 commands): each iteration restores the
// snapshot and steps once. Allocations per Step should not grow with the
// instructions the Step executes, hence instr/op next to allocs/op.
func BenchmarkStep(b *testing.B) {
	story := loadGame(b, "zork1.z3")
	lines := walkthrough(b)
	for _, cmd := range []string{"look", "inventory", "wait", "open trophy case"} {
		b.Run(cmd, func(b *testing.B) {
			m := playTo(b, story, lines, 30)
			snap := m.Snapshot()
			b.ReportAllocs()
			var instr uint64
			for b.Loop() {
				if err := m.Restore(snap); err != nil {
					b.Fatalf("Restore: %v", err)
				}
				before := m.Instructions()
				if _, err := m.Step(cmd); err != nil {
					b.Fatalf("Step %q: %v", cmd, err)
				}
				instr += m.Instructions() - before
			}
			b.ReportMetric(float64(instr)/float64(b.N), "instr/op")
		})
	}
}

// BenchmarkSnapshotRestore times a Snapshot and Restore pair on Zork I in
// mid-game (after 150 walkthrough commands). Target: under 5 µs.
func BenchmarkSnapshotRestore(b *testing.B) {
	story := loadGame(b, "zork1.z3")
	lines := walkthrough(b)
	m := playTo(b, story, lines, 150)
	b.Run("new", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s := m.Snapshot()
			if err := m.Restore(s); err != nil {
				b.Fatalf("Restore: %v", err)
			}
		}
	})
	// SnapshotInto reuses one Snapshot's buffers, as a loop that tries
	// many actions from one state does.
	b.Run("reused", func(b *testing.B) {
		b.ReportAllocs()
		s := m.Snapshot()
		for b.Loop() {
			m.SnapshotInto(s)
			if err := m.Restore(s); err != nil {
				b.Fatalf("Restore: %v", err)
			}
		}
	})
}

// heavyCorpusGames are the corpus games that execute the most Z-machine
// instructions per command of a random script (measured with the scripts
// randomScript makes at seed 1: 7,000 to 23,000 instructions a command),
// and spot.z5, where grue was furthest behind dfrotz.
var heavyCorpusGames = []string{"piracy_2", "building", "parallel", "lily", "spot"}

// BenchmarkCorpusInProcess plays a random script of 300 commands (seed 1,
// undo included) per iteration on each of the heaviest corpus games: New,
// Start and every Step. instr/s is the interpreter's speed on Inform code.
func BenchmarkCorpusInProcess(b *testing.B) {
	for _, name := range heavyCorpusGames {
		b.Run(name, func(b *testing.B) {
			story := loadGame(b, "corpus/"+name+".z5")
			lines := randomScript(b, story, 1, 300)
			b.ReportAllocs()
			var instr uint64
			for b.Loop() {
				m, err := zmachine.New(story, zmachine.Options{Seed: 1, Width: 80})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := m.Start(); err != nil {
					b.Fatalf("Start: %v", err)
				}
				for i, l := range lines {
					if m.State() == zmachine.Halted {
						break
					}
					if _, err := m.Step(l); err != nil {
						b.Fatalf("command %d %q: %v", i, l, err)
					}
				}
				instr += m.Instructions()
			}
			if sec := b.Elapsed().Seconds(); sec > 0 {
				b.ReportMetric(float64(instr)/sec, "instr/s")
				b.ReportMetric(float64(instr)/float64(b.N), "instr/op")
			}
		})
	}
}
