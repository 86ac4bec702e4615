package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// rawModernClient connects to url in protocol 2026-07-28 with mcp-go's
// own client, which, unlike grue's, starts no game of its own: what any
// stateless client does before it has read the tool contract.
func rawModernClient(t *testing.T, url string) *mcpclient.Client {
	t.Helper()
	cl, err := mcpclient.NewStreamableHttpClient(url)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := cl.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	if err := Initialize(ctx, cl, mcpgo.LATEST_PROTOCOL_VERSION); err != nil {
		t.Fatal(err)
	}
	if v := cl.ProtocolVersion(); v != mcpgo.LATEST_PROTOCOL_VERSION {
		t.Fatalf("negotiated %q, want %s", v, mcpgo.LATEST_PROTOCOL_VERSION)
	}
	return cl
}

func rawCall(t *testing.T, cl *mcpclient.Client, name string, args map[string]any) ToolResult {
	t.Helper()
	req := mcpgo.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := cl.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return toolResult(res)
}

// TestStatelessClientsDoNotShareAGame is the trap of mcp-go v1's
// defaults: a request of protocol 2026-07-28 has no session, so keyed by
// session ID every stateless client would play one and the same game. A
// second client must not land in the first one's game: without a game_id
// its call is refused with an error that names game_id, and plays nothing.
func TestStatelessClientsDoNotShareAGame(t *testing.T) {
	srv, url := newHTTPTestServer(t, time.Minute)
	first, second := rawModernClient(t, url), rawModernClient(t, url)
	r := rawCall(t, first, "new_game", map[string]any{})
	id := r.String("game_id")
	if r.IsError || id == "" || !strings.Contains(r.Text, "game id: "+id) {
		t.Fatalf("new_game: %+v, want a game_id in structured content and text", r)
	}
	r = rawCall(t, first, "play_action", map[string]any{"action": "west", "game_id": id})
	if r.IsError || r.String("location") != "Wooden Shed" || r.Int("moves") != 1 {
		t.Fatalf("first client's play_action: %+v, want location Wooden Shed after 1 move", r)
	}
	for _, tool := range []string{"memory", "play_action", "inventory", "get_map", "valid_actions", "undo", "save_state", "restore_state"} {
		r := rawCall(t, second, tool, map[string]any{"action": "north", "name": "x"})
		if !r.IsError || !strings.Contains(r.Text, "game_id") || strings.Contains(r.Text, "Shed") {
			t.Errorf("second client's %s without game_id: %+v, want an error naming game_id", tool, r)
		}
	}
	// grue's own client starts a game of its own.
	c := newHTTPTestClient(t, url, "")
	if c.GameID() == "" || c.GameID() == id {
		t.Fatalf("grue's stateless client plays game %q (the first client's is %q)", c.GameID(), id)
	}
	if r := call(t, c, "memory", nil); r.IsError || r.Int("moves") != 0 || r.String("location") != "Meadow" {
		t.Errorf("grue's client sees another game: %+v", r)
	}
	if r := rawCall(t, first, "memory", map[string]any{"game_id": id}); r.Int("moves") != 1 {
		t.Errorf("the first client's game was played by another: %v", r.Structured)
	}
	if n := srv.Games(); n != 2 {
		t.Errorf("%d games, want 2 (the refused calls start none)", n)
	}
	// list_games needs no game.
	if r := rawCall(t, second, "list_games", map[string]any{}); r.IsError || !strings.Contains(r.Text, "lantern") {
		t.Errorf("list_games without a game: %+v", r)
	}
}

// TestGameIDGuessing: a client cannot reach another client's game by
// guessing or forging its game_id, and no error tells it a live one.
func TestGameIDGuessing(t *testing.T) {
	_, url := newHTTPTestServer(t, time.Minute)
	victim, attacker := rawModernClient(t, url), rawModernClient(t, url)
	id := rawCall(t, victim, "new_game", map[string]any{}).String("game_id")
	rawCall(t, victim, "play_action", map[string]any{"action": "west", "game_id": id})
	own := rawCall(t, attacker, "new_game", map[string]any{}).String("game_id")
	if len(id) != len("g-")+26 || own == id {
		t.Fatalf("game ids %q and %q: want two different ones of 130 random bits", id, own)
	}
	flip := func(s string) string {
		b := []byte(s)
		if b[len(b)-1] == 'A' {
			b[len(b)-1] = 'B'
		} else {
			b[len(b)-1] = 'A'
		}
		return string(b)
	}
	forged := []any{flip(id), strings.ToLower(id), id[:len(id)-1], id + "A", "g-1", "1", "g-" + strings.Repeat("A", 26),
		own[:10] + id[10:], strings.Repeat("g", 100000), 42, map[string]any{"id": id}, []any{id}}
	for _, g := range forged {
		for _, tool := range []string{"play_action", "reset_game", "memory"} {
			r := rawCall(t, attacker, tool, map[string]any{"action": "take all", "game_id": g})
			// The refusal may quote what was sent, and nothing more.
			said := r.Text
			if gs, ok := g.(string); ok {
				said = strings.ReplaceAll(said, gs, "")
			}
			if !r.IsError || strings.Contains(said, id) || len(r.Text) > 600 {
				t.Errorf("%s with game_id %.40v: %.200s, want a short refusal that names no live game", tool, g, r.Text)
			}
		}
	}
	if r := rawCall(t, victim, "memory", map[string]any{"game_id": id}); r.Int("moves") != 1 || r.String("location") != "Wooden Shed" {
		t.Errorf("the victim's game changed: %v", r.Structured)
	}
	seen := map[string]bool{}
	for range 10000 {
		g := newGameID()
		if seen[g] {
			t.Fatalf("game id %s issued twice", g)
		}
		seen[g] = true
	}
}

