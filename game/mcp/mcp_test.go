package mcp

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/grue-lab/grue/game/stories"
)

// serverEnv makes the test binary an MCP game server over stdio, so the
// stdio tests and benchmarks need no grue binary; with "chatty" it writes
// plenty to stderr first, as a noisy server would.
const serverEnv = "GRUE_TEST_MCP_SERVER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(serverEnv); mode != "" {
		if mode == "chatty" {
			for i := 0; i < 2000; i++ {
				fmt.Fprintf(os.Stderr, "chatty server line %d: %s\n", i, strings.Repeat("x", 100))
			}
		}
		s, err := NewServer()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if mode == "http" {
			serveHTTPChild(s)
		}
		if err := s.ServeStdio(context.Background(), os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// newStdioTestClient runs this test binary as a stdio MCP server.
func newStdioTestClient(t testing.TB, mode string) *Client {
	t.Helper()
	t.Setenv(serverEnv, mode)
	c, err := NewStdioClient(context.Background(), os.Args[0], "-test.run=^$")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// newHTTPTestServer serves grue over streamable HTTP on 127.0.0.1.
func newHTTPTestServer(t testing.TB, idle time.Duration) (*Server, string) {
	t.Helper()
	s, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(httpHandler(s, idle))
	t.Cleanup(func() { hs.Close(); s.Close() })
	return s, hs.URL + "/mcp"
}

// newHTTPTestClient connects to url in the era of version ("" negotiates).
func newHTTPTestClient(t testing.TB, url, version string) *Client {
	t.Helper()
	c, err := dialHTTP(context.Background(), url, version)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func call(t testing.TB, c *Client, name string, args map[string]any) ToolResult {
	t.Helper()
	r, err := c.CallTool(context.Background(), name, args)
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return r
}

// playWalkthrough plays the default story's walkthrough through c and checks
// that the server reports the win with the maximum score.
func playWalkthrough(t *testing.T, c *Client) {
	t.Helper()
	want := []string{"get_map", "inventory", "list_games", "memory", "new_game", "play_action",
		"reset_game", "restore_state", "save_state", "undo", "valid_actions"}
	got, err := c.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("tools = %v, want %v", got, want)
	}
	var r ToolResult
	walk := stories.Walkthrough()
	for i, a := range walk {
		r = call(t, c, "play_action", map[string]any{"action": a})
		if r.IsError {
			t.Fatalf("play_action %q: tool error: %s", a, r.Text)
		}
		if r.Bool("done") != (i == len(walk)-1) {
			t.Fatalf("after %q (%d of %d) done = %v:\n%s", a, i+1, len(walk), r.Bool("done"), r.Text)
		}
	}
	if !strings.HasSuffix(r.Text, "\n\nGAME OVER") {
		t.Errorf("last reply does not end with GAME OVER:\n%s", r.Text)
	}
	if r.Int("score") != stories.MaxScore || r.Int("max_score") != stories.MaxScore || !r.Bool("victory") {
		t.Errorf("structured = %v, want score and max_score %d and victory", r.Structured, stories.MaxScore)
	}
	if r.Int("moves") != len(walk) {
		t.Errorf("moves = %d, want %d", r.Int("moves"), len(walk))
	}
	// The game is over: playing on is a tool error, not a failed call.
	r = call(t, c, "play_action", map[string]any{"action": "look"})
	if !r.IsError || !strings.Contains(r.Text, "The game is over") {
		t.Errorf("play_action after the end = %+v, want a tool error saying the game is over", r)
	}
}

func TestMCPWalkthroughInProcess(t *testing.T) {
	c, err := NewInProcessClient()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	playWalkthrough(t, c)
}

// TestMCPWalkthroughStdio: over stdio grue's client and server speak MCP
// 2026-07-28, with no session and no game_id: stdio is one game per
// process.
func TestMCPWalkthroughStdio(t *testing.T) {
	c := newStdioTestClient(t, "chatty")
	t.Logf("negotiated protocol version: %s", c.ProtocolVersion())
	if c.ProtocolVersion() != mcpgo.LATEST_PROTOCOL_VERSION || c.GameID() != "" {
		t.Errorf("stdio: version %q, game id %q, want %s and none", c.ProtocolVersion(), c.GameID(), mcpgo.LATEST_PROTOCOL_VERSION)
	}
	playWalkthrough(t, c)
}

// TestMCPWalkthroughHTTP plays over HTTP in both eras: a session, or the
// game grue's client started and names by its game_id.
func TestMCPWalkthroughHTTP(t *testing.T) {
	for _, era := range []string{mcpgo.LATEST_LEGACY_PROTOCOL_VERSION, ""} {
		t.Run("era="+era, func(t *testing.T) {
			_, url := newHTTPTestServer(t, time.Minute)
			c := newHTTPTestClient(t, url, era)
			t.Logf("negotiated protocol version: %s, game id %q", c.ProtocolVersion(), c.GameID())
			if (era == "") != (c.GameID() != "") {
				t.Errorf("version %s: game id %q", c.ProtocolVersion(), c.GameID())
			}
			playWalkthrough(t, c)
		})
	}
}

// TestMCPTextFormats holds the text of play_action, inventory, memory and
// get_map to the formats of the tool contract in docs/design.md exactly.
func TestMCPTextFormats(t *testing.T) {
	c, err := NewInProcessClient()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	check := func(name string, args map[string]any, want string) ToolResult {
		t.Helper()
		r := call(t, c, name, args)
		if r.Text != want || r.IsError {
			t.Errorf("%s %v =\n%q\nwant\n%q", name, args, r.Text, want)
		}
		return r
	}
	check("inventory", nil, "Inventory: You are empty-handed.")
	check("memory", nil, "Current State:\n- Location: Meadow\n- Score: 0\n- Moves: 0\n- Game: lantern\n\n"+
		"Recent Actions:\n  (none yet)\n\nCurrent Observation:\n"+call(t, c, "memory", nil).String("observation"))
	shed := "Wooden Shed\nA cramped shed that smells of creosote and mice. Cobwebs drape the rafters and a workbench " +
		"runs along one wall. The door leads east, back to the meadow.\n\nYou can see a battered toolbox (which is closed) here."
	r := check("play_action", map[string]any{"action": "west"}, shed+"\n\n[Score: 0 | Moves: 1]")
	if r.String("location") != "Wooden Shed" || r.String("observation") != shed || r.Int("reward") != 0 {
		t.Errorf("structured = %v", r.Structured)
	}
	check("play_action", map[string]any{"action": "open toolbox"},
		"You open the battered toolbox, revealing a brass lantern.\n\n[Score: 0 | Moves: 2]")
	taken := "Taken.\n\n[The score has just gone up by five points.]"
	r = check("play_action", map[string]any{"action": "take lantern"}, taken+"\n\n+5 points! (Total: 5)")
	if r.Int("reward") != 5 || r.Int("score") != 5 || r.Int("moves") != 3 {
		t.Errorf("structured = %v", r.Structured)
	}
	check("inventory", nil, "Inventory: brass lantern")
	check("memory", nil, "Current State:\n- Location: Wooden Shed\n- Score: 5\n- Moves: 3\n- Game: lantern\n\n"+
		"Recent Actions:\n"+
		"  > west -> Wooden Shed A cramped shed that smells of creosote and mice. Cobwebs drape th...\n"+
		"  > open toolbox -> You open the battered toolbox, revealing a brass lantern.\n"+
		"  > take lantern -> Taken. [The score has just gone up by five points.]\n\n"+
		"Current Observation:\n"+taken)
	check("get_map", nil, "Explored Locations and Exits:\n\n* Meadow\n  -> west -> Wooden Shed\n\n* Wooden Shed\n\n[Current] Wooden Shed")
	r = call(t, c, "valid_actions", nil)
	if r.IsError || !strings.Contains(r.Text, "drop lantern") || !strings.HasPrefix(r.Text, "Valid actions: ") {
		t.Errorf("valid_actions = %+v", r)
	}
	if cut, ok := r.Structured["cut_short"].(bool); !ok || cut || strings.Contains(r.Text, "cut short") {
		t.Errorf("valid_actions in a small state: cut_short %v (%v), text %q; want a whole search that says so", r.Structured["cut_short"], ok, r.Text)
	}
}

// TestMCPToolErrors: bad input comes back as tool errors with clear text.
func TestMCPToolErrors(t *testing.T) {
	c, err := NewInProcessClient()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"reset_game", map[string]any{"game": "no-such-game"}, `unknown game "no-such-game"`},
		{"reset_game", map[string]any{"seed": 1.5}, "seed must be a whole number"},
		{"save_state", map[string]any{"name": "../etc"}, "bad state name"},
		{"save_state", nil, "bad state name"},
		{"restore_state", map[string]any{"name": "nope"}, `no state saved as "nope" (saved: none)`},
		{"undo", nil, "no move to take back"},
		{"play_action", nil, "needs an action"},
		{"play_action", map[string]any{"action": "look\nlook"}, "newline"},
	} {
		r := call(t, c, tc.name, tc.args)
		if !r.IsError || !strings.Contains(r.Text, tc.want) {
			t.Errorf("%s %v = %+v, want a tool error containing %q", tc.name, tc.args, r, tc.want)
		}
	}
	if _, err := c.CallTool(context.Background(), "no_such_tool", nil); err == nil {
		t.Error("calling an unknown tool: no error")
	}
}

