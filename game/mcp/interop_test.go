package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/internal/testgames"
)

// interopDir is where npm ci installs the real MCP peers.
var interopDir = filepath.Join("testdata", "mcpinterop")

// nodeWith finds node and checks that the npm packages are installed: a
// skip without them, a failure with CI=true.
func nodeWith(t *testing.T, packages ...string) string {
	t.Helper()
	node := testgames.Tool(t, "node", "apt-get install -y nodejs")
	for _, p := range packages {
		if _, err := os.Stat(filepath.Join(interopDir, "node_modules", filepath.FromSlash(p))); err != nil {
			testgames.Missing(t, "%s is not installed (npm ci in %s): %v", p, interopDir, err)
		}
	}
	return node
}

// playToyGame plays the toy game of testdata/mcpinterop to its end
// through c.
func playToyGame(t *testing.T, c *Client) {
	t.Helper()
	ctx := context.Background()
	tools, err := c.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"inventory", "memory", "play_action"}; !slices.Equal(tools, want) {
		t.Errorf("tools %v, want %v", tools, want)
	}
	r, err := c.CallTool(ctx, "play_action", map[string]any{"action": "north"})
	if err != nil || r.IsError {
		t.Fatalf("play_action north: %v %+v", err, r)
	}
	if !strings.Contains(r.Text, "Vault") || r.String("location") != "Vault" || r.Int("moves") != 1 {
		t.Errorf("play_action north: %+v", r)
	}
	r, err = c.CallTool(ctx, "play_action", map[string]any{"action": "take coin"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(r.Text, "+10 points! (Total: 10)\n\nGAME OVER") || !r.Bool("victory") || r.Int("score") != 10 {
		t.Errorf("play_action take coin: %+v", r)
	}
	r, err = c.CallTool(ctx, "inventory", nil)
	if err != nil || r.Text != "Inventory: a gold coin" {
		t.Errorf("inventory: %v %q", err, r.Text)
	}
}

// TestClientAgainstSDKServer plays grue's MCP client against a game server
// written with the official TypeScript SDK 1.x (testdata/mcpinterop,
// installed by npm ci), which speaks the 2025 protocol only: grue's
// client asks server/discover, is refused, and initializes a session.
func TestClientAgainstSDKServer(t *testing.T) {
	node := nodeWith(t, "@modelcontextprotocol/sdk")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := NewStdioClient(ctx, node, filepath.Join(interopDir, "toy-server.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	t.Logf("grue client ↔ TypeScript SDK 1.32.2 server (stdio): negotiated %s", c.ProtocolVersion())
	if c.ProtocolVersion() != mcpgo.LATEST_LEGACY_PROTOCOL_VERSION {
		t.Errorf("negotiated %q, want %s", c.ProtocolVersion(), mcpgo.LATEST_LEGACY_PROTOCOL_VERSION)
	}
	playToyGame(t, c)
}

// TestClientAgainstModernOnlyServer plays grue's MCP client against a
// server of the new era only, written with the TypeScript SDK 2.x
// (testdata/mcpinterop/modern-server.mjs): it answers server/discover,
// refuses initialize, and offers only the play tools (no reset_game, no
// new_game, no game_id), over stdio and over streamable HTTP.
func TestClientAgainstModernOnlyServer(t *testing.T) {
	node := nodeWith(t, "@modelcontextprotocol/server", "@modelcontextprotocol/node")
	script := filepath.Join(interopDir, "modern-server.mjs")
	t.Run("stdio", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := NewStdioClient(ctx, node, script, "stdio")
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		t.Logf("grue client ↔ TypeScript SDK 2.4.0 modern-only server (stdio): negotiated %s", c.ProtocolVersion())
		if c.ProtocolVersion() != mcpgo.LATEST_PROTOCOL_VERSION {
			t.Errorf("negotiated %q, want %s", c.ProtocolVersion(), mcpgo.LATEST_PROTOCOL_VERSION)
		}
		playToyGame(t, c)
	})
	t.Run("http", func(t *testing.T) {
		url := startNodeHTTPServer(t, node, script, "http")
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := dialHTTP(ctx, url, "")
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		t.Logf("grue client ↔ TypeScript SDK 2.4.0 modern-only server (HTTP): negotiated %s", c.ProtocolVersion())
		if c.ProtocolVersion() != mcpgo.LATEST_PROTOCOL_VERSION || c.GameID() != "" {
			t.Errorf("negotiated %q with game id %q, want %s and none", c.ProtocolVersion(), c.GameID(), mcpgo.LATEST_PROTOCOL_VERSION)
		}
		playToyGame(t, c)

		// Asked for a session, the server refuses: the error says so,
		// and blames no "legacy SSE server".
		_, err = dialHTTP(ctx, url, mcpgo.LATEST_LEGACY_PROTOCOL_VERSION)
		if err == nil || strings.Contains(err.Error(), "SSE") || !strings.Contains(err.Error(), "speaks only MCP 2026-07-28") {
			t.Errorf("a legacy-only grue client against a modern-only server: %v, want a clear refusal", err)
		} else {
			t.Logf("legacy-pinned grue client ↔ modern-only server: %v", err)
		}
	})
}

// startNodeHTTPServer runs a node server script that prints "listening at
// URL" on stderr, and returns the URL; the server is stopped at the end of
// the test.
func startNodeHTTPServer(t *testing.T, node string, args ...string) string {
	t.Helper()
	cmd := exec.Command(node, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if url, ok := strings.CutPrefix(sc.Text(), "listening at "); ok {
				found <- url
			}
		}
	}()
	select {
	case url := <-found:
		return url
	case <-time.After(20 * time.Second):
		t.Fatalf("%v did not say where it listens within 20s", args)
		return ""
	}
}

// sdkPeers are the TypeScript SDK clients grue's server is tested
// against, with the protocol version each must negotiate with it.
var sdkPeers = []struct {
	name string
	args []string
	want string
}{
	{"@modelcontextprotocol/sdk 1.32.2", []string{"--sdk", "1"}, mcpgo.LATEST_LEGACY_PROTOCOL_VERSION},
	{"@modelcontextprotocol/client 2.4.0 (default mode)", []string{"--sdk", "2"}, mcpgo.LATEST_LEGACY_PROTOCOL_VERSION},
	{"@modelcontextprotocol/client 2.4.0 (mode auto)", []string{"--sdk", "2", "--mode", "auto"}, mcpgo.LATEST_PROTOCOL_VERSION},
	{"@modelcontextprotocol/client 2.4.0 (pinned 2026-07-28)", []string{"--sdk", "2", "--mode", "modern"}, mcpgo.LATEST_PROTOCOL_VERSION},
}

// TestSDKClientsAgainstServer plays the whole walkthrough of the default
// story on grue's server with the TypeScript SDK's clients of both
// generations, in every mode, over stdio and over streamable HTTP: each
// wins with 60 of 60 in its own game. The clients of the 2026-07-28 era
// start that game with new_game and name it by its game_id.
func TestSDKClientsAgainstServer(t *testing.T) {
	node := nodeWith(t, "@modelcontextprotocol/sdk", "@modelcontextprotocol/client")
	_, url := newHTTPTestServer(t, time.Minute)
	walk := strings.Join(stories.Walkthrough(), "\n") + "\n"
	for _, transport := range []string{"stdio", "http"} {
		for _, p := range sdkPeers {
			t.Run(transport+"/"+p.name, func(t *testing.T) {
				args := append([]string{filepath.Join(interopDir, "client.mjs")}, p.args...)
				if transport == "stdio" {
					args = append(args, "stdio", os.Args[0], "-test.run=^$")
				} else {
					args = append(args, "http", url)
				}
				cmd := exec.Command(node, args...)
				cmd.Env = append(os.Environ(), serverEnv+"=1")
				cmd.Stdin = strings.NewReader(walk)
				var stderr strings.Builder
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("%v: %v\n%s%s", args, err, out, stderr.String())
				}
				checkSDKRun(t, p.name+" ↔ grue serve ("+transport+")", string(out), p.want)
			})
		}
	}
}