// TestGameHandleCapAndIdle: the games without a session are capped, and
// one idle past the HTTP idle time ends (its game_id is then unknown),
// which frees its place.
func TestGameHandleCapAndIdle(t *testing.T) {
	s, err := NewServer(WithMaxSessions(2))
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(httpHandler(s, 300*time.Millisecond))
	t.Cleanup(func() { hs.Close(); s.Close() })
	cl := rawModernClient(t, hs.URL+"/mcp")
	a := rawCall(t, cl, "new_game", map[string]any{}).String("game_id")
	b := rawCall(t, cl, "reset_game", map[string]any{}).String("game_id")
	if a == "" || b == "" || a == b {
		t.Fatalf("new_game and reset_game without a game_id: %q and %q, want two new games", a, b)
	}
	if r := rawCall(t, cl, "new_game", map[string]any{}); !r.IsError || !strings.Contains(r.Text, "limit") {
		t.Errorf("a third game beyond the cap of 2: %+v", r)
	}
	// b is used, a is not: a ends first.
	deadline := time.Now().Add(5 * time.Second)
	for s.Games() > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := s.Games(); n != 0 {
		t.Fatalf("idle games not ended: %d left", n)
	}
	if r := rawCall(t, cl, "memory", map[string]any{"game_id": a}); !r.IsError || !strings.Contains(r.Text, "unknown game_id") {
		t.Errorf("an ended game's id: %+v", r)
	}
	if r := rawCall(t, cl, "new_game", map[string]any{}); r.IsError {
		t.Errorf("new_game once the idle games ended: %+v", r)
	}
}

// TestLegacySessionGame: a client that initialized a session plays its
// session's game with no game_id; reset_game tells it the game's id all
// the same, and that id names the same game.
func TestLegacySessionGame(t *testing.T) {
	_, url := newHTTPTestServer(t, time.Minute)
	c := newHTTPTestClient(t, url, mcpgo.LATEST_LEGACY_PROTOCOL_VERSION)
	if c.ProtocolVersion() != mcpgo.LATEST_LEGACY_PROTOCOL_VERSION || c.GameID() != "" {
		t.Fatalf("legacy client: version %q, game %q", c.ProtocolVersion(), c.GameID())
	}
	call(t, c, "play_action", map[string]any{"action": "west"})
	r := call(t, c, "reset_game", nil)
	id := r.String("game_id")
	if r.IsError || id == "" || !strings.Contains(r.Text, "game id: "+id) || r.Int("moves") != 0 {
		t.Fatalf("reset_game in a session: %+v", r)
	}
	call(t, c, "play_action", map[string]any{"action": "west"})
	if r := call(t, c, "memory", map[string]any{"game_id": id}); r.Int("moves") != 1 {
		t.Errorf("the session's game by its game_id: %v", r.Structured)
	}
}

// TestClientNoEndpoint: a URL with no MCP endpoint says so, rather than
// blaming a "legacy SSE server".
func TestClientNoEndpoint(t *testing.T) {
	hs := httptest.NewServer(http.NotFoundHandler())
	defer hs.Close()
	_, err := dialHTTP(context.Background(), hs.URL+"/wrong", "")
	if err == nil || !strings.Contains(err.Error(), "no MCP endpoint") || strings.Contains(err.Error(), "SSE") {
		t.Errorf("connecting to a 404: %v, want an error saying no MCP endpoint answers", err)
	}
}

// TestNewGameMovesTheClient: a new_game through grue's client (an agent
// that wants a fresh start) moves the client to that game, in process,
// over stdio and on a stateless HTTP connection alike; the game it left
// is kept as it was.
func TestNewGameMovesTheClient(t *testing.T) {
	inProcess, err := NewInProcessClient()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inProcess.Close() })
	_, url := newHTTPTestServer(t, time.Minute)
	for name, c := range map[string]*Client{"in process": inProcess, "stdio": newStdioTestClient(t, "1"), "http": newHTTPTestClient(t, url, "")} {
		t.Run(name, func(t *testing.T) {
			first := call(t, c, "play_action", map[string]any{"action": "west"}).String("game_id")
			r := call(t, c, "new_game", nil)
			id := r.String("game_id")
			if r.IsError || id == "" || id == first || c.GameID() != id {
				t.Fatalf("new_game: %+v; the client plays %q (it played %q)", r, c.GameID(), first)
			}
			if r := call(t, c, "play_action", map[string]any{"action": "look"}); r.String("game_id") != id || r.Int("moves") != 1 || r.String("location") != "Meadow" {
				t.Errorf("after new_game the client plays %v", r.Structured)
			}
			if r := call(t, c, "memory", map[string]any{"game_id": first}); r.Int("moves") != 1 || r.String("location") != "Wooden Shed" {
				t.Errorf("the game left behind: %v", r.Structured)
			}
		})
	}
}
