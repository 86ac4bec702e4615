package zmachine_test

// Differential tests: grue's Z-machine against Frotz's plain-text front end
// (dfrotz), the reference that docs/design.md holds the interpreter to. Each case
// runs one story with one command script at one seed twice, once through
// `dfrotz -m -p -q -s SEED -w 255` as a process and once through
// zmachine.Machine in process, and compares the transcripts after
// normalising whitespace.
//
// Story files come from GRUE_GAMES (default ../shared/games next to the
// repository). Without a story file or dfrotz a case is skipped, or fails
// when CI=true.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/internal/testgames"

	"github.com/grue-lab/grue/game/zmachine"
)

// readScript reads a command script: one input line per line of the file.
// Blank lines inside are kept (an empty command is input too); the newline
// ending the file does not make an extra empty line.
func readScript(tb testing.TB, path string) []string {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("reading script: %v", err)
	}
	return splitLines(string(data))
}

func splitLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// runDfrotz plays lines through dfrotz in a fresh directory (save files land
// there) and returns what it printed on stdout. dfrotz prints "EOT" on stderr
// when its input runs out; stdout holds only the game's text, each line of
// input read followed by the newline dfrotz prints for it.
func runDfrotz(tb testing.TB, dfrotz, story string, seed int64, width int, lines []string, extra ...string) string {
	tb.Helper()
	abs, err := filepath.Abs(story)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{"-m", "-p", "-q", "-s", strconv.FormatInt(seed, 10), "-w", strconv.Itoa(width)}, extra...)
	cmd := exec.CommandContext(ctx, dfrotz, append(args, abs)...)
	cmd.Dir = tb.TempDir()
	var in bytes.Buffer
	for _, l := range lines {
		in.WriteString(l)
		in.WriteByte('\n')
	}
	cmd.Stdin = &in
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		tb.Fatalf("dfrotz %s: %v\nstderr: %s", filepath.Base(story), err, stderr.String())
	}
	return stdout.String()
}

// transcript is grue's side of a run, split by command so that a difference
// can be traced to the command that caused it.
type transcript struct {
	// chunks[0] is the text before the first input; chunks[i] is what
	// followed input line i-1 (with the newline dfrotz would print for it).
	chunks []string
	// consumed is how many input lines the machine took before it halted,
	// failed or ran out of lines.
	consumed int
	state    zmachine.State
	err      error
	// errAt is the index in chunks of the step that failed.
	errAt int
}

func (t *transcript) String() string { return strings.Join(t.chunks, "") }

// runGrue plays lines through grue's machine in process, mimicking what
// dfrotz prints around input: the rows of the upper window the game wrote
// (UpperChanges) before the text of the lower window, a newline after each
// line read for a command,
// nothing after a file name, and for a key (read_char) nothing: the
// machine's dfrotz mode (DfrotzScreen) prints the row the key was read on
// again, as dfrotz shows that row once more when it next reads.
//
// name is the story file's name without its extension: dfrotz offers
// name.qzl at the first save prompt. The machine loses the text dfrotz's
// screen loses (see DfrotzScreen); grue itself keeps it.
func runGrue(story *zmachine.Story, opts zmachine.Options, lines []string) *transcript {
	tr := &transcript{errAt: -1}
	m, err := zmachine.New(story, opts)
	if err != nil {
		tr.err, tr.errAt = err, 0
		return tr
	}
	zmachine.DfrotzScreen(m)
	out, err := m.Start()
	tr.chunks = append(tr.chunks, m.UpperChanges()+out)
	if err != nil {
		tr.err, tr.errAt = err, 0
		tr.state = m.State()
		return tr
	}
	var all strings.Builder
	all.WriteString(out)
	for _, line := range lines {
		st := m.State()
		if st == zmachine.Halted {
			break
		}
		var pre string
		if st == zmachine.WaitLine {
			pre = "\n"
		}
		out, err := m.Step(line)
		tr.consumed++
		chunk := pre + m.UpperChanges() + out
		tr.chunks = append(tr.chunks, chunk)
		all.WriteString(chunk)
		if err != nil {
			tr.err, tr.errAt = err, len(tr.chunks)-1
			break
		}
	}
	tr.state = m.State()
	return tr
}

