package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/grue-lab/grue/internal/testgames"
)

// TestMain lets the test binary run as the commands that the scripts use:
// "grue" is grue's main, and "mkstory" writes a story file header.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"grue":    main,
		"mkstory": mkstory,
	})
}

// TestScripts runs the end-to-end scripts in testdata/script. They find the
// story files in $GRUE_GAMES (default: shared/games beside the repository);
// the scripts that need them skip without them, except with CI=true, where a
// missing story file (or a missing dfrotz, the reference interpreter) fails.
//
// With GRUE_UPDATE_SCRIPTS=1 in the environment, a cmp whose expected file
// is in the script's archive rewrites that file with what grue printed,
// after a deliberate change of output (read the diff before committing).
func TestScripts(t *testing.T) {
	games := gamesDir(t)
	haveGames := fileExists(filepath.Join(games, "zork1.z3"))
	haveCorpus := fileExists(filepath.Join(games, "corpus", "candy.z5"))
	ci := os.Getenv("CI") == "true"
	if !haveGames && ci {
		t.Errorf("no story files in %s (set GRUE_GAMES): with CI=true a missing story file is a failure", games)
	}
	if !haveCorpus && ci {
		t.Errorf("no corpus in %s/corpus: with CI=true a missing story file is a failure", games)
	}
	path := os.Getenv("PATH") + string(os.PathListSeparator) + "/usr/games" // Debian's dfrotz
	if _, err := lookPath("dfrotz", path); err != nil && ci {
		t.Errorf("dfrotz not found (apt-get install frotz): with CI=true the comparison with it must run")
	}
	// The MCP interop scripts run real peers with node: the TypeScript SDK
	// and the MCP Inspector, installed by `npm ci` in game/mcp/testdata/mcpinterop.
	interop, err := filepath.Abs(filepath.Join("..", "..", "game", "mcp", "testdata", "mcpinterop"))
	if err != nil {
		t.Fatal(err)
	}
	_, nodeErr := lookPath("node", path)
	haveInterop := nodeErr == nil && fileExists(filepath.Join(interop, "node_modules", ".bin", "mcp-inspector"))
	if !haveInterop && ci {
		t.Errorf("node or the MCP interop packages are missing (npm ci in %s): with CI=true the interop tests must run", interop)
	}
	stories, err := filepath.Abs(filepath.Join("..", "..", "game", "stories"))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: os.Getenv("GRUE_UPDATE_SCRIPTS") != "",
		Setup: func(env *testscript.Env) error {
			env.Setenv("GRUE_GAMES", games)
			env.Setenv("PATH", path)
			env.Setenv("INTEROP", interop)
			env.Setenv("STORIES", stories)
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "games":
				return haveGames, nil
			case "corpus":
				return haveCorpus, nil
			case "interop":
				return haveInterop, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"cmptranscript": cmpTranscript,
			"servehttp":     serveHTTP,
			"webhttp":       webHTTP,
			"httpget":       httpGet,
			"httppost":      httpPost,
			"mkblorb":       mkBlorb,
			"slowheaders":   slowHeaders,
			"everystep":     everyStep,
		},
	})
}

// gamesDir is $GRUE_GAMES, or else ../shared/games from the repository root
// (the tests run in cmd/grue), as an absolute path.
func gamesDir(t *testing.T) string {
	dir := os.Getenv("GRUE_GAMES")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "games")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

func lookPath(file, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		if p := filepath.Join(dir, file); fileExists(p) {
			return p, nil
		}
	}
	return exec.LookPath(file)
}

// mkBlorb is "mkblorb STORY OUT [IFICTION]": it writes OUT, a Blorb file
// that packages the story file STORY (as the IF Archive distributes most
// games) among a few other resources, with the iFiction record in the
// file IFICTION as its metadata when given.
func mkBlorb(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: mkblorb STORY OUT [IFICTION]")
	}
	story, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	before := []testgames.Chunk{{Type: "Fspc", Data: []byte{0, 0, 0, 1}}}
	var after []testgames.Chunk
	if len(args) == 3 {
		meta, err := os.ReadFile(ts.MkAbs(args[2]))
		ts.Check(err)
		after = append(after, testgames.Chunk{Type: "IFmd", Data: meta})
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), testgames.Blorb(story, "ZCOD", before, after), 0o644))
}