// TestMCPSaveRestoreUndoReset branches a game with the tools.
func TestMCPSaveRestoreUndoReset(t *testing.T) {
	c, err := NewInProcessClient()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, a := range []string{"west", "open toolbox"} {
		call(t, c, "play_action", map[string]any{"action": a})
	}
	if r := call(t, c, "save_state", map[string]any{"name": "before-lantern"}); r.IsError {
		t.Fatal(r.Text)
	}
	call(t, c, "play_action", map[string]any{"action": "take lantern"})
	if r := call(t, c, "restore_state", map[string]any{"name": "before-lantern"}); r.IsError || r.Int("score") != 0 || r.Int("moves") != 2 {
		t.Errorf("restore_state = %+v", r)
	}
	call(t, c, "play_action", map[string]any{"action": "take lantern"})
	if r := call(t, c, "undo", nil); r.IsError || r.Int("score") != 0 || r.Int("moves") != 2 {
		t.Errorf("undo = %+v", r)
	}
	r := call(t, c, "reset_game", map[string]any{"game": "lantern", "seed": 7})
	if r.IsError || r.Int("moves") != 0 || r.String("location") != "Meadow" || !strings.HasPrefix(r.Text, "Game: lantern\ngame id: "+r.String("game_id")+"\n\n") {
		t.Errorf("reset_game = %+v", r)
	}
	if r := call(t, c, "restore_state", map[string]any{"name": "before-lantern"}); !r.IsError {
		t.Errorf("restore_state after reset_game = %+v, want an error: a reset forgets saved states", r)
	}
	if r := call(t, c, "list_games", nil); !strings.Contains(r.Text, "- lantern: ") {
		t.Errorf("list_games = %q", r.Text)
	}
}

