package web

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent/memory"
	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/internal/testgames"
)

// A person plays Lantern by hand: the status line follows, undo takes a
// move back, and bad input is named.
func TestPlayByHand(t *testing.T) {
	s := newTestServer(t, Options{MaxPlay: 1})
	var st PlayState
	s.json("POST", "/api/play", map[string]any{"game": "lantern", "seed": 1}, http.StatusCreated, &st)
	if st.Location != "Meadow" || st.Moves != 0 || st.MaxScore != 60 || len(st.Transcript) != 1 || st.Transcript[0].Output == "" {
		t.Fatalf("start: %+v", st)
	}
	s.json("POST", "/api/play/"+st.ID, map[string]any{"command": "west"}, http.StatusOK, &st)
	if st.Location != "Wooden Shed" || st.Moves != 1 || len(st.Transcript) != 2 || st.Transcript[1].Command != "west" {
		t.Errorf("after west: %+v", st)
	}
	s.json("POST", "/api/play/"+st.ID+"/undo", nil, http.StatusOK, &st)
	if st.Location != "Meadow" || st.Moves != 0 || len(st.Transcript) != 1 {
		t.Errorf("after undo: %+v", st)
	}
	s.json("POST", "/api/play/"+st.ID+"/undo", nil, http.StatusConflict, nil)
	s.json("GET", "/api/play/"+st.ID, nil, http.StatusOK, &st)

	var e apiError
	s.json("POST", "/api/play/"+st.ID, map[string]any{}, http.StatusBadRequest, &e)
	if e.Field != "command" {
		t.Errorf("no command: %+v", e)
	}
	s.json("POST", "/api/play/"+st.ID, map[string]any{"command": strings.Repeat("x", maxCommand+1)}, http.StatusBadRequest, &e)
	s.json("POST", "/api/play", map[string]any{}, http.StatusTooManyRequests, nil)
	s.json("DELETE", "/api/play/"+st.ID, nil, http.StatusNoContent, nil)
	s.json("GET", "/api/play/"+st.ID, nil, http.StatusNotFound, nil)
	// A game that does not open is 400 and gives its place back.
	s.json("POST", "/api/play", map[string]any{"game": "no-such-story"}, http.StatusBadRequest, &e)
	if e.Field != "game" {
		t.Errorf("bad game: %+v", e)
	}
	s.json("POST", "/api/play", map[string]any{}, http.StatusCreated, nil)
}

// The built-in story is listed first with its maximum, and the page is
// served with a policy that loads nothing from elsewhere.
func TestGamesAndPage(t *testing.T) {
	s := newTestServer(t, Options{})
	var g gamesList
	s.json("GET", "/api/games", nil, http.StatusOK, &g)
	if len(g.Games) == 0 || g.Games[0].Name != "lantern" || g.Games[0].MaxScore != 60 || !g.Games[0].Walkthrough || g.Default != "lantern" {
		t.Errorf("games: %+v", g)
	}
	// The page's memory choices are agent/memory's list, not a copy of it.
	if !slices.Equal(g.Memory, memory.Names()) {
		t.Errorf("memory strategies offered: %v, want %v", g.Memory, memory.Names())
	}
	res, err := http.Get(s.ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(res.Header.Get("Content-Security-Policy"), "default-src 'self'") {
		t.Errorf("page: %d %q", res.StatusCode, res.Header.Get("Content-Security-Policy"))
	}
	for _, f := range []string{"/app.js", "/style.css"} {
		if code, _ := s.do("GET", f, nil); code != 200 {
			t.Errorf("GET %s: %d", f, code)
		}
	}
	if code, _ := s.do("POST", "/", "{}"); code != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %d", code)
	}
}

