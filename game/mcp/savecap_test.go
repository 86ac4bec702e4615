package mcp

import (
	"fmt"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The attack of issue 35, item 15: one client without a session made 100
// new_game and 100 save_state in each, and the server held every saved
// state (+256 MB in 7 s; about 2.5 GB at the default 1,000 games). Saved
// states are capped over all the games; a reset frees a game's saves.
func TestSavedStatesCappedInTotal(t *testing.T) {
	s, err := NewServer(WithMaxSavedStates(5))
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(httpHandler(s, time.Minute))
	t.Cleanup(func() { hs.Close(); s.Close() })
	cl := rawModernClient(t, hs.URL+"/mcp")
	var ids []string
	for range 3 {
		ids = append(ids, rawCall(t, cl, "new_game", map[string]any{}).String("game_id"))
	}
	saved := 0
	for _, id := range ids {
		for i := range 3 {
			r := rawCall(t, cl, "save_state", map[string]any{"game_id": id, "name": fmt.Sprint("s", i)})
			if !r.IsError {
				saved++
			} else if !strings.Contains(r.Text, "limit") {
				t.Errorf("save_state refused without saying the limit: %s", r.Text)
			}
		}
	}
	if saved != 5 {
		t.Errorf("%d states saved over 3 games, want the total cap of 5", saved)
	}
	// Saving again under a name in use replaces it: no new state.
	if r := rawCall(t, cl, "save_state", map[string]any{"game_id": ids[0], "name": "s0"}); r.IsError {
		t.Errorf("reusing a name at the cap: %s", r.Text)
	}
	// A reset forgets the game's saves and frees their places.
	rawCall(t, cl, "reset_game", map[string]any{"game_id": ids[0]})
	if r := rawCall(t, cl, "save_state", map[string]any{"game_id": ids[2], "name": "after"}); r.IsError {
		t.Errorf("save_state after a reset freed places: %s", r.Text)
	}
}

// TestSavedStatesAreCompact: a saved state keeps the game's memory as its
// difference from the story, not a copy of it: 100 saves of Lantern
// (6,748 bytes of dynamic memory, 675 KB as copies) take a fraction of
// that (issue 35, item 15).
func TestSavedStatesAreCompact(t *testing.T) {
	s, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(httpHandler(s, time.Minute))
	t.Cleanup(func() { hs.Close(); s.Close() })
	cl := rawModernClient(t, hs.URL+"/mcp")
	id := rawCall(t, cl, "new_game", map[string]any{}).String("game_id")
	rawCall(t, cl, "play_action", map[string]any{"game_id": id, "action": "north"})
	rawCall(t, cl, "save_state", map[string]any{"game_id": id, "name": "warm"})

	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	for i := range MaxSavesPerGame - 1 {
		if r := rawCall(t, cl, "save_state", map[string]any{"game_id": id, "name": fmt.Sprint("s", i)}); r.IsError {
			t.Fatal(r.Text)
		}
	}
	grown := int64(heap()) - int64(before)
	copies := int64(MaxSavesPerGame-1) * 6748
	t.Logf("%d saves: heap grew %d bytes (copies of memory alone: %d)", MaxSavesPerGame-1, grown, copies)
	if grown > copies/2 {
		t.Errorf("%d saves grew the heap by %d bytes, half or more of copying the memory (%d): saves are not compact", MaxSavesPerGame-1, grown, copies)
	}
	if r := rawCall(t, cl, "restore_state", map[string]any{"game_id": id, "name": "s7"}); r.IsError || !strings.Contains(r.Text, "Restored") {
		t.Errorf("restoring a compact save: %s", r.Text)
	}
}