// checkSDKRun checks what client.mjs printed: the protocol version it
// negotiated, a game of its own when it has no session, and the win.
func checkSDKRun(t *testing.T, who, out, want string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var head struct {
		Era             string `json:"era"`
		ProtocolVersion string `json:"protocolVersion"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &head); err != nil {
		t.Fatalf("%s: first line %q: %v", who, lines[0], err)
	}
	t.Logf("%s: era %s, negotiated %s", who, head.Era, head.ProtocolVersion)
	if head.ProtocolVersion != want {
		t.Errorf("%s negotiated %q, want %s", who, head.ProtocolVersion, want)
	}
	if modern := mcpgo.IsModernProtocol(want); modern != strings.Contains(out, `"tool":"new_game","game_id":"g-`) {
		t.Errorf("%s: a new_game of its own iff it has no session (modern %v):\n%.600s", who, modern, out)
	}
	var sum struct {
		Last struct {
			Structured map[string]any `json:"structured"`
		} `json:"last"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		t.Fatalf("%s: last line %q: %v", who, lines[len(lines)-1], err)
	}
	st := sum.Last.Structured
	if st["score"] != float64(stories.MaxScore) || st["victory"] != true || st["location"] == nil {
		t.Errorf("%s: the walkthrough ended with %v, want %d points, victory and a location", who, st, stories.MaxScore)
	}
}

// inspector runs the MCP Inspector's CLI with args and returns what it
// printed on stdout and whether it succeeded; its state stays in a
// temporary home.
func inspector(t *testing.T, node, home string, args ...string) (string, bool) {
	t.Helper()
	cmd := exec.Command(node, append([]string{filepath.Join(interopDir, "node_modules", ".bin", "mcp-inspector"), "--cli"}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+home, serverEnv+"=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Logf("inspector %v: %v\n%s", args, err, stderr.String())
	}
	return string(out), err == nil
}

// TestInspectorAgainstServer drives grue's server with the MCP Inspector's
// CLI in both protocol eras (--protocol-era legacy and modern) over stdio
// and streamable HTTP. Each Inspector run is a client of its own: over
// HTTP in the 2026-07-28 era a game outlives the run only by its game_id,
// and a call without one is refused naming game_id; over stdio a run is
// one process, one game.
func TestInspectorAgainstServer(t *testing.T) {
	node := nodeWith(t, "@modelcontextprotocol/inspector")
	_, url := newHTTPTestServer(t, time.Minute)
	home := t.TempDir()
	version := regexp.MustCompile(`"protocolVersion": "([^"]+)"`)
	for _, transport := range []string{"stdio", "http"} {
		target := []string{url}
		if transport == "stdio" {
			target = []string{"-e", serverEnv + "=1", os.Args[0], "-test.run=^$"}
		}
		for _, era := range []string{"legacy", "modern"} {
			t.Run(transport+"/"+era, func(t *testing.T) {
				run := func(args ...string) (string, bool) {
					return inspector(t, node, home, append(append([]string{"--protocol-era", era}, target...), args...)...)
				}
				out, ok := run("--method", "initialize")
				m := version.FindStringSubmatch(out)
				if !ok || m == nil {
					t.Fatalf("initialize: %s", out)
				}
				want := map[string]string{"legacy": mcpgo.LATEST_LEGACY_PROTOCOL_VERSION, "modern": mcpgo.LATEST_PROTOCOL_VERSION}[era]
				t.Logf("MCP Inspector 2.12.0 --protocol-era %s ↔ grue serve (%s): negotiated %s", era, transport, m[1])
				if m[1] != want {
					t.Errorf("negotiated %s, want %s", m[1], want)
				}
				if out, _ := run("--method", "tools/list"); !strings.Contains(out, `"name": "new_game"`) || !strings.Contains(out, `"game_id"`) {
					t.Errorf("tools/list lacks new_game or game_id:\n%.2000s", out)
				}
				out, ok = run("--method", "tools/call", "--tool-name", "play_action", "--tool-arg", "action=look")
				sessionless := era == "modern" && transport == "http"
				if sessionless {
					if ok || !strings.Contains(out, "play_action needs a game_id") {
						t.Errorf("play_action without a session or game_id: %.600s", out)
					}
				} else if !ok || !strings.Contains(out, `"location": "Meadow"`) {
					t.Errorf("play_action look: %.600s", out)
				}
				out, ok = run("--method", "tools/call", "--tool-name", "new_game")
				id := regexp.MustCompile(`game id: (g-[A-Z0-9]+)`).FindStringSubmatch(out)
				if !ok || id == nil || !strings.Contains(out, `"game_id": "`+id[1]+`"`) {
					t.Fatalf("new_game: %.600s", out)
				}
				if !sessionless {
					return // the game ends with the session or the process
				}
				// A later run plays on the same game by its game_id.
				run("--method", "tools/call", "--tool-name", "play_action", "--tool-arg", "action=west", "game_id="+id[1])
				out, _ = run("--method", "tools/call", "--tool-name", "memory", "--tool-arg", "game_id="+id[1])
				if !strings.Contains(out, `"location": "Wooden Shed"`) || !strings.Contains(out, `"moves": 1`) {
					t.Errorf("the game of %s in a later run: %.600s", id[1], out)
				}
			})
		}
	}
}
