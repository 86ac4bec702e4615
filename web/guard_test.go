package web

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/grue-lab/grue/internal/rawhttp"
)

// Every endpoint that reads a body answers one over --max-body sent
// chunked (no Content-Length), over a real connection on 127.0.0.1, with
// 413 and a JSON error naming the limit and its flag, as it answers one
// whose length is announced; nothing is made.
func TestChunkedBodyLimit(t *testing.T) {
	s := newTestServer(t, Options{MaxBody: 64 << 10})
	var st PlayState
	s.json("POST", "/api/play", map[string]any{}, http.StatusCreated, &st)
	addr := strings.TrimPrefix(s.ts.URL, "http://")
	for _, c := range []struct{ path, prefix string }{
		{"/api/episodes", `{"policy":"walkthrough","system_prompt":"`},
		{"/api/play", `{"game":"`},
		{"/api/play/" + st.ID, `{"command":"`},
		{"/api/experiments", `{"yaml":"`},
		{"/api/games?name=big.z5", ""},
	} {
		for _, n := range []int{64<<10 + 1, 4 << 20} {
			var h []string
			if strings.HasPrefix(c.path, "/api/games") {
				h = []string{"Content-Type: application/octet-stream"}
			}
			res, body := rawhttp.PostChunked(t, addr, c.path, h, c.prefix, n)
			var e apiError
			if err := json.Unmarshal(body, &e); err != nil || res.StatusCode != http.StatusRequestEntityTooLarge {
				t.Errorf("POST %s, chunked body of %d bytes: %d %s, want 413 and a JSON error", c.path, n, res.StatusCode, body)
				continue
			}
			if e.Field != "body" || !strings.Contains(e.Error, "65536 bytes") || !strings.Contains(e.Error, "--max-body") {
				t.Errorf("POST %s: 413 says %+v: want the field, the limit and its flag", c.path, e)
			}
		}
		// The same body with its length announced: 413 too.
		code, body := s.do("POST", c.path, c.prefix+strings.Repeat("0", 70<<10))
		if code != http.StatusRequestEntityTooLarge || !strings.Contains(string(body), "--max-body") {
			t.Errorf("POST %s with Content-Length over the limit: %d %s", c.path, code, body)
		}
	}
	var eps []EpisodeInfo
	s.json("GET", "/api/episodes", nil, http.StatusOK, &eps)
	if len(eps) != 0 {
		t.Errorf("refused bodies started %d episodes", len(eps))
	}
	s.json("GET", "/api/play/"+st.ID, nil, http.StatusOK, &st)
	if len(st.Transcript) != 1 {
		t.Errorf("a refused command was played: %+v", st.Transcript)
	}
}

// burst sends n requests at once and counts their statuses; every 429
// must say when to retry.
func (s *testServer) burst(n int, method, path string, body any) map[int]int {
	s.t.Helper()
	j, _ := json.Marshal(body)
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range n {
		wg.Go(func() {
			req, _ := http.NewRequest(method, s.ts.URL+path, strings.NewReader(string(j)))
			req.Header.Set("Content-Type", "application/json")
			<-start
			res, err := client.Do(req)
			if err != nil {
				s.t.Error(err)
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode == http.StatusTooManyRequests && res.Header.Get("Retry-After") == "" {
				s.t.Errorf("%s %s: 429 without Retry-After", method, path)
			}
			mu.Lock()
			codes[res.StatusCode]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return codes
}

// Three times --max-episodes episodes started at once: exactly the cap
// play, the rest get 429.
func TestEpisodeCapBurst(t *testing.T) {
	const limit = 3
	s := newTestServer(t, Options{MaxEpisodes: limit})
	codes := s.burst(3*limit, "POST", "/api/episodes", map[string]any{"policy": "random", "steps": 100000})
	if codes[http.StatusCreated] != limit || codes[http.StatusTooManyRequests] != 2*limit {
		t.Errorf("%d episodes at once under a cap of %d: statuses %v", 3*limit, limit, codes)
	}
	// A random walk may end the game before the list is read (a death
	// in Lantern): such an episode played, and is complete, not running.
	played := 0
	var eps []EpisodeInfo
	s.json("GET", "/api/episodes", nil, http.StatusOK, &eps)
	for _, e := range eps {
		if e.Status == StatusRunning || e.Status == StatusComplete {
			played++
		}
		if code, body := s.do("DELETE", "/api/episodes/"+e.ID, nil); code != http.StatusAccepted && code != http.StatusConflict {
			t.Errorf("DELETE /api/episodes/%s: %d %s", e.ID, code, body)
		}
	}
	if len(eps) != limit || played != limit {
		t.Errorf("%d episodes made, %d running or complete; want %d", len(eps), played, limit)
	}
}

// Three times the play-by-hand cap of sessions started at once: exactly
// the cap are made, and a game is opened only for a session that has a
// place.
func TestPlayCapBurst(t *testing.T) {
	const limit = 4
	s := newTestServer(t, Options{MaxPlay: limit})
	codes := s.burst(3*limit, "POST", "/api/play", map[string]any{})
	if codes[http.StatusCreated] != limit || codes[http.StatusTooManyRequests] != 2*limit {
		t.Errorf("%d sessions at once under a cap of %d: statuses %v", 3*limit, limit, codes)
	}
	s.srv.play.mu.Lock()
	n, reserved := len(s.srv.play.byID), s.srv.play.reserved
	s.srv.play.mu.Unlock()
	if n != limit || reserved != 0 {
		t.Errorf("%d sessions live, %d places reserved; want %d and 0", n, reserved, limit)
	}
	// A start that fails (a game that is not there) gives its place back.
	for id := range s.srv.play.byID {
		s.json("DELETE", "/api/play/"+id, nil, http.StatusNoContent, nil)
		break
	}
	for range 5 {
		s.json("POST", "/api/play", map[string]any{"game": "no-such-story"}, http.StatusBadRequest, nil)
	}
	s.json("POST", "/api/play", map[string]any{}, http.StatusCreated, nil)
}

// Three times --max-experiments experiments launched at once: exactly
// the cap run.
func TestExperimentCapBurst(t *testing.T) {
	const limit = 2
	s := newTestServer(t, Options{MaxExperiments: limit})
	codes := s.burst(3*limit, "POST", "/api/experiments", ExperimentRequest{YAML: quickYAML("burst", 50, 5000, "random")})
	if codes[http.StatusCreated] != limit || codes[http.StatusTooManyRequests] != 2*limit {
		t.Errorf("%d experiments at once under a cap of %d: statuses %v", 3*limit, limit, codes)
	}
	if n, _ := s.srv.experiments.running(""); n != limit {
		t.Errorf("%d experiments running, want %d", n, limit)
	}
}
