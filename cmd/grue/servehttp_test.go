package main

import (
	"bufio"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// servedAt is the line grue serve --http prints once it listens.
var servedAt = regexp.MustCompile(`MCP over HTTP at (http://\S+)`)

// serveHTTP is the script command servehttp [ARGS...]: it starts
// `grue serve --http 127.0.0.1:0 ARGS...` in the background, waits until
// the server prints the address it listens at, and sets $MCPURL to it. The
// port is the one the server bound, not one that was free a moment before,
// and the server listens before the script goes on. When the script ends
// the server gets SIGINT and must stop cleanly.
func serveHTTP(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! servehttp")
	}
	grue, err := exec.LookPath("grue") // the test binary as grue: see TestMain
	ts.Check(err)
	cmd := exec.Command(grue, append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = os.Environ()
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "GRUE_GAMES"} {
		cmd.Env = append(cmd.Env, k+"="+ts.Getenv(k))
	}
	stderr, err := cmd.StderrPipe()
	ts.Check(err)
	ts.Check(cmd.Start())

	var mu sync.Mutex
	var said strings.Builder // all the server printed, for a failure
	found := make(chan string, 1)
	go func() {
		defer close(found)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			mu.Lock()
			said.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if m := servedAt.FindStringSubmatch(sc.Text()); m != nil && len(found) == 0 {
				found <- m[1]
			}
		}
	}()
	exited := make(chan error, 1)
	stop := func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case err := <-exited:
			if err != nil {
				mu.Lock()
				ts.Logf("grue serve --http exited with %v after SIGINT:\n%s", err, said.String())
				mu.Unlock()
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			ts.Logf("grue serve --http did not stop on SIGINT")
		}
	}
	select {
	case url, ok := <-found:
		go func() { exited <- cmd.Wait() }()
		if !ok {
			ts.Fatalf("grue serve --http ended without saying where it listens:\n%s", said.String())
		}
		ts.Setenv("MCPURL", url)
		ts.Defer(stop)
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		ts.Fatalf("grue serve --http did not say where it listens within 30s")
	}
}
