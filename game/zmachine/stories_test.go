package zmachine_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// storyBuild is how each test story is compiled. It mirrors
// testdata/stories/build.sh (run by go generate): keep the two in step.
type storyBuild struct {
	source, output string
	switches       []string
	script         string // testdata/scripts file played by dfrotz
}

const informLibrary = "/usr/share/inform6/library"

var storyBuilds = []storyBuild{
	{"opcodes3.inf", "opcodes3.z3", []string{"-q", "-w", "-v3", "-e", "-~S"}, "opcodes3.txt"},
	{"opcodes5.inf", "opcodes5.z5", []string{"-q", "-w", "-v5", "-e", "-~S"}, "opcodes5.txt"},
	{"opcodes8.inf", "opcodes8.z8", []string{"-q", "-w", "-v8", "-e", "-~S", "+include_path=" + informLibrary}, "opcodes8.txt"},
	// One story for each way grue once departed from Frotz (issue 12).
	{"undorng.inf", "undorng.z5", []string{"-q", "-w", "-v5", "-~S"}, "undorng.txt"},
	{"noname.inf", "noname.z5", []string{"-q", "-w", "-v5", "-~S"}, "noname.txt"},
	{"keys.inf", "keys.z5", []string{"-q", "-w", "-v5", "-~S"}, "keys.txt"},
	{"upper.inf", "upper.z5", []string{"-q", "-w", "-v5", "-~S"}, "upper.txt"},
	// A game that draws its own status line and has no SCORE (issue 12).
	{"statusline.inf", "statusline.z5", []string{"-q", "-w", "-v5", "-~S"}, "statusline.txt"},
}

// tool finds an external program, or skips the test (fails it on CI).
func tool(t *testing.T, names ...string) string {
	t.Helper()
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := strings.Join(names, " or ") + " not found (apt-get install -y inform6-compiler inform6-library frotz)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// TestStoriesRebuild compiles every story in testdata/stories and checks that
// the result is byte-identical to the committed story file.
func TestStoriesRebuild(t *testing.T) {
	inform := tool(t, "inform6")
	dir, err := filepath.Abs(filepath.Join("testdata", "stories"))
	if err != nil {
		t.Fatal(err)
	}
	sources, err := filepath.Glob(filepath.Join(dir, "*.inf"))
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, b := range storyBuilds {
		known[b.source] = true
	}
	for _, src := range sources {
		if !known[filepath.Base(src)] {
			t.Errorf("%s has no entry in storyBuilds (nor, probably, in build.sh)", filepath.Base(src))
		}
	}
	for _, b := range storyBuilds {
		t.Run(b.source, func(t *testing.T) {
			tmp := t.TempDir()
			out := filepath.Join(tmp, b.output)
			args := append(append([]string{}, b.switches...), filepath.Join(dir, b.source), out)
			cmd := exec.Command(inform, args...)
			cmd.Dir = dir
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("inform6 %s: %v\n%s", strings.Join(args, " "), err, msg)
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(dir, b.output))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				n := min(len(got), len(want))
				off := n
				for i := 0; i < n; i++ {
					if got[i] != want[i] {
						off = i
						break
					}
				}
				t.Errorf("testdata/stories/%s: rebuilt file differs from the committed one at offset %d (0x%x); lengths %d rebuilt, %d committed; run go generate ./game/zmachine/ and commit",
					b.output, off, off, len(got), len(want))
			}
		})
	}
}

// TestStoriesUnderDfrotz plays every story with its script under dfrotz
// (seed 7) and fails if a self-check printed FAIL: it proves the stories
// right against the reference interpreter.
func TestStoriesUnderDfrotz(t *testing.T) {
	dfrotz := tool(t, "dfrotz", "/usr/games/dfrotz")
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range storyBuilds {
		t.Run(b.output, func(t *testing.T) {
			script, err := os.Open(filepath.Join(dir, "scripts", b.script))
			if err != nil {
				t.Fatal(err)
			}
			defer script.Close()
			cmd := exec.Command(dfrotz, "-m", "-p", "-q", "-s", "7", "-w", "255",
				filepath.Join(dir, "stories", b.output))
			cmd.Dir = t.TempDir() // save files land here
			cmd.Stdin = script
			var out bytes.Buffer
			cmd.Stdout = &out
			cmd.Stderr = &out
			if err := cmd.Run(); err != nil {
				t.Fatalf("dfrotz %s: %v\n%s", b.output, err, out.String())
			}
			text := out.String()
			for i, line := range strings.Split(text, "\n") {
				if strings.Contains(line, "FAIL") {
					t.Errorf("%s line %d: %s", b.output, i+1, line)
				}
			}
			for _, bad := range []string{"Fatal error", "Warning:", "EOT"} {
				if strings.Contains(text, bad) {
					t.Errorf("%s: transcript contains %q:\n%s", b.output, bad, text)
				}
			}
			if t.Failed() {
				t.Logf("transcript:\n%s", text)
			}
		})
	}
}