// normalizer folds every run of whitespace into one space and trims the
// ends, keeping track of where each appended chunk starts. Whitespace right
// after a ">" is dropped: dfrotz swallows the first newline a game prints
// after a line of input, so its replies run on from the prompt.
type normalizer struct {
	b       strings.Builder
	pending bool // whitespace seen since the last non-space
	prompt  bool // the last non-space was ">"
}

func (n *normalizer) write(s string) {
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v' {
			n.pending = !n.prompt
			continue
		}
		n.prompt = r == '>'
		if n.pending && n.b.Len() > 0 {
			n.b.WriteByte(' ')
		}
		n.pending = false
		n.b.WriteRune(r)
	}
}

// offset is where the next non-space text will start in the result.
func (n *normalizer) offset() int {
	if n.pending && n.b.Len() > 0 {
		return n.b.Len() + 1
	}
	return n.b.Len()
}

func normalize(s string) string {
	var n normalizer
	n.write(s)
	return n.b.String()
}

// diffContext is how many characters of each transcript a mismatch report
// shows on either side of the first difference.
const diffContext = 150

// compareTranscripts returns "" when grue's transcript matches dfrotz's
// after normalisation, and otherwise a report naming the first command
// whose reply differs, with each side's text around the first difference.
func compareTranscripts(want string, got *transcript, lines []string) string {
	w := normalize(want)
	var n normalizer
	starts := make([]int, len(got.chunks))
	for i, c := range got.chunks {
		starts[i] = n.offset()
		n.write(c)
	}
	g := n.b.String()
	if w == g && got.err == nil {
		return ""
	}
	i := commonPrefix(w, g)
	var msg strings.Builder
	if w == g {
		fmt.Fprintf(&msg, "transcripts match but grue failed at %s: %v\n", describeStep(got.errAt, lines), got.err)
		return msg.String()
	}
	step := 0
	for k := range starts {
		if starts[k] <= i {
			step = k
		}
	}
	fmt.Fprintf(&msg, "first difference in the reply to %s, at character %d of the normalised transcripts (dfrotz %d chars, grue %d chars)\n",
		describeStep(step, lines), i, len(w), len(g))
	if step > 1 {
		fmt.Fprintf(&msg, "previous command: %s\n", describeStep(step-1, lines))
	}
	fmt.Fprintf(&msg, "--- dfrotz:\n%s\n--- grue:\n%s\n", excerpt(w, i), excerpt(g, i))
	if got.err != nil {
		fmt.Fprintf(&msg, "grue stopped with an error at %s: %v\n", describeStep(got.errAt, lines), got.err)
	}
	if i == len(g) && got.consumed < len(lines) {
		fmt.Fprintf(&msg, "grue's transcript ends there while dfrotz's goes on: the reply to %s is missing\n", describeStep(got.consumed+1, lines))
	}
	if got.consumed < len(lines) && got.err == nil {
		fmt.Fprintf(&msg, "grue took %d of %d input lines, then was %v\n", got.consumed, len(lines), got.state)
	}
	return msg.String()
}

