package web

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/harness"
)

// The walkthrough wins Lantern, 60 of 60 in 38 moves: every step comes as
// an event, the end event and GET /api/episodes/{id} carry the RunResult's
// fields, and the episode is on disk.
func TestEpisodeWalkthrough(t *testing.T) {
	s := newTestServer(t, Options{})
	var started struct{ ID string }
	s.json("POST", "/api/episodes", map[string]any{"game": "lantern", "policy": "walkthrough", "seed": 1}, http.StatusCreated, &started)
	evs := s.events("/api/episodes/"+started.ID+"/events", "")
	var steps int
	for _, e := range evs[:len(evs)-1] {
		if e.Kind != "step" {
			t.Fatalf("event %q before the end", e.Kind)
		}
		steps++
	}
	if steps != 38 {
		t.Errorf("%d step events, want 38", steps)
	}
	var last stepEvent
	if err := json.Unmarshal(evs[len(evs)-2].Data, &last); err != nil {
		t.Fatal(err)
	}
	if last.Score != 60 || !last.Victory || last.Map == nil {
		t.Errorf("last step: score %d victory %v map %v", last.Score, last.Victory, last.Map != nil)
	}
	end := evs[len(evs)-1]
	if end.Kind != "end" {
		t.Fatalf("last event %q, want end", end.Kind)
	}
	var info map[string]any
	s.json("GET", "/api/episodes/"+started.ID, nil, http.StatusOK, &info)
	for k, want := range map[string]any{"final_score": 60.0, "max_score": 60.0, "moves": 38.0, "game_completed": true, "victory": true, "status": StatusComplete} {
		if info[k] != want {
			t.Errorf("%s = %v, want %v", k, info[k], want)
		}
	}
	for _, f := range []string{episodeFile, stepsFile, trajectoryFile} {
		if _, err := os.Stat(filepath.Join(s.srv.opts.Runs, EpisodesDir, started.ID, f)); err != nil {
			t.Errorf("episode folder: %v", err)
		}
	}
	var list []EpisodeInfo
	s.json("GET", "/api/episodes", nil, http.StatusOK, &list)
	if len(list) != 1 || list[0].ID != started.ID {
		t.Errorf("list: %+v", list)
	}
}

// A subscriber who comes after the episode ended gets every step; one who
// reconnects with Last-Event-ID gets only the steps after it. A new server
// on the same folder lists the episode and replays it from disk.
func TestEpisodeReplayAndRestart(t *testing.T) {
	dir := t.TempDir()
	s := newTestServer(t, Options{Runs: dir})
	var started struct{ ID string }
	s.json("POST", "/api/episodes", map[string]any{"policy": "walkthrough"}, http.StatusCreated, &started)
	s.events("/api/episodes/"+started.ID+"/events", "") // to its end
	if n := len(s.events("/api/episodes/"+started.ID+"/events", "")); n != 39 {
		t.Errorf("late subscriber: %d events, want 38 steps and the end", n)
	}
	evs := s.events("/api/episodes/"+started.ID+"/events", "30")
	if len(evs) != 9 || evs[0].ID != "31" {
		t.Errorf("after Last-Event-ID 30: %d events from %q, want 9 from 31", len(evs), evs[0].ID)
	}
	s.srv.Close()

	again := newTestServer(t, Options{Runs: dir})
	var info EpisodeInfo
	again.json("GET", "/api/episodes/"+started.ID, nil, http.StatusOK, &info)
	if info.Status != StatusComplete || info.FinalScore != 60 || !info.Victory {
		t.Errorf("after restart: %+v", info)
	}
	if n := len(again.events("/api/episodes/"+started.ID+"/events", "")); n != 39 {
		t.Errorf("replay from disk: %d events, want 39", n)
	}
	var traj trajectoryView
	again.json("GET", "/api/episodes/"+started.ID+"/trajectory", nil, http.StatusOK, &traj)
	if len(traj.History) != 38 || traj.History[37].Score != 60 {
		t.Errorf("trajectory: %d steps", len(traj.History))
	}
}

// An episode running when its server stops is interrupted, and says so
// after a restart; DELETE stops one, and a second DELETE is a conflict.
func TestEpisodeStopAndInterrupt(t *testing.T) {
	dir := t.TempDir()
	s := newTestServer(t, Options{Runs: dir})
	long := endlessEpisode(t)
	var a, b struct{ ID string }
	s.json("POST", "/api/episodes", long, http.StatusCreated, &a)
	s.json("POST", "/api/episodes", long, http.StatusCreated, &b)
	s.json("DELETE", "/api/episodes/"+a.ID, nil, http.StatusAccepted, nil)
	evs := s.events("/api/episodes/"+a.ID+"/events", "")
	var end EpisodeInfo
	if err := json.Unmarshal(evs[len(evs)-1].Data, &end); err != nil {
		t.Fatal(err)
	}
	if end.Status != StatusStopped {
		t.Errorf("stopped episode: status %q", end.Status)
	}
	s.json("DELETE", "/api/episodes/"+a.ID, nil, http.StatusConflict, nil)

	s.srv.Close() // b is still playing
	again := newTestServer(t, Options{Runs: dir})
	var info EpisodeInfo
	again.json("GET", "/api/episodes/"+b.ID, nil, http.StatusOK, &info)
	if info.Status != StatusInterrupted {
		t.Errorf("after restart: status %q, want interrupted", info.Status)
	}
}

