package mcp

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/grue-lab/grue/game"
)

// TestGetMapStructured: get_map's structured content gives the rooms with
// their ids, exits and untried directions, and the current room, the same
// in process as over stdio and HTTP (where it crossed JSON), so that a
// program can walk to the frontier without parsing the text.
func TestGetMapStructured(t *testing.T) {
	g, err := game.Open("lantern", game.Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	_, meadow := g.Location()
	if _, err := g.Step("west"); err != nil {
		t.Fatal(err)
	}
	_, shed := g.Location()
	if meadow == 0 || shed == 0 || meadow == shed {
		t.Fatalf("rooms %d and %d", meadow, shed)
	}

	in, err := NewInProcessClient()
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	_, url := newHTTPTestServer(t, time.Minute)
	clients := map[string]*Client{
		"in-process": in,
		"stdio":      newStdioTestClient(t, "plain"),
		"http":       newHTTPTestClient(t, url, ""),
	}
	var first map[string]any
	for _, name := range []string{"in-process", "stdio", "http"} {
		c := clients[name]
		call(t, c, "play_action", map[string]any{"action": "west"})
		call(t, c, "play_action", map[string]any{"action": "north"}) // no exit: tried, stays
		r := call(t, c, "get_map", nil)
		if want := "Explored Locations and Exits:\n\n* Meadow\n  -> west -> Wooden Shed\n\n* Wooden Shed\n\n[Current] Wooden Shed"; r.Text != want {
			t.Errorf("%s: text = %q", name, r.Text)
		}
		if r.Int("current") != int(shed) {
			t.Errorf("%s: current = %v, want %d", name, r.Structured["current"], shed)
		}
		rooms, _ := r.Structured["rooms"].([]any)
		if len(rooms) != 2 {
			t.Fatalf("%s: rooms = %#v", name, r.Structured["rooms"])
		}
		m0, _ := rooms[0].(map[string]any)
		m1, _ := rooms[1].(map[string]any)
		if m0["name"] != "Meadow" || m0["id"] != float64(meadow) || m1["name"] != "Wooden Shed" || m1["id"] != float64(shed) {
			t.Errorf("%s: rooms = %v", name, rooms)
		}
		if !reflect.DeepEqual(m0["exits"], map[string]any{"west": float64(shed)}) {
			t.Errorf("%s: Meadow's exits = %#v", name, m0["exits"])
		}
		if ex, _ := m1["exits"].(map[string]any); len(ex) != 0 {
			t.Errorf("%s: Wooden Shed's exits = %#v", name, m1["exits"])
		}
		untried := func(m map[string]any) []string {
			var out []string
			l, _ := m["untried"].([]any)
			for _, d := range l {
				s, _ := d.(string)
				out = append(out, s)
			}
			return out
		}
		u0, u1 := untried(m0), untried(m1)
		if slices.Contains(u0, "west") || !slices.Contains(u0, "east") || !slices.Contains(u0, "north") {
			t.Errorf("%s: Meadow's untried = %v", name, u0)
		}
		if slices.Contains(u1, "north") || !slices.Contains(u1, "east") || len(u1) != len(u0) {
			t.Errorf("%s: Wooden Shed's untried = %v (Meadow's %v)", name, u1, u0)
		}
		if first == nil {
			first = r.Structured
		} else if !reflect.DeepEqual(r.Structured["rooms"], first["rooms"]) {
			t.Errorf("%s: rooms differ from in-process:\n%#v\n%#v", name, r.Structured["rooms"], first["rooms"])
		}
	}
}