// describeStep names chunk k: the start-up text or input line k-1.
func describeStep(k int, lines []string) string {
	if k <= 0 {
		return "the start-up (before the first command)"
	}
	if k-1 < len(lines) {
		return fmt.Sprintf("command %d %q (script line %d)", k-1, lines[k-1], k)
	}
	return fmt.Sprintf("step %d", k)
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// excerpt shows s around offset i, with [*] marking the offset.
func excerpt(s string, i int) string {
	lo := max(0, i-diffContext)
	hi := min(len(s), i+diffContext)
	head, tail := "", ""
	if lo > 0 {
		head = "…"
	}
	if hi < len(s) {
		tail = "…"
	}
	if i > len(s) {
		i = len(s)
	}
	return head + s[lo:i] + "[*]" + s[i:hi] + tail
}

// diffCase is one differential run.
type diffCase struct {
	name   string
	story  string // path of the story file
	script string // path of the command script, or
	lines  []string
	seed   int64
	// want is text grue's transcript must contain (checked after
	// normalisation), as a check that the run went where it should.
	want string
}

// diffCases lists the runs: the shared games with the walkthrough and the
// scripts in testdata/scripts, and every story in testdata/stories that has
// a script of the same base name there.
func diffCases(t *testing.T) []diffCase {
	games := testgames.Dir()
	g := func(name string) string { return filepath.Join(games, name) }
	sc := func(name string) string { return filepath.Join("testdata", "scripts", name) }
	cases := []diffCase{
		{name: "zork1/walkthrough/seed12", story: g("zork1.z3"), script: g("zork1.walkthrough.txt"), seed: 12,
			want: "Your score is 350 (total of 350 points)"},
		{name: "zork1/saverestore/seed12", story: g("zork1.z3"), script: sc("zork1-saverestore.txt"), seed: 12,
			want: "Do you wish to leave the game?"},
		{name: "zork2/start/seed12", story: g("zork2.z3"), script: sc("zork2-start.txt"), seed: 12,
			want: "Gazebo"},
		{name: "zork2/start/seed5", story: g("zork2.z3"), script: sc("zork2-start.txt"), seed: 5,
			want: "Gazebo"},
		{name: "zork3/start/seed12", story: g("zork3.z3"), script: sc("zork3-start.txt"), seed: 12,
			want: "Damp Passage"},
		{name: "praxix/all/seed7", story: g("praxix.z5"), lines: []string{"all"}, seed: 7,
			want: "All tests passed."},
		// The project's default story (game/stories), its walkthrough to
		// the end and a death in the dark.
		{name: "lantern/walkthrough/seed1", story: filepath.Join("..", "stories", "lantern.z5"),
			script: filepath.Join("..", "stories", "lantern.walkthrough.txt"), seed: 1,
			want: "scored 60 out of a possible 60"},
		{name: "lantern/dark/seed3", story: filepath.Join("..", "stories", "lantern.z5"),
			lines: []string{"north", "north", "north", "wait", "wait"}, seed: 3,
			want: "Would you like to RESTART"},
	}
	for _, seed := range []int64{1, 7, 12, 99} {
		cases = append(cases, diffCase{
			name: fmt.Sprintf("zork1/troll/seed%d", seed), story: g("zork1.z3"),
			script: sc("zork1-troll.txt"), seed: seed, want: "Your score is",
		})
	}
	var own []string
	for _, ext := range []string{"z3", "z4", "z5", "z7", "z8"} {
		m, err := filepath.Glob(filepath.Join("testdata", "stories", "*."+ext))
		if err != nil {
			t.Fatal(err)
		}
		own = append(own, m...)
	}
	for _, story := range own {
		base := filepath.Base(story)
		name := strings.TrimSuffix(base, filepath.Ext(base))
		script := sc(name + ".txt")
		if _, err := os.Stat(script); err != nil {
			continue
		}
		cases = append(cases, diffCase{name: "stories/" + base + "/seed7", story: story, script: script, seed: 7})
	}
	return cases
}

func TestDfrotzDifferential(t *testing.T) {
	dfrotz := testgames.Dfrotz(t)
	for _, c := range diffCases(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			story := c.story
			if _, err := os.Stat(story); err != nil {
				testgames.Missing(t, "story file %s not found (GRUE_GAMES=%s): %v", filepath.Base(story), testgames.Dir(), err)
			}
			lines := c.lines
			if c.script != "" {
				if _, err := os.Stat(c.script); err != nil {
					testgames.Missing(t, "script %s not found: %v", c.script, err)
				}
				lines = readScript(t, c.script)
			}
			checkAgainstDfrotz(t, dfrotz, story, c.seed, lines, c.want)
		})
	}
}

