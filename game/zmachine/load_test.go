package zmachine_test

import (
	"runtime"
	"testing"

	"github.com/grue-lab/grue/game/zmachine"
	"github.com/grue-lab/grue/internal/testgames"
)

// TestLoadInPlace: a story loaded in place runs as a copied one does,
// from the caller's bytes (Load copies them, LoadInPlace does not), a
// Blorb file's included.
func TestLoadInPlace(t *testing.T) {
	data := tinyLoopStory(5)
	blorb := testgames.Blorb(data, "ZCOD", nil, nil)
	for _, tc := range []struct {
		name string
		data []byte
	}{{"story", data}, {"blorb", blorb}} {
		copied, err := zmachine.Load(append([]byte(nil), tc.data...))
		if err != nil {
			t.Fatal(err)
		}
		inPlace, err := zmachine.LoadInPlace(tc.data)
		if err != nil {
			t.Fatal(err)
		}
		if inPlace.Size() != copied.Size() || inPlace.Checksum() != copied.Checksum() {
			t.Errorf("%s: in place %d bytes, checksum %04x; copied %d, %04x", tc.name, inPlace.Size(), inPlace.Checksum(), copied.Size(), copied.Checksum())
		}
		for _, s := range []*zmachine.Story{copied, inPlace} {
			m, err := zmachine.New(s, zmachine.Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if out, err := m.Start(); err != nil || out != "Hi\n> " {
				t.Errorf("%s: Start() = %q, %v; want Hi and the prompt", tc.name, out, err)
			}
		}
	}

	// Load copies: changing the bytes afterwards changes nothing.
	mine := append([]byte(nil), data...)
	s, err := zmachine.Load(mine)
	if err != nil {
		t.Fatal(err)
	}
	mine[0x02] = 9 // the release number
	if s.Release() != 1 {
		t.Errorf("Load kept the caller's bytes: release %d after they changed", s.Release())
	}

	// LoadInPlace does not copy a story file, but copies a story out of a
	// Blorb file, which may hold far more than the story.
	big := tinyStory(5, make([]byte, 200<<10)) // code of 200 KB, never run
	alloc := func(load func([]byte) (*zmachine.Story, error)) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if _, err := load(big); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	if c, p := alloc(zmachine.Load), alloc(zmachine.LoadInPlace); c < 200<<10 || p > 16<<10 {
		t.Errorf("a 200 KB story: Load allocated %d bytes, LoadInPlace %d; want a copy and none", c, p)
	}
	big = testgames.Blorb(big, "ZCOD", []testgames.Chunk{{Type: "PNG ", Data: make([]byte, 1<<20)}}, nil)
	if p := alloc(zmachine.LoadInPlace); p < 200<<10 {
		t.Errorf("a 200 KB story in a Blorb file: LoadInPlace allocated %d bytes, want a copy of the story", p)
	}
}