// TestMCPHTTPSessions: two HTTP clients play two games, in either
// protocol era (a session each, or a game_id each), and a game left idle
// is ended.
func TestMCPHTTPSessions(t *testing.T) {
	for _, era := range []string{mcpgo.LATEST_LEGACY_PROTOCOL_VERSION, mcpgo.LATEST_PROTOCOL_VERSION} {
		t.Run(era, func(t *testing.T) {
			srv, url := newHTTPTestServer(t, 300*time.Millisecond)
			a, b := newHTTPTestClient(t, url, era), newHTTPTestClient(t, url, era)
			t.Logf("negotiated protocol versions: %s, %s", a.ProtocolVersion(), b.ProtocolVersion())
			if a.ProtocolVersion() != era || b.ProtocolVersion() != era {
				t.Fatalf("protocol versions %q and %q, want %q", a.ProtocolVersion(), b.ProtocolVersion(), era)
			}
			call(t, a, "play_action", map[string]any{"action": "west"})
			call(t, a, "play_action", map[string]any{"action": "open toolbox"})
			if r := call(t, a, "play_action", map[string]any{"action": "take lantern"}); r.Int("score") != 5 {
				t.Fatalf("a: %+v", r)
			}
			if r := call(t, b, "memory", nil); r.Int("score") != 0 || r.Int("moves") != 0 || r.String("location") != "Meadow" {
				t.Errorf("b sees a's game: %v", r.Structured)
			}
			if r := call(t, a, "inventory", nil); r.Text != "Inventory: brass lantern" {
				t.Errorf("a: %q", r.Text)
			}
			if n := srv.Games(); n != 2 {
				t.Errorf("games = %d, want 2", n)
			}
			deadline := time.Now().Add(5 * time.Second)
			for srv.Games() > 0 && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			if n := srv.Games(); n != 0 {
				t.Fatalf("idle games not reaped: %d left", n)
			}
			// A reaped session is gone (404); a reaped game_id is unknown.
			if r, err := a.CallTool(context.Background(), "memory", nil); err == nil && !(r.IsError && strings.Contains(r.Text, "unknown game_id")) {
				t.Errorf("a's reaped game still answers: %+v", r)
			}
		})
	}
}

