package main

// BenchmarkPlayProcess plays the whole Zork I walkthrough as a process, once
// with grue and once with dfrotz, so that one run prints both side by side:
//
//	go test -run XXX -bench PlayProcess ./cmd/grue
//
// The grue binary is built once per run with the go tool on PATH.

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// playBenchGames returns the shared games folder: $GRUE_GAMES (relative to
// the repository root when relative) or ../shared/games beside the
// repository. The test runs in cmd/grue, two levels below the
// root.
func playBenchGames() string {
	root := filepath.Join("..", "..")
	dir := os.Getenv("GRUE_GAMES")
	switch {
	case dir == "":
		return filepath.Join(root, "..", "shared", "games")
	case filepath.IsAbs(dir):
		return dir
	}
	if fi, err := os.Stat(filepath.Join(root, dir)); err == nil && fi.IsDir() {
		return filepath.Join(root, dir)
	}
	return dir
}

// playBenchNeed skips, or fails when CI=true, for a missing input.
func playBenchNeed(b *testing.B, msg string) {
	b.Helper()
	if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
		b.Fatal(msg + " (CI=true: missing inputs are failures)")
	}
	b.Skip(msg)
}

// buildGrue builds grue (this package) into dir with the go tool on PATH,
// static (CGO_ENABLED=0) as the README and the Dockerfile build it, and
// returns its path.
func buildGrue(tb testing.TB, dir string) string {
	tb.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		tb.Skip("go tool not found: " + err.Error())
	}
	bin := filepath.Join(dir, "grue")
	cmd := exec.Command(goTool, "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("go build ./cmd/grue: %v\n%s", err, out)
	}
	return bin
}

