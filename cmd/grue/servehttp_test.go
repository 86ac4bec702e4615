package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// servedAt is the line grue serve --http prints once it listens.
var servedAt = regexp.MustCompile(`MCP over HTTP at (http://\S+)`)

// webAt is the line grue web prints once it listens.
var webAt = regexp.MustCompile(`grue web: (http://\S+?)/?(\?token=(\S+))? \(`)

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
	startServer(ts, append([]string{"serve", "--http", "127.0.0.1:0"}, args...), servedAt, "MCPURL")
}

// webHTTP is the script command webhttp [ARGS...]: as servehttp, for
// `grue web --addr 127.0.0.1:0 ARGS...`; it sets $WEBURL (no trailing
// slash) and, when the server printed one, $WEBTOKEN.
func webHTTP(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! webhttp")
	}
	if !slices.Contains(args, "--addr") {
		args = append([]string{"--addr", "127.0.0.1:0"}, args...)
	}
	startServer(ts, append([]string{"web"}, args...), webAt, "WEBURL")
}

// httpGet is the script command httpget [-pad N] URL [TOKEN]: it prints
// the status and the body of GET URL (with the bearer token when given)
// on stdout. With -pad N the request carries a header of N bytes more
// (X-Pad), to test the cap on headers.
func httpGet(ts *testscript.TestScript, neg bool, args []string) {
	pad := 0
	if len(args) > 1 && args[0] == "-pad" {
		n, err := strconv.Atoi(args[1])
		ts.Check(err)
		pad, args = n, args[2:]
	}
	if len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: httpget [-pad N] URL [TOKEN]")
	}
	req, err := http.NewRequest("GET", args[0], nil)
	ts.Check(err)
	if len(args) == 2 {
		req.Header.Set("Authorization", "Bearer "+args[1])
	}
	if pad > 0 {
		req.Header.Set("X-Pad", strings.Repeat("a", pad))
	}
	httpDo(ts, neg, req)
}

// httpPost is the script command httppost URL TOKEN JSON: it prints the
// status and the body of POST URL with the JSON body and the bearer
// token on stdout.
func httpPost(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: httppost URL TOKEN JSON")
	}
	req, err := http.NewRequest("POST", args[0], strings.NewReader(args[2]))
	ts.Check(err)
	req.Header.Set("Authorization", "Bearer "+args[1])
	req.Header.Set("Content-Type", "application/json")
	httpDo(ts, neg, req)
}

// httpDo sends req and prints the status and body on stdout; the command
// fails when the status is 400 or over, unless negated.
func httpDo(ts *testscript.TestScript, neg bool, req *http.Request) {
	res, err := http.DefaultClient.Do(req)
	ts.Check(err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	ts.Check(err)
	fmt.Fprintf(ts.Stdout(), "%d\n%s\n", res.StatusCode, body)
	if (res.StatusCode >= 400) != neg {
		ts.Fatalf("%s %s: %d", req.Method, req.URL, res.StatusCode)
	}
}

// slowHeaders is the script command slowheaders URL N WITHIN: a
// slow-loris attack on URL's server. It opens N connections, each of
// which sends a request line and then its headers one byte every 20ms,
// never ending them, and fails unless the server has closed every one
// within WITHIN of its opening.
func slowHeaders(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! slowheaders")
	}
	if len(args) != 3 {
		ts.Fatalf("usage: slowheaders URL N WITHIN")
	}
	u, err := url.Parse(args[0])
	ts.Check(err)
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	within, err := time.ParseDuration(args[2])
	ts.Check(err)
	errs := make(chan error, n)
	for i := range n {
		go func() { errs <- slowLoris(u.Host, within, i) }()
	}
	for range n {
		ts.Check(<-errs)
	}
}

// slowLoris is one connection of slowheaders: nil if the server at host
// closed it within the time given.
func slowLoris(host string, within time.Duration, i int) error {
	start := time.Now()
	c, err := net.Dial("tcp", host)
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := c.Write([]byte("GET / HTTP/1.1\r\nHost: " + host + "\r\nX-Slow: ")); err != nil {
		return fmt.Errorf("connection %d: %w", i, err)
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() { // dribble: a byte every 20ms, until the server hangs up
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			if _, err := c.Write([]byte("a")); err != nil {
				return
			}
		}
	}()
	c.SetReadDeadline(start.Add(within))
	_, err = io.Copy(io.Discard, c) // until the server closes the connection
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return fmt.Errorf("connection %d sending its headers slowly still open after %v", i, within)
	}
	return nil
}

// startServer starts `grue ARGS...` in the background, waits until it
// prints a line that at matches, and sets envVar to the match's first
// group (and envVar's TOKEN to the third, when there is one). When the
// script ends the server gets SIGINT and must stop cleanly.
func startServer(ts *testscript.TestScript, args []string, at *regexp.Regexp, envVar string) {
	grue, err := exec.LookPath("grue") // the test binary as grue: see TestMain
	ts.Check(err)
	cmd := exec.Command(grue, args...)
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
	found := make(chan []string, 1)
	go func() {
		defer close(found)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			mu.Lock()
			said.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if m := at.FindStringSubmatch(sc.Text()); m != nil && len(found) == 0 {
				found <- m
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
				ts.Logf("grue %s exited with %v after SIGINT:\n%s", args[0], err, said.String())
				mu.Unlock()
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			ts.Logf("grue %s did not stop on SIGINT", args[0])
		}
	}
	select {
	case m, ok := <-found:
		go func() { exited <- cmd.Wait() }()
		if !ok {
			ts.Fatalf("grue %s ended without saying where it listens:\n%s", args[0], said.String())
		}
		ts.Setenv(envVar, m[1])
		if len(m) > 3 && m[3] != "" {
			ts.Setenv(strings.TrimSuffix(envVar, "URL")+"TOKEN", m[3])
		}
		ts.Defer(stop)
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		ts.Fatalf("grue %s did not say where it listens within 30s", args[0])
	}
}