// More episodes than the limit get 429 with a JSON error.
func TestEpisodeLimit(t *testing.T) {
	s := newTestServer(t, Options{MaxEpisodes: 1})
	long := endlessEpisode(t)
	var a struct{ ID string }
	s.json("POST", "/api/episodes", long, http.StatusCreated, &a)
	var e apiError
	s.json("POST", "/api/episodes", long, http.StatusTooManyRequests, &e)
	if !strings.Contains(e.Error, "limit") {
		t.Errorf("429 says %q", e.Error)
	}
	s.json("DELETE", "/api/episodes/"+a.ID, nil, http.StatusAccepted, nil)
	s.events("/api/episodes/"+a.ID+"/events", "")
	waitFor(t, 5*time.Second, "the slot to free", func() bool {
		code, _ := s.do("POST", "/api/episodes", map[string]any{"policy": "walkthrough"})
		return code == http.StatusCreated
	})
}

// Bad input gets 400 (or 404, 413) and a JSON error naming the field.
func TestEpisodeBadInput(t *testing.T) {
	s := newTestServer(t, Options{MaxBody: 4096})
	cases := []struct {
		body  any
		code  int
		field string
	}{
		{`{"policy": "walkthrough"`, 400, "body"},
		{``, 400, "body"},
		{`{"policy": "walkthrough"} {}`, 400, "body"},
		{`{"polcy": "walkthrough"}`, 400, "polcy"},
		{map[string]any{}, 400, "policy"},
		{map[string]any{"policy": "bogus"}, 400, "policy"},
		{map[string]any{"policy": "random", "memory": "forgetful"}, 400, "memory"},
		{map[string]any{"policy": "random", "seed": "one"}, 400, "seed"},
		{map[string]any{"policy": "random", "steps": -1}, 400, "steps"},
		{map[string]any{"policy": "random", "steps": harness.MaxSteps + 1}, 400, "steps"},
		{map[string]any{"policy": "random", "game": "no-such-story"}, 400, "game"},
		{map[string]any{"policy": "walkthrough", "model": "gpt"}, 400, "model"},
		{map[string]any{"policy": "random", "tools": []string{"teleport"}}, 400, "tools[0]"},
		{`{"policy": "` + strings.Repeat("x", 5000) + `"}`, 413, "body"},
	}
	for _, c := range cases {
		code, out := s.do("POST", "/api/episodes", c.body)
		var e apiError
		if err := json.Unmarshal(out, &e); err != nil || code != c.code || e.Field != c.field || e.Error == "" {
			t.Errorf("POST %v: %d %s, want %d naming %q", c.body, code, out, c.code, c.field)
		}
	}
	for path, code := range map[string]int{
		"/api/episodes/no-such":         404,
		"/api/episodes/.hidden":         400,
		"/api/episodes/a%2Fb":           400,
		"/api/episodes/no-such/events":  404,
		"/api/episodes/no-such/history": 404,
		"/api/nothing":                  404,
	} {
		if got, out := s.do("GET", path, nil); got != code {
			t.Errorf("GET %s: %d %s, want %d", path, got, out, code)
		}
	}
	if got, _ := s.do("DELETE", "/api/episodes/no-such", nil); got != 404 {
		t.Errorf("DELETE unknown: %d", got)
	}
}

// A model episode streams its steps with tokens, and its trajectory holds
// the exact prompt each step sent.
func TestEpisodeModel(t *testing.T) {
	model := llmtest.NewServer().Models("fake-model").Fallback(func(llmtest.Request) llmtest.Response {
		return llmtest.Text("THOUGHT: I should look around.\nTOOL: play_action\nARGS: {\"action\": \"look\"}")
	})
	defer model.Close()
	s := newTestServer(t, Options{})
	var started struct{ ID string }
	s.json("POST", "/api/episodes", map[string]any{"base_url": model.URL(), "model": "fake-model", "steps": 3, "memory": "window", "window": 2}, http.StatusCreated, &started)
	evs := s.events("/api/episodes/"+started.ID+"/events", "")
	if len(evs) != 4 {
		t.Fatalf("%d events, want 3 steps and the end", len(evs))
	}
	var st stepEvent
	if err := json.Unmarshal(evs[0].Data, &st); err != nil {
		t.Fatal(err)
	}
	if st.Thought != "I should look around." || st.Tool != "play_action" || st.Tokens.TotalTokens == 0 {
		t.Errorf("first step: %+v", st)
	}
	var traj trajectoryView
	s.json("GET", "/api/episodes/"+started.ID+"/trajectory", nil, http.StatusOK, &traj)
	if len(traj.History) != 3 || len(traj.History[0].Prompt) == 0 || traj.History[0].Reply == nil {
		t.Fatalf("trajectory: %+v", traj.History)
	}
	var info EpisodeInfo
	s.json("GET", "/api/episodes/"+started.ID, nil, http.StatusOK, &info)
	if info.Model != "fake-model" || info.Status != StatusComplete || info.Tokens.TotalTokens == 0 {
		t.Errorf("info: %+v", info)
	}
	var e apiError
	s.json("POST", "/api/episodes", map[string]any{"base_url": model.URL(), "model": "no-such-model"}, http.StatusBadRequest, &e)
	if e.Field != "model" {
		t.Errorf("unknown model: %+v", e)
	}
}

// endlessEpisode is the request of an episode that plays until it is
// stopped: a model that looks around, 20 ms a reply, for 50,000 steps. A
// baseline would not do: random play can end the game (a death, a win)
// before the test stops it, and the episode is then complete, not
// running.
func endlessEpisode(t *testing.T) map[string]any {
	t.Helper()
	model := llmtest.NewServer().Models("fake-model").Fallback(func(llmtest.Request) llmtest.Response {
		return llmtest.Text("THOUGHT: Again.\nTOOL: play_action\nARGS: {\"action\": \"look\"}").After(20 * time.Millisecond)
	})
	t.Cleanup(model.Close)
	return map[string]any{"base_url": model.URL(), "model": "fake-model", "steps": 50000}
}
