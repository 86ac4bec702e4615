package glk_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/grue-lab/grue/game/glk"
	"github.com/grue-lab/grue/game/glulx"
	"github.com/grue-lab/grue/internal/testgames"
)

// The unit tests of ../shared/games/glulx/unittests come with expected
// transcripts in regtests/, in the format of zarf's regtest.py: "* name"
// starts a test (the game from the start), "> command" (or ">{char}KEY")
// is an input, and the lines after it are checks on the text it printed:
// a line that must occur in it, "!line" one that must not, "/regexp" a
// pattern, "{status} line" a check of the status window.

type regCheck struct {
	text    string
	not     bool
	re      *regexp.Regexp
	status  bool
	lineNum int
}

type regStep struct {
	input  string // "" for the start
	kind   string // "" for a line, else what follows ">{": char, timer...
	checks []regCheck
}

type regTest struct {
	name  string
	steps []regStep
}

func parseRegtest(path string) (game string, tests []regTest, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		ln := sc.Text()
		switch {
		case strings.HasPrefix(ln, "** game:"):
			game = strings.TrimSpace(strings.TrimPrefix(ln, "** game:"))
		case strings.HasPrefix(ln, "**"):
		case strings.HasPrefix(ln, "* "):
			tests = append(tests, regTest{name: strings.TrimSpace(ln[2:]), steps: []regStep{{}}})
		case strings.TrimSpace(ln) == "" || strings.HasPrefix(ln, "#"):
		case len(tests) == 0:
			return "", nil, fmt.Errorf("%s:%d: a check before any test", path, n)
		case strings.HasPrefix(ln, ">"):
			st := regStep{input: strings.TrimSpace(ln[1:])}
			if strings.HasPrefix(st.input, "{") {
				if i := strings.Index(st.input, "}"); i > 0 {
					st.kind, st.input = st.input[1:i], strings.TrimSpace(st.input[i+1:])
				}
			}
			t := &tests[len(tests)-1]
			t.steps = append(t.steps, st)
		default:
			c := regCheck{lineNum: n}
			if strings.HasPrefix(ln, "{status}") {
				c.status, ln = true, strings.TrimSpace(strings.TrimPrefix(ln, "{status}"))
			}
			if strings.HasPrefix(ln, "!") {
				c.not, ln = true, strings.TrimSpace(ln[1:])
			}
			if strings.HasPrefix(ln, "/") {
				re, err := regexp.Compile(ln[1:])
				if err != nil {
					return "", nil, fmt.Errorf("%s:%d: %v", path, n, err)
				}
				c.re = re
			}
			c.text = ln
			t := &tests[len(tests)-1]
			t.steps[len(t.steps)-1].checks = append(t.steps[len(t.steps)-1].checks, c)
		}
	}
	return game, tests, sc.Err()
}

func (c regCheck) holds(out string) bool {
	for _, l := range strings.Split(out, "\n") {
		if c.re != nil && c.re.MatchString(l) || c.re == nil && strings.Contains(l, c.text) {
			return true
		}
	}
	return false
}

// unrunnable names what a test needs that a plain-text Glk has not got:
// timer, mouse, hyperlink, arrange and redraw events, graphics.
func unrunnable(file string, t regTest) string {
	if why, ok := graphicsTests[file+"/"+t.name]; ok {
		return why
	}
	for _, s := range t.steps {
		switch s.kind {
		case "", "char", "fileref_prompt":
		default:
			return s.kind + " events"
		}
		for _, c := range s.checks {
			if strings.HasPrefix(c.text, "{") {
				return "the check " + c.text
			}
		}
	}
	return ""
}

// graphicsTests are tests whose checks read graphics through text:
// image_get_info answers 0 in a text interpreter (gestalt Graphics 0).
var graphicsTests = map[string]string{
	"imagetest/sizes": "image sizes (image_get_info, graphics)",
}

var specialKeys = map[string]rune{
	"escape": -8, "return": -6, "left": -2, "right": -3, "up": -4, "down": -5, "tab": -9,
	"delete": -7, "pageup": -10, "pagedown": -11, "home": -12, "end": -13,
}

// runRegtests are the unit tests grue runs, by file: all but glulxercise
// (game/glulx runs it) and localsavetest (its story is not in the
// folder). Their tests that need what a plain-text Glk refuses (timer,
// hyperlink, mouse, arrange events) are left out, each named in the log.
var runRegtests = []string{
	"memstreamtest", "unicodetest", "inputeventtest", "windowtest", "unicasetest", "datetimetest",
	"externalfile", "extbinaryfile", "resstreamtest", "inputfeaturetest", "memcopytest", "memheaptest",
	"unisourcetest", "unisourcetestb", "unidicttest", "chinesedicttest", "floatparsetest",
	"floatconsttest", "dictflagtest", "abbrevtest", "abbrevtest-e", "graphwintest", "imagetest", "startsavetest",
}

func TestUnitTestRegtests(t *testing.T) {
	dir := filepath.Join(testgames.Dir(), "glulx", "unittests")
	for _, name := range runRegtests {
		t.Run(name, func(t *testing.T) {
			game, tests, err := parseRegtest(testgames.Path(t, filepath.Join("glulx", "unittests", "regtests", name+".regtest")))
			if err != nil {
				t.Fatal(err)
			}
			story, err := os.ReadFile(filepath.Join(dir, game))
			if err != nil {
				testgames.Missing(t, "story %s: %v", game, err)
				return
			}
			for _, rt := range tests {
				if why := unrunnable(name, rt); why != "" {
					t.Logf("test %q needs %s, which a plain-text Glk refuses", rt.name, why)
					continue
				}
				runRegtest(t, story, rt)
			}
		})
	}
}

func runRegtest(t *testing.T, story []byte, rt regTest) {
	t.Helper()
	m, err := glulx.NewMachine(story, glulx.MachineOptions{Seed: 1})
	if err != nil {
		t.Fatalf("%s: %v", rt.name, err)
	}
	for i, st := range rt.steps {
		var out string
		if i == 0 {
			out, err = m.Start()
		} else {
			if m.Halted() {
				t.Errorf("test %q: the story ended before %q", rt.name, st.input)
				return
			}
			in := st.input
			if st.kind == "char" && m.Waiting() == glk.InputChar {
				r := '\n'
				switch {
				case specialKeys[strings.ToLower(in)] != 0:
					r = specialKeys[strings.ToLower(in)]
				case strings.HasPrefix(in, "0x"):
					var v int
					fmt.Sscanf(in, "0x%x", &v)
					r = rune(v)
				case in != "":
					r = []rune(in)[0]
				}
				if err := m.Glk().SendKey(r); err != nil {
					t.Fatalf("test %q: key %q: %v", rt.name, in, err)
				}
				err = m.VM().Run()
				out = m.Glk().TakeOutput()
			} else {
				out, err = m.Step(in)
			}
		}
		if err != nil {
			t.Errorf("test %q, input %q: %v", rt.name, st.input, err)
			return
		}
		for _, c := range st.checks {
			where := out
			if c.status {
				where = m.StatusLine()
			}
			if c.holds(where) == c.not {
				t.Errorf("test %q, input %q, regtest line %d: %q %s; the text was:\n%s", rt.name, st.input, c.lineNum, c.text,
					map[bool]string{false: "is missing", true: "should not be there"}[c.not], where)
			}
		}
	}
}
