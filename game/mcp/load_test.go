package mcp

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// serveHTTPChild serves s over streamable HTTP on a free loopback port,
// printing the address, until the process is killed: the server side of
// TestLoadHTTP, in a process of its own so that its memory can be read.
func serveHTTPChild(s *Server) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr())
	hs := &http.Server{Handler: httpHandler(s, time.Minute), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintln(os.Stderr, hs.Serve(ln))
	os.Exit(1)
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// procStatus reads a field of /proc/PID/status in KiB.
func procStatus(pid int, field string) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	return -1
}

// TestLoadHTTP is a bounded load test of the streamable HTTP server on
// 127.0.0.1: GRUE_LOAD_SESSIONS sessions (200) each play GRUE_LOAD_MOVES
// moves (1,000), all at once, stopping after GRUE_LOAD_SECONDS (60)
// whatever is left. It reports requests per second and the server
// process's peak memory (VmHWM), and checks that no call failed, that
// peak memory stayed under 1 GiB and that a new client is still answered
// at the end. Skipped with -short and under -race.
func TestLoadHTTP(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("load test: run without -short and without -race (its figures mean nothing under the race detector)")
	}
	sessions, moves := envInt("GRUE_LOAD_SESSIONS", 200), envInt("GRUE_LOAD_MOVES", 1000)
	limit := time.Duration(envInt("GRUE_LOAD_SECONDS", 60)) * time.Second
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serverEnv+"=http")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + strings.TrimSpace(addr) + "/mcp"
	hc := &http.Client{Transport: &http.Transport{MaxIdleConns: sessions + 10, MaxIdleConnsPerHost: sessions + 10}, Timeout: 30 * time.Second}
	connect := func(ctx context.Context) (*Client, error) {
		c, err := client.NewStreamableHttpClient(url, transport.WithHTTPBasicClient(hc))
		if err != nil {
			return nil, err
		}
		if err := c.Start(ctx); err != nil {
			return nil, err
		}
		// Sessions, as the figures in docs/ were measured with.
		if err := Initialize(ctx, c, mcpgo.LATEST_LEGACY_PROTOCOL_VERSION); err != nil {
			return nil, err
		}
		return &Client{remote: c, url: url, version: c.ProtocolVersion()}, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	acts := []string{"west", "open toolbox", "take lantern", "east", "look", "inventory", "north", "south"}
	var calls, failures atomic.Int64
	var firstErr sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	for i := range sessions {
		wg.Go(func() {
			c, err := connect(ctx)
			if err != nil {
				failures.Add(1)
				firstErr.Do(func() { t.Errorf("session %d: %v", i, err) })
				return
			}
			defer c.Close()
			for m := 0; m < moves && ctx.Err() == nil; m++ {
				if _, err := c.CallTool(ctx, "play_action", map[string]any{"action": acts[m%len(acts)]}); err != nil {
					if ctx.Err() == nil {
						failures.Add(1)
						firstErr.Do(func() { t.Errorf("session %d move %d: %v", i, m, err) })
					}
					return
				}
				calls.Add(1)
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	pid := cmd.Process.Pid
	hwm, rss := procStatus(pid, "VmHWM"), procStatus(pid, "VmRSS")
	t.Logf("%d sessions x %d moves: %d calls in %v (%.0f requests/s), %d failures; server peak RSS %d MiB, RSS now %d MiB",
		sessions, moves, calls.Load(), took.Round(time.Millisecond), float64(calls.Load())/took.Seconds(), failures.Load(), hwm>>10, rss>>10)
	if failures.Load() > 0 {
		t.Errorf("%d failures", failures.Load())
	}
	if hwm > 1<<20 {
		t.Errorf("server peak RSS %d MiB, over 1 GiB", hwm>>10)
	}
	nctx, ncancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer ncancel()
	c, err := connect(nctx)
	if err != nil {
		t.Fatalf("a new client at the end: %v", err)
	}
	defer c.Close()
	if r, err := c.CallTool(nctx, "memory", nil); err != nil || r.IsError || r.Int("moves") != 0 {
		t.Fatalf("a new client at the end: %+v, %v", r, err)
	}
}
