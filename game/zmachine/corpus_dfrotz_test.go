package zmachine_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/game/zmachine"
	"github.com/grue-lab/grue/internal/testgames"
)

// randomScript makes a script of n commands for story from seed with
// [testgames.RandomScript], from the story's dictionary.
func randomScript(t testing.TB, story *zmachine.Story, seed int64, n int) []string {
	m, err := zmachine.New(story, zmachine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	for _, e := range m.Dictionary() {
		words = append(words, e.Word)
	}
	return testgames.RandomScript(words, seed, n)
}

// corpusFault is a place where dfrotz itself goes wrong and grue is right
// (see docs/games.md): the transcripts are compared from the first
// occurrence of from in each, and must differ before it, so that a fix on
// either side shows up.
type corpusFault struct {
	from, reason string
}

// corpusFaults are the corpus games with a dfrotz fault, by name.
var corpusFaults = map[string]corpusFault{
	"minster": {"An interactive conspiracy", "the game prints its opening quotation in the lower " +
		"window and then splits the upper window over it; dfrotz's screen loses the text before it shows it"},
}

// TestCorpusDifferential plays every game of the corpus with two random
// command scripts (undo included) under dfrotz and grue and compares the
// transcripts, bold text aside.
func TestCorpusDifferential(t *testing.T) {
	dfrotz := testgames.Dfrotz(t)
	dir := filepath.Join(testgames.Dir(), "corpus")
	files, err := filepath.Glob(filepath.Join(dir, "*.z5"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		testgames.Missing(t, "no corpus games in %s", dir)
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		story, err := zmachine.Load(data)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		name := strings.TrimSuffix(filepath.Base(path), ".z5")
		for _, seed := range []int64{1, 2} {
			t.Run(fmt.Sprintf("%s/seed%d", name, seed), func(t *testing.T) {
				t.Parallel()
				lines := randomScript(t, story, seed, 60)
				fault, ok := corpusFaults[name]
				if !ok {
					checkAgainstDfrotz(t, dfrotz, path, seed, lines, "")
					return
				}
				const width = 255
				ref := normalize(dfrotzWarnings.ReplaceAllString(runDfrotz(t, dfrotz, path, seed, width, lines), ""))
				got := runGrue(story, zmachine.Options{Seed: seed, Width: width, Files: zmachine.DirFiles(t.TempDir()), Name: name}, lines)
				g := normalize(got.String())
				i, j := strings.Index(ref, fault.from), strings.Index(g, fault.from)
				if i < 0 || j < 0 {
					t.Fatalf("%q is missing from a transcript (dfrotz at %d, grue at %d)", fault.from, i, j)
				}
				if ref[:i] == g[:j] {
					t.Errorf("dfrotz fault gone: the transcripts agree before %q (%s)", fault.from, fault.reason)
				}
				if ref[i:] != g[j:] || got.err != nil {
					k := commonPrefix(ref[i:], g[j:])
					t.Errorf("grue differs from dfrotz after %q (err %v):\n--- dfrotz:\n%s\n--- grue:\n%s", fault.from, got.err, excerpt(ref[i:], k), excerpt(g[j:], k))
				}
			})
		}
	}
}

// TestCorpusIllegalObject plays the Sherbet script on which the game
// itself goes wrong (it asks for object 65535; dfrotz stops with "Fatal
// error: Illegal object"): grue stops too, with an error naming the object.
func TestCorpusIllegalObject(t *testing.T) {
	path := testgames.Path(t, filepath.Join("corpus", "sherbet.z5"))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	story, err := zmachine.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	lines := randomScript(t, story, 5, 80)
	got := runGrue(story, zmachine.Options{Seed: 5, Width: 255, Files: zmachine.DirFiles(t.TempDir()), Name: "sherbet"}, lines)
	if got.err == nil || !strings.Contains(got.err.Error(), "illegal object 65535") {
		t.Fatalf("grue's error is %v; want one naming illegal object 65535", got.err)
	}
}
