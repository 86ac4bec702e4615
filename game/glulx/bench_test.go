package glulx_test

import (
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/internal/testgames"
)

// benchScript is 200 commands drawn from a fixed seed: moves, inventory,
// take and drop, and undo, the turns an agent plays.
func benchScript() []string {
	r := rand.New(rand.NewSource(3))
	w := []string{"look", "north", "south", "east", "west", "inventory", "take all", "drop all", "examine me", "wait", "undo", "x table", "open door"}
	lines := make([]string, 200)
	for i := range lines {
		lines[i] = w[r.Intn(len(w))]
	}
	return lines
}

// BenchmarkVsGlulxe plays the heaviest corpus games with benchScript on
// grue (in process) and on glulxe (a process), and reports grue's time
// as a fraction of glulxe's (grue/glulxe) besides ns/op for grue.
func BenchmarkVsGlulxe(b *testing.B) {
	for _, name := range []string{"tw-cooking-hard-68kvf8x7TBd9Iq0P.ulx", "Lowells_Paradise.ulx", "i7-min-6M62-g.ulx", "Advent-i641.ulx"} {
		b.Run(name, func(b *testing.B) {
			story := testgames.Path(b, filepath.Join("glulx", "corpus", name))
			bin := glulxeBin(b)
			data, err := os.ReadFile(story)
			if err != nil {
				b.Fatal(err)
			}
			lines := benchScript()
			var ref time.Duration
			for range 3 {
				cmd := exec.Command(bin, "-q", "-w", "80", "--rngseed", "1", story)
				cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
				start := time.Now()
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
				if d := time.Since(start); ref == 0 || d < ref {
					ref = d
				}
			}
			b.ResetTimer()
			start := time.Now()
			for range b.N {
				m, err := newMachine(data)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := play(m, lines); err != nil {
					b.Fatal(err)
				}
			}
			per := time.Since(start) / time.Duration(b.N)
			b.ReportMetric(float64(per)/float64(ref), "grue/glulxe")
		})
	}
}

// BenchmarkSnapshot measures a snapshot and a restore of an Inform 7
// game in play (the TextWorld game, the largest RAM of the corpus).
func BenchmarkSnapshot(b *testing.B) {
	data, err := os.ReadFile(testgames.Path(b, filepath.Join("glulx", "corpus", "tw-cooking-hard-68kvf8x7TBd9Iq0P.ulx")))
	if err != nil {
		b.Fatal(err)
	}
	m, err := newMachine(data)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := m.Start(); err != nil {
		b.Fatal(err)
	}
	for _, c := range benchScript()[:20] {
		if _, err := m.Step(c); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("RAM %d bytes", len(m.VM().RAM()))
	b.Run("snapshot", func(b *testing.B) {
		for range b.N {
			_ = m.Snapshot()
		}
		b.ReportMetric(float64(m.Snapshot().Size()), "bytes")
	})
	s := m.Snapshot()
	b.Run("restore", func(b *testing.B) {
		for range b.N {
			if err := m.Restore(s); err != nil {
				b.Fatal(err)
			}
		}
	})
}
