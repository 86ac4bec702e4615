package glulx_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/grue-lab/grue/internal/testgames"
)

// regTest is one test of a RegTest file (zarf's regtest.py format): the
// game, then commands ("> cmd"), each followed by lines that its output
// must hold ("!" first: must not hold; "/" first: a regular expression).
type regTest struct {
	name  string
	game  string
	steps []regStep // steps[0] is the opening text, with no command
	plain string    // "" if a plain-text Glk can run it, else why not
}

type regStep struct {
	cmd    string
	checks []string
}

var regSpecial = regexp.MustCompile(`\{(char|timer|hyperlink|mouse|arrange|refresh|graphics|image|status)`)

func parseRegtests(text string) []*regTest {
	var tests []*regTest
	var cur *regTest
	game := ""
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.HasPrefix(line, "** game:"):
			game = strings.TrimSpace(strings.TrimPrefix(line, "** game:"))
			if cur != nil {
				cur.game = game
			}
		case strings.HasPrefix(line, "**"), strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "* "):
			cur = &regTest{name: strings.TrimSpace(line[2:]), game: game, steps: []regStep{{}}}
			tests = append(tests, cur)
		case cur == nil || strings.TrimSpace(line) == "":
		case strings.HasPrefix(line, ">"):
			if m := regSpecial.FindStringSubmatch(line); m != nil && cur.plain == "" {
				cur.plain = "its input {" + m[1] + "} is one a plain-text Glk has no way to give"
			}
			cur.steps = append(cur.steps, regStep{cmd: strings.TrimSpace(line[1:])})
		default:
			if m := regSpecial.FindStringSubmatch(line); m != nil && cur.plain == "" {
				cur.plain = "it checks {" + m[1] + "}, which a plain-text Glk does not show"
			}
			s := &cur.steps[len(cur.steps)-1]
			s.checks = append(s.checks, line)
		}
	}
	return tests
}

// TestRegtests runs the Glulx unit tests' RegTest scripts (regtests/)
// wherever a plain-text Glk can: every check of every command must hold
// in the main window's text.
func TestRegtests(t *testing.T) {
	dir := filepath.Dir(testgames.Path(t, filepath.Join("glulx", "unittests", "glulxercise.ulx")))
	files, err := filepath.Glob(filepath.Join(dir, "regtests", "*.regtest"))
	if err != nil || len(files) == 0 {
		testgames.Missing(t, "no regtests in %s: %v", dir, err)
	}
	bin := glulxe(t)
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, rt := range parseRegtests(string(text)) {
			t.Run(strings.TrimSuffix(filepath.Base(f), ".regtest")+"/"+rt.name, func(t *testing.T) {
				if rt.plain != "" {
					t.Skipf("not runnable on plain text: %s", rt.plain)
				}
				story := filepath.Join(dir, rt.game)
				if _, err := os.Stat(story); err != nil {
					t.Skipf("its story %s is not among the shared unit tests", rt.game)
				}
				var cmds []string
				for _, st := range rt.steps[1:] {
					cmds = append(cmds, st.cmd)
				}
				ref := string(runGlulxe(t, bin, story, 1, cmds, "-u")) // UTF-8, as regtest runs it
				runRegtest(t, story, rt, ref)
			})
		}
	}
}

// runRegtest runs one test. A positive check that glulxe over cheapglk
// fails too (its whole transcript lacks the text: an image's size, which
// a plain-text Glk does not know) is one a plain-text Glk cannot pass,
// and is left out, with a note in the log.
func runRegtest(t *testing.T, story string, rt *regTest, ref string) {
	data, err := os.ReadFile(story)
	if err != nil {
		t.Fatal(err)
	}
	m, err := newMachine(data)
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range rt.steps {
		var out string
		if i == 0 {
			out, err = m.Start()
		} else {
			if m.Halted() {
				t.Fatalf("> %s: the story has ended", st.cmd)
			}
			out, err = m.Step(st.cmd)
		}
		if err != nil {
			t.Fatalf("> %s: %v", st.cmd, err)
		}
		for _, c := range st.checks {
			if !strings.HasPrefix(c, "!") && !strings.HasPrefix(c, "/") && !strings.Contains(ref, c) {
				t.Logf("> %s: check %q left out: glulxe over cheapglk does not pass it either", st.cmd, c)
				continue
			}
			switch {
			case strings.HasPrefix(c, "!/"):
				if regexp.MustCompile(c[2:]).MatchString(out) {
					t.Errorf("> %s: output matches %q; it should not:\n%s", st.cmd, c[2:], out)
				}
			case strings.HasPrefix(c, "!"):
				if strings.Contains(out, c[1:]) {
					t.Errorf("> %s: output holds %q; it should not:\n%s", st.cmd, c[1:], out)
				}
			case strings.HasPrefix(c, "/"):
				if !regexp.MustCompile(c[1:]).MatchString(out) {
					t.Errorf("> %s: output does not match %q:\n%s", st.cmd, c[1:], out)
				}
			default:
				if !strings.Contains(out, c) {
					t.Errorf("> %s: output lacks %q:\n%s", st.cmd, c, out)
				}
			}
		}
	}
}