func BenchmarkPlayProcess(b *testing.B) {
	games := playBenchGames()
	story, err := filepath.Abs(filepath.Join(games, "zork1.z3"))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(story); err != nil {
		playBenchNeed(b, "zork1.z3 not found (set GRUE_GAMES): "+err.Error())
	}
	script, err := os.ReadFile(filepath.Join(games, "zork1.walkthrough.txt"))
	if err != nil {
		playBenchNeed(b, "zork1.walkthrough.txt not found (set GRUE_GAMES): "+err.Error())
	}
	commands := len(strings.Split(strings.TrimSuffix(string(script), "\n"), "\n"))

	run := func(b *testing.B, name string, args ...string) {
		b.ReportAllocs()
		first := true
		for b.Loop() {
			cmd := exec.Command(name, args...)
			cmd.Dir = b.TempDir()
			cmd.Stdin = bytes.NewReader(script)
			var out, errOut bytes.Buffer
			cmd.Stdout = &out
			cmd.Stderr = &errOut
			if err := cmd.Run(); err != nil {
				b.Fatalf("%s: %v\nstderr: %s", filepath.Base(name), err, errOut.String())
			}
			if first {
				first = false
				const want = "Your score is 350 (total of 350 points)"
				if !strings.Contains(out.String(), want) {
					tail := out.String()
					tail = tail[max(0, len(tail)-600):]
					b.Fatalf("%s did not finish the walkthrough (no %q); its output ends:\n%s", filepath.Base(name), want, tail)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*commands), "ns/command")
	}

	binDir := b.TempDir()
	var bin string // built on first use, once per run
	b.Run("grue", func(b *testing.B) {
		if bin == "" {
			bin = buildGrue(b, binDir)
		}
		run(b, bin, "play", "--plain", "--seed", "12", story)
	})
	b.Run("dfrotz", func(b *testing.B) {
		dfrotz := findDfrotz(b)
		run(b, dfrotz, "-m", "-p", "-q", "-s", "12", "-w", "80", story)
	})
}

// startBenchStory returns the games folder, absolute (the commands run in
// a folder of their own), and Zork I in it, the story the start-up
// benchmarks play; without it they skip (fail with CI=true).
func startBenchStory(b *testing.B) (games, story string) {
	b.Helper()
	games, err := filepath.Abs(playBenchGames())
	if err != nil {
		b.Fatal(err)
	}
	story = filepath.Join(games, "zork1.z3")
	if _, err := os.Stat(story); err != nil {
		playBenchNeed(b, "zork1.z3 not found (set GRUE_GAMES): "+err.Error())
	}
	return games, story
}

// BenchmarkStartProcess measures start-up: a grue command that ends at once
// (play and serve with no input; agent with one step of the walkthrough
// baseline), and dfrotz with no input, as whole processes:
//
//	go test -run XXX -bench StartProcess ./cmd/grue
//
// Besides ns/op (the mean) it reports median-ms, the median start: on a
// busy machine a few slow starts move the mean by tenths of a millisecond.
// grue play's start must stay within 15 times dfrotz's; grue version, which
// does nothing but start, is the floor of the grue binary. grue-serve-first-move
// is what a client waits for: serve answering initialize and a first
// play_action (whose game starts then), over stdio.
func BenchmarkStartProcess(b *testing.B) {
	games, story := startBenchStory(b)
	// stdin is the command's input (none when empty); want, when not
	// empty, is what its output must hold. The command reads and writes
	// files, not pipes: with pipes, os/exec copies them on goroutines of
	// this process, which share the two cores with the command and made
	// every start, dfrotz's too, about 0.4 ms slower than from a shell.
	var stdin, want string
	run := func(b *testing.B, name string, args ...string) {
		dir := b.TempDir()
		in := filepath.Join(dir, "stdin")
		if err := os.WriteFile(in, []byte(stdin), 0o644); err != nil {
			b.Fatal(err)
		}
		out, err := os.Create(filepath.Join(dir, "stdout"))
		if err != nil {
			b.Fatal(err)
		}
		defer out.Close()
		var took []time.Duration
		for b.Loop() {
			inf, err := os.Open(in)
			if err != nil {
				b.Fatal(err)
			}
			if err := out.Truncate(0); err != nil {
				b.Fatal(err)
			}
			if _, err := out.Seek(0, io.SeekStart); err != nil {
				b.Fatal(err)
			}
			cmd := exec.Command(name, args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GRUE_GAMES="+games) // the walkthrough baseline's script
			cmd.Stdin, cmd.Stdout, cmd.Stderr = inf, out, out
			start := time.Now()
			err = cmd.Run()
			took = append(took, time.Since(start))
			inf.Close()
			said, rerr := os.ReadFile(out.Name())
			if rerr != nil {
				b.Fatal(rerr)
			}
			if err != nil {
				b.Fatalf("%s %v: %v\noutput: %s", filepath.Base(name), args, err, said)
			}
			if !strings.Contains(string(said), want) {
				b.Fatalf("%s %v: no %q in its output:\n%s", filepath.Base(name), args, want, said)
			}
		}
		// ns/op is the mean, which a few starts slowed by the rest of
		// a busy machine pull up; the median is the typical start.
		slices.Sort(took)
		b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "median-ms")
	}
	binDir := b.TempDir()
	var bin string
	grue := func(args ...string) func(*testing.B) {
		return func(b *testing.B) {
			if bin == "" {
				bin = buildGrue(b, binDir)
			}
			run(b, bin, args...)
		}
	}
	b.Run("grue-version", grue("version"))
	b.Run("grue-play", grue("play", "--plain", story))
	b.Run("grue-serve", grue("serve"))
	stdin = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"play_action","arguments":{"action":"look"}}}
`
	want = `"id":2,"result":{"content":[{"type":"text","text":"Meadow`
	b.Run("grue-serve-first-move", grue("serve"))
	stdin, want = "", ""
	b.Run("grue-agent", grue("agent", "--game", story, "--policy", "walkthrough", "--steps", "1", "--json"))
	b.Run("dfrotz", func(b *testing.B) {
		dfrotz := findDfrotz(b)
		run(b, dfrotz, "-m", "-p", "-q", story)
	})
}
