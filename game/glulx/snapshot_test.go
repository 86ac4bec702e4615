package glulx_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/grue-lab/grue/internal/testgames"
)

// TestSnapshotRestore forks a game: after a snapshot, the same commands
// give the same replies as they gave the first time, and a snapshot
// taken on one machine restores on another of the same story.
func TestSnapshotRestore(t *testing.T) {
	for _, name := range []string{"Advent-i641.ulx", "i7-min-6M62-g.ulx"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(testgames.Path(t, filepath.Join("glulx", "corpus", name)))
			if err != nil {
				t.Fatal(err)
			}
			m, err := newMachine(data)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := m.Start(); err != nil {
				t.Fatal(err)
			}
			for _, c := range []string{"in", "take all"} {
				if _, err := m.Step(c); err != nil {
					t.Fatal(err)
				}
			}
			snap := m.Snapshot()
			cmds := []string{"out", "undo", "inventory", "drop all", "look"}
			var first []string
			for _, c := range cmds {
				out, err := m.Step(c)
				if err != nil {
					t.Fatal(err)
				}
				first = append(first, out)
			}
			other, err := newMachine(append([]byte(nil), data...))
			if err != nil {
				t.Fatal(err)
			}
			for i, target := range []*struct{ name string }{{"same machine"}, {"another machine"}} {
				mm := m
				if i == 1 {
					mm = other
				}
				if err := mm.Restore(snap); err != nil {
					t.Fatalf("%s: Restore: %v", target.name, err)
				}
				for j, c := range cmds {
					out, err := mm.Step(c)
					if err != nil {
						t.Fatal(err)
					}
					if out != first[j] {
						t.Fatalf("%s: %q after restore gave\n%q\nwant\n%q", target.name, c, out, first[j])
					}
				}
			}
			if n := snap.Size(); n > 256<<10 {
				t.Errorf("snapshot is %d bytes; RAM differences should keep it small", n)
			}
		})
	}
}