// cmpTranscript is "cmptranscript GOT WANT": the transcript GOT (a file, or
// stdout) must say what WANT says, whitespace aside. Transcripts are held
// to dfrotz's this way (the Z-machine issue's standard): dfrotz wraps lines
// at its width, adds blank lines where its status line changed and swallows
// the newline after each command, none of which is the game's text. Runs of
// whitespace count as one space, and whitespace after a ">" prompt as none.
func cmpTranscript(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! cmptranscript")
	}
	if len(args) != 2 {
		ts.Fatalf("usage: cmptranscript GOT WANT")
	}
	got := normalizeTranscript(ts.ReadFile(args[0]))
	want := normalizeTranscript(ts.ReadFile(args[1]))
	if got == want {
		return
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	excerpt := func(s string) string {
		lo, hi := max(0, i-120), min(len(s), i+120)
		return s[lo:i] + "[*]" + s[i:hi]
	}
	ts.Fatalf("%s and %s differ at character %d of the normalised transcripts:\n got %s\nwant %s", args[0], args[1], i, excerpt(got), excerpt(want))
}

// normalizeTranscript folds whitespace as cmpTranscript describes.
func normalizeTranscript(s string) string {
	var b strings.Builder
	space, prompt := false, false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = !prompt
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space, prompt = false, r == '>'
		b.WriteRune(r)
	}
	return b.String()
}

// mkstory is "mkstory VERSION FILE": it writes a 1 KiB story file whose
// header claims the Z-machine version VERSION, with plausible addresses and
// nothing else, to test how grue refuses versions it does not run.
func mkstory() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: mkstory VERSION FILE")
		os.Exit(2)
	}
	version, err := strconv.Atoi(os.Args[1])
	if err != nil || version < 0 || version > 255 {
		fmt.Fprintf(os.Stderr, "mkstory: bad version %q\n", os.Args[1])
		os.Exit(2)
	}
	const size = 1024
	b := make([]byte, size)
	b[0] = byte(version)
	put := func(at int, v uint16) { binary.BigEndian.PutUint16(b[at:], v) }
	put(0x04, 0x0200) // high memory
	put(0x06, 0x0300) // initial PC
	put(0x08, 0x0100) // dictionary
	put(0x0A, 0x0100) // object table
	put(0x0C, 0x0100) // globals
	put(0x0E, 0x0200) // static memory
	scale := 2
	switch {
	case version >= 8:
		scale = 8
	case version >= 4:
		scale = 4
	}
	put(0x1A, uint16(size/scale)) // file length
	if err := os.WriteFile(os.Args[2], b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "mkstory:", err)
		os.Exit(1)
	}
}

// everyStep is "everystep TRAJECTORY MAXSCORE": every step of the agent's
// trajectory file (grue agent --trajectory) reports a score, MAXSCORE as
// the maximum, a move count that is never lower than the step before and
// a location.
func everyStep(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: everystep TRAJECTORY MAXSCORE")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	var run struct {
		History []struct {
			Step     int    `json:"step"`
			Score    *int   `json:"score"`
			MaxScore *int   `json:"max_score"`
			Moves    *int   `json:"moves"`
			Location string `json:"location"`
		} `json:"history"`
	}
	ts.Check(json.Unmarshal(data, &run))
	if len(run.History) == 0 {
		ts.Fatalf("%s: no steps", args[0])
	}
	want, err := strconv.Atoi(args[1])
	ts.Check(err)
	last := 0
	for _, s := range run.History {
		switch {
		case s.Score == nil || s.MaxScore == nil || s.Moves == nil:
			ts.Fatalf("step %d: score, max score or moves missing", s.Step)
		case *s.MaxScore != want:
			ts.Fatalf("step %d: max score %d, want %d", s.Step, *s.MaxScore, want)
		case *s.Moves < last:
			ts.Fatalf("step %d: moves %d after %d", s.Step, *s.Moves, last)
		case s.Location == "":
			ts.Fatalf("step %d: no location", s.Step)
		}
		last = *s.Moves
	}
	ts.Logf("%d steps, each with score, max score %d, moves and a location", len(run.History), want)
}