// TestMCPHTTPBadSession: a request with a session ID the server did not
// issue is refused.
func TestMCPHTTPBadSession(t *testing.T) {
	_, url := newHTTPTestServer(t, time.Minute)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	for _, id := range []string{"", "mcp-session-00000000-0000-0000-0000-000000000000", "bogus"} {
		req := httptest.NewRequest("POST", url, strings.NewReader(body))
		req.RequestURI = ""
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if id != "" {
			req.Header.Set("Mcp-Session-Id", id)
		}
		resp, err := httpClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode < 400 {
			t.Errorf("session %q: status %d, want an error: %s", id, resp.StatusCode, data)
		}
	}
}

// TestMCPStdioKilled: a killed server gives an error that says so, and
// Restart brings it back with a fresh game.
func TestMCPStdioKilled(t *testing.T) {
	c := newStdioTestClient(t, "1")
	call(t, c, "new_game", nil) // a game that dies with the process
	call(t, c, "play_action", map[string]any{"action": "west"})
	if err := c.proc.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_, err := c.CallTool(context.Background(), "play_action", map[string]any{"action": "east"})
	if err == nil || !strings.Contains(err.Error(), "died") || !strings.Contains(err.Error(), "killed") || !strings.Contains(err.Error(), "Restart") {
		t.Fatalf("call to a killed server: err = %v, want one saying it died", err)
	}
	if _, err2 := c.Tools(context.Background()); err2 == nil || !strings.Contains(err2.Error(), "died") {
		t.Errorf("Tools after the death: %v", err2)
	}
	if err := c.Restart(context.Background()); err != nil {
		t.Fatal(err)
	}
	if r := call(t, c, "memory", nil); r.IsError || r.Int("moves") != 0 || r.String("location") != "Meadow" || c.GameID() != "" {
		t.Errorf("after Restart: %+v, game id %q", r, c.GameID())
	}
}

// TestMCPStdioBadCommand: a server that exits at once says why.
func TestMCPStdioBadCommand(t *testing.T) {
	_, err := NewStdioClient(context.Background(), "sh", "-c", "echo broken server >&2; exit 3")
	if err == nil || !strings.Contains(err.Error(), "broken server") {
		t.Errorf("err = %v, want one with the server's stderr", err)
	}
	if _, err := NewStdioClient(context.Background(), "/no/such/server"); err == nil {
		t.Error("no error for a missing command")
	}
}

var httpClient = &http.Client{Timeout: 10 * time.Second}

// TestToolNames: the static list that callers check tool names against
// (harness's config validation) is exactly the tools the server registers,
// and a caller that changes its copy changes no one else's.
func TestToolNames(t *testing.T) {
	c, err := NewInProcessClient()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got, err := c.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := ToolNames(); !slices.Equal(got, want) {
		t.Errorf("the server's tools are %v, ToolNames says %v", got, want)
	}
	names := ToolNames()
	names[0] = "teleport"
	if ToolNames()[0] == "teleport" {
		t.Error("changing ToolNames' result changed the list")
	}
}

// TestMCPFirstSessionsOwnGames: the first session's game is its own: a
// second session, and a new_game of the server's game and seed, start from
// the beginning whatever the first has played.
func TestMCPFirstSessionsOwnGames(t *testing.T) {
	s, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	callAs := func(session, tool string, args map[string]any) ToolResult {
		t.Helper()
		ctx := context.WithValue(context.Background(), sessionKey{}, session)
		req := mcpgo.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = tool, args
		res, err := s.handlers[tool](ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		r := toolResult(res)
		if r.IsError {
			t.Fatalf("%s: %s", tool, r.Text)
		}
		return r
	}
	first := callAs("a", "memory", nil)
	callAs("a", "play_action", map[string]any{"action": "west"})
	if r := callAs("a", "memory", nil); r.Int("moves") != 1 {
		t.Fatalf("the first session after a move: %d moves", r.Int("moves"))
	}
	for _, r := range []ToolResult{callAs("b", "memory", nil), callAs("b", "new_game", nil)} {
		if r.Int("moves") != 0 || r.String("observation") != first.String("observation") {
			t.Errorf("a second game of the server's: %d moves, the first game's observation: %v; want 0 moves, the introduction",
				r.Int("moves"), r.String("observation") == first.String("observation"))
		}
	}
}