// With a token, an API request needs it in a header (or, for a GET, the
// query); the page and its files are public, and no cookie is ever set
// or taken. A page of another origin is refused whatever it carries.
func TestTokenAndOrigin(t *testing.T) {
	s := newTestServer(t, Options{Token: "sesame"})
	get := func(path string, h map[string]string) *http.Response {
		req, _ := http.NewRequest("GET", s.ts.URL+path, nil)
		for k, v := range h {
			req.Header.Set(k, v)
		}
		c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	own := s.ts.URL
	for _, c := range []struct {
		path string
		h    map[string]string
		want int
	}{
		{"/api/games", nil, 401},
		{"/", nil, 200},
		{"/app.js", nil, 200},
		{"/api/games", map[string]string{"Authorization": "Bearer wrong"}, 401},
		{"/api/games", map[string]string{"Authorization": "Bearer sesame"}, 200},
		{"/api/games", map[string]string{TokenHeader: "sesame"}, 200},
		{"/api/games", map[string]string{TokenHeader: "wrong"}, 401},
		{"/api/games", map[string]string{"Cookie": "grue_token=sesame"}, 401},
		{"/api/games?token=sesame", nil, 200},
		{"/api/games?token=wrong", nil, 401},
		{"/?token=sesame", nil, 200},
		{"/api/games", map[string]string{"Authorization": "Bearer sesame", "Origin": "http://evil.example"}, 403},
		{"/api/games", map[string]string{"Authorization": "Bearer sesame", "Origin": "http://localhost:7860"}, 403},
		{"/api/games", map[string]string{"Authorization": "Bearer sesame", "Origin": "null"}, 403},
		{"/api/games", map[string]string{"Authorization": "Bearer sesame", "Origin": own}, 200},
	} {
		res := get(c.path, c.h)
		if res.StatusCode != c.want {
			t.Errorf("GET %s %v: %d, want %d", c.path, c.h, res.StatusCode, c.want)
		}
		if cookies := res.Cookies(); len(cookies) > 0 {
			t.Errorf("GET %s set cookies %v: a cookie goes to every port of the host", c.path, cookies)
		}
	}
}

// A story file uploaded is listed and played by the path it is given;
// what is no story, or has no story's name, is refused.
func TestUploadGame(t *testing.T) {
	s := newTestServer(t, Options{})
	_, lantern := stories.Default()
	req := func(name string, body []byte) (int, []byte) {
		res, err := http.Post(s.ts.URL+"/api/games?name="+name, "application/octet-stream", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		out, _ := io.ReadAll(res.Body)
		return res.StatusCode, out
	}
	code, out := req("mine.z5", lantern)
	var gi GameInfo
	if err := json.Unmarshal(out, &gi); code != http.StatusCreated || err != nil || !gi.Uploaded || gi.MaxScore != 60 {
		t.Fatalf("upload: %d %s", code, out)
	}
	if code, _ := req("mine.z5", lantern); code != http.StatusOK { // nothing new is made
		t.Errorf("the same story again: %d", code)
	}
	// The story in a Blorb file, as the IF Archive gives most games.
	code, out = req("mine.zblorb", testgames.Blorb(lantern, "ZCOD", nil, nil))
	var bi GameInfo
	if err := json.Unmarshal(out, &bi); code != http.StatusCreated || err != nil || !bi.Uploaded || bi.MaxScore != 60 {
		t.Fatalf("upload of a Blorb file: %d %s", code, out)
	}
	// An uncatalogued story's title comes from its Blorb file's iFiction
	// record.
	rules, err := os.ReadFile(filepath.Join("..", "game", "validactions", "testdata", "rules", "rules.z5"))
	if err != nil {
		t.Fatal(err)
	}
	meta := testgames.Chunk{Type: "IFmd", Data: []byte("<ifindex><story><bibliographic><title>The Rules Room</title></bibliographic></story></ifindex>")}
	code, out = req("rules.zblorb", testgames.Blorb(rules, "ZCOD", nil, []testgames.Chunk{meta}))
	if err := json.Unmarshal(out, &bi); code != http.StatusCreated || err != nil || bi.Known || bi.Title != "The Rules Room" {
		t.Fatalf("upload of an uncatalogued Blorb file: %d %s", code, out)
	}
	var g gamesList
	s.json("GET", "/api/games", nil, http.StatusOK, &g)
	if last := g.Games[len(g.Games)-3]; last.Name != gi.Name || !last.Uploaded {
		t.Errorf("listed: %+v", g.Games)
	}
	var started struct{ ID string }
	s.json("POST", "/api/episodes", map[string]any{"game": gi.Name, "policy": "walkthrough"}, http.StatusCreated, &started)
	s.events("/api/episodes/"+started.ID+"/events", "")
	var info EpisodeInfo
	s.json("GET", "/api/episodes/"+started.ID, nil, http.StatusOK, &info)
	if info.FinalScore != 60 || !info.Victory {
		t.Errorf("walkthrough on the upload: %+v", info)
	}
	for _, c := range []struct {
		name  string
		body  []byte
		code  int
		field string
	}{
		{"notes.txt", lantern, 400, "name"},
		{"..%2Fx.z5", lantern, 400, "name"},
		{"junk.z5", []byte("not a story"), 400, "body"},
		{"glulx.zblorb", testgames.Blorb([]byte("Glul\x00\x03\x01\x03"), "GLUL", nil, nil), 400, "body"},
		{"mine.z5", append(slices.Clone(lantern), 0), 409, "name"},
	} {
		code, out := req(c.name, c.body)
		var e apiError
		if json.Unmarshal(out, &e) != nil || code != c.code || e.Field != c.field {
			t.Errorf("upload %s: %d %s, want %d naming %s", c.name, code, out, c.code, c.field)
		}
	}
}