// checkAgainstDfrotz runs one story and script both ways and reports the
// first difference.
func checkAgainstDfrotz(t *testing.T, dfrotz, storyPath string, seed int64, lines []string, want string) {
	t.Helper()
	const width = 255
	data, err := os.ReadFile(storyPath)
	if err != nil {
		t.Fatal(err)
	}
	story, err := zmachine.Load(data)
	if err != nil {
		t.Fatalf("Load %s: %v", filepath.Base(storyPath), err)
	}
	ref := dfrotzWarnings.ReplaceAllString(runDfrotz(t, dfrotz, storyPath, seed, width, lines), "")
	name := strings.TrimSuffix(filepath.Base(storyPath), filepath.Ext(storyPath))
	got := runGrue(story, zmachine.Options{Seed: seed, Width: width, Files: zmachine.DirFiles(t.TempDir()), Name: name}, lines)

	if want != "" && !strings.Contains(normalize(ref), want) {
		t.Errorf("dfrotz's own transcript lacks %q: the script or the story file is not the one this test expects", want)
	}
	if report := compareTranscripts(ref, got, lines); report != "" {
		t.Errorf("%s seed %d: grue differs from dfrotz\n%s%s", filepath.Base(storyPath), seed, report, keepTranscripts(t, ref, got.String()))
	}
	if want != "" && !strings.Contains(normalize(got.String()), want) {
		t.Errorf("grue's transcript lacks %q", want)
	}
	var zerr *zmachine.Error
	if errors.As(got.err, &zerr) {
		t.Logf("grue error at PC 0x%05x: %s", zerr.PC, zerr.Msg)
	}
}

// dfrotzWarnings matches the warnings dfrotz prints among the game's text
// when a game breaks a rule of the Standard that Frotz lets pass (an
// object 0 given to get_child or test_attr, say). grue follows the same
// lenient course without a word, so they are left out of the comparison.
var dfrotzWarnings = regexp.MustCompile(`Warning: [^\n]*?\(will ignore further occurrences\)\n?`)

// keepTranscripts writes both raw transcripts of a failed case to a
// directory that outlives the test, for a closer look, and says where.
func keepTranscripts(t *testing.T, ref, got string) string {
	dir, err := os.MkdirTemp("", "grue-diff-")
	if err != nil {
		return ""
	}
	name := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())
	a := filepath.Join(dir, name+".dfrotz.txt")
	b := filepath.Join(dir, name+".grue.txt")
	if os.WriteFile(a, []byte(ref), 0o644) != nil || os.WriteFile(b, []byte(got), 0o644) != nil {
		return ""
	}
	return fmt.Sprintf("full transcripts: diff %s %s\n", a, b)
}

// TestNormalize pins down the whitespace folding the comparison relies on.
func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"  \n ", ""},
		{"a", "a"},
		{"\n\nWest of House\nYou are\t here.\n\n>", "West of House You are here. >"},
		{">\n\nTaken.\n\n>", ">Taken. >"},
		{"Score: 3 > 2\n>  look", "Score: 3 >2 >look"},
	} {
		if got := normalize(c.in); got != c.want {
			t.Errorf("normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestCompareTranscripts checks that a mismatch is traced to the command
// whose reply differs.
func TestCompareTranscripts(t *testing.T) {
	lines := []string{"look", "take lamp", "n"}
	ref := "Intro\n>\nRoom\n>\nTaken.\n>\nNorth\n>"
	same := &transcript{chunks: []string{"Intro\n>", "\nRoom\n>", "\nTaken.\n>", "\nNorth\n>"}, errAt: -1}
	if r := compareTranscripts(ref, same, lines); r != "" {
		t.Fatalf("equal transcripts reported as different:\n%s", r)
	}
	diff := &transcript{chunks: []string{"Intro\n>", "\nRoom\n>", "\nYou can't.\n>", "\nNorth\n>"}, errAt: -1}
	r := compareTranscripts(ref, diff, lines)
	if !strings.Contains(r, `command 1 "take lamp"`) {
		t.Fatalf("report does not name command 1 \"take lamp\":\n%s", r)
	}
	short := &transcript{chunks: []string{"Intro\n>", "\nRoom\n>"}, errAt: -1, consumed: 1}
	r = compareTranscripts(ref, short, lines)
	if !strings.Contains(r, "grue took 1 of 3 input lines") {
		t.Fatalf("report does not say grue stopped early:\n%s", r)
	}
}
