package tools

import (
	"context"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/game/mcp"
	"github.com/grue-lab/grue/game/mcp/mcphttp"
	"github.com/grue-lab/grue/game/stories"
)

func inProcessClient(t *testing.T) *mcp.Client {
	t.Helper()
	c, err := mcp.NewInProcessClient()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func stdioClient(t *testing.T) *mcp.Client {
	t.Helper()
	t.Setenv(serverEnv, "1")
	c, err := mcp.NewStdioClient(context.Background(), os.Args[0], "-test.run=^$")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func httpClient(t *testing.T) (*mcp.Client, *httptest.Server) {
	t.Helper()
	s, err := mcp.NewServer()
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(mcphttp.Handler(s, time.Minute))
	t.Cleanup(func() { hs.Close(); s.Close() })
	c, err := mcphttp.NewClient(context.Background(), hs.URL+"/mcp")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, hs
}

// winThroughRegistry plays the default story's walkthrough through a
// registry of the game's tools and checks what the agent would see.
func winThroughRegistry(t *testing.T, c *mcp.Client) {
	t.Helper()
	ctx := context.Background()
	reg, err := NewGameRegistry(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"play_action", "memory", "get_map", "inventory", "valid_actions", "reset_game"} {
		if !slices.Contains(reg.Names(), want) {
			t.Errorf("registry has %v, missing %s", reg.Names(), want)
		}
	}
	var spec map[string]any
	for _, s := range reg.Specs() {
		if s.Name == "play_action" {
			spec = s.Parameters
			if !strings.Contains(s.Description, "command") {
				t.Errorf("play_action description %q says nothing of a command", s.Description)
			}
		}
	}
	props, _ := spec["properties"].(map[string]any)
	if _, ok := props["action"]; !ok || spec["type"] != "object" {
		t.Errorf("play_action parameters = %v, want an object schema with an action", spec)
	}
	if req, _ := spec["required"].([]any); !slices.Contains(req, any("action")) {
		t.Errorf("play_action parameters = %v: action is not required", spec)
	}

	var r Result
	walk := stories.Walkthrough()
	for _, a := range walk {
		r, err = reg.Call(ctx, "play_action", map[string]any{"action": a})
		if err != nil {
			t.Fatalf("play_action %q: %v", a, err)
		}
		if r.IsError {
			t.Fatalf("play_action %q: tool error %s", a, r.Text)
		}
	}
	if !r.Bool("done") || !r.Bool("victory") || r.Int("score") != stories.MaxScore || r.Int("moves") != len(walk) {
		t.Errorf("after the walkthrough structured = %v, want done, victory, score %d, moves %d", r.Structured, stories.MaxScore, len(walk))
	}
	if !strings.Contains(r.Text, "GAME OVER") {
		t.Errorf("last reply lacks GAME OVER:\n%s", r.Text)
	}
	// A tool error is a result the model reads, not a Go error.
	r, err = reg.Call(ctx, "play_action", map[string]any{"action": "look"})
	if err != nil || !r.IsError || !strings.Contains(r.Text, "over") {
		t.Errorf("play_action after the end = %+v, %v; want a tool error saying the game is over", r, err)
	}
	// A tool with no arguments takes nil args.
	r, err = reg.Call(ctx, "inventory", nil)
	if err != nil || r.IsError || !strings.HasPrefix(r.Text, "Inventory:") {
		t.Errorf("inventory = %+v, %v", r, err)
	}
}

func TestGameToolsInProcess(t *testing.T) { winThroughRegistry(t, inProcessClient(t)) }
func TestGameToolsStdio(t *testing.T)     { winThroughRegistry(t, stdioClient(t)) }
func TestGameToolsHTTP(t *testing.T) {
	c, _ := httpClient(t)
	winThroughRegistry(t, c)
}

// The same tools, described the same way, whichever way the client talks.
func TestGameToolsSpecsAgree(t *testing.T) {
	ctx := context.Background()
	in, err := NewGameRegistry(ctx, inProcessClient(t))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := httpClient(t)
	remote, err := NewGameRegistry(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if Describe(in) != Describe(remote) {
		t.Errorf("in process:\n%s\nover HTTP:\n%s", Describe(in), Describe(remote))
	}
}

func TestGameToolsSubset(t *testing.T) {
	ctx := context.Background()
	c := inProcessClient(t)
	course := []string{"play_action", "memory", "get_map", "inventory"}
	reg, err := NewGameRegistry(ctx, c, course...)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(reg.Names(), course) {
		t.Errorf("names = %v, want %v in that order", reg.Names(), course)
	}
	if _, err := reg.Call(ctx, "undo", nil); err == nil {
		t.Error("calling a tool left out: no error")
	}
	_, err = GameTools(ctx, c, "play_action", "teleport")
	if err == nil || !strings.Contains(err.Error(), `"teleport"`) || !strings.Contains(err.Error(), "play_action") {
		t.Errorf("asking for an unknown tool: err = %v, want one naming it and the tools there are", err)
	}
}

// A server that has gone away is a Go error, not a tool result.
func TestGameToolsServerGone(t *testing.T) {
	ctx := context.Background()
	c, hs := httpClient(t)
	reg, err := NewGameRegistry(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	hs.CloseClientConnections()
	hs.Close()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if r, err := reg.Call(ctx, "play_action", map[string]any{"action": "look"}); err == nil {
		t.Errorf("play_action with the server gone = %+v, want an error", r)
	}
}
