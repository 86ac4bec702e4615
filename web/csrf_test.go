package web

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// send makes one request to s with the headers h (Host sets the Host
// header) and returns its status and body.
func (s *testServer) send(method, path, body string, h map[string]string) (int, string) {
	s.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, s.ts.URL+path, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	for k, v := range h {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := s.ts.Client().Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(out)
}

// episodesOf counts the episodes s has started.
func (s *testServer) episodesOf(token string) int {
	s.t.Helper()
	var eps []EpisodeInfo
	h := map[string]string{}
	if token != "" {
		h[TokenHeader] = token
	}
	code, body := s.send("GET", "/api/episodes", "", h)
	if code != http.StatusOK {
		s.t.Fatalf("GET /api/episodes: %d %s", code, body)
	}
	if err := json.Unmarshal([]byte(body), &eps); err != nil {
		s.t.Fatal(err)
	}
	return len(eps)
}

// The attack of issue 35, items 1 and 2: a page served from another port
// of 127.0.0.1 posts to the workbench with fetch(..., {mode: "no-cors",
// credentials: "include"}): the browser sends the text/plain body, the
// page's Origin and every cookie of the host, the port not considered.
// None of it starts an episode; only the page's own request does (its
// origin, JSON, the token in X-Grue-Token).
func TestCSRFFromAnotherPort(t *testing.T) {
	s := newTestServer(t, Options{Token: "sesame"})
	u, _ := url.Parse(s.ts.URL)
	other := "http://127.0.0.1:" + otherPort(u.Port())
	body := `{"policy":"walkthrough"}`
	for _, c := range []struct {
		what string
		h    map[string]string
		want int
	}{
		{"no-cors text/plain from another port, with the cookie",
			map[string]string{"Origin": other, "Content-Type": "text/plain;charset=UTF-8", "Cookie": "grue_token=sesame"}, http.StatusForbidden},
		{"JSON from another port, with the token even",
			map[string]string{"Origin": other, "Content-Type": "application/json", TokenHeader: "sesame"}, http.StatusForbidden},
		{"text/plain from the server's own origin, with the cookie",
			map[string]string{"Origin": s.ts.URL, "Content-Type": "text/plain;charset=UTF-8", "Cookie": "grue_token=sesame"}, http.StatusUnauthorized},
		{"text/plain from the server's own origin, with the token",
			map[string]string{"Origin": s.ts.URL, "Content-Type": "text/plain", TokenHeader: "sesame"}, http.StatusUnsupportedMediaType},
		{"a form from the server's own origin, with the token",
			map[string]string{"Origin": s.ts.URL, "Content-Type": "application/x-www-form-urlencoded", TokenHeader: "sesame"}, http.StatusUnsupportedMediaType},
		{"JSON from the server's own origin, the cookie alone",
			map[string]string{"Origin": s.ts.URL, "Content-Type": "application/json", "Cookie": "grue_token=sesame"}, http.StatusUnauthorized},
	} {
		if code, out := s.send("POST", "/api/episodes", body, c.h); code != c.want {
			t.Errorf("%s: %d %s, want %d", c.what, code, out, c.want)
		}
	}
	if n := s.episodesOf("sesame"); n != 0 {
		t.Fatalf("%d episodes started by requests that are not the page's", n)
	}
	// The page's own request.
	code, out := s.send("POST", "/api/episodes", body, map[string]string{"Origin": s.ts.URL, "Content-Type": "application/json", TokenHeader: "sesame"})
	if code != http.StatusCreated {
		t.Fatalf("the page's own request: %d %s", code, out)
	}
}

// Under --no-token there is no secret, but the rule of origin and type
// still holds: another port's no-cors post starts nothing.
func TestCSRFNoToken(t *testing.T) {
	s := newTestServer(t, Options{})
	u, _ := url.Parse(s.ts.URL)
	other := "http://localhost:" + otherPort(u.Port())
	body := `{"policy":"walkthrough"}`
	if code, out := s.send("POST", "/api/episodes", body, map[string]string{"Origin": other, "Content-Type": "text/plain"}); code != http.StatusForbidden {
		t.Errorf("no-cors post from %s: %d %s, want 403", other, code, out)
	}
	if code, out := s.send("POST", "/api/episodes", body, map[string]string{"Content-Type": "text/plain"}); code != http.StatusUnsupportedMediaType {
		t.Errorf("text/plain post without an Origin: %d %s, want 415", code, out)
	}
	if n := s.episodesOf(""); n != 0 {
		t.Fatalf("%d episodes started", n)
	}
}

// The attack of issue 35, item 4: DNS rebinding. A page of
// rebind.attacker.example, whose name then resolves to 127.0.0.1, is of
// the same origin as the workbench for the browser; the Host header says
// whose it is, and only the names the server listens as are taken, with
// the port it listens on, under --no-token too.
func TestHostRebinding(t *testing.T) {
	for _, token := range []string{"", "sesame"} {
		s := newTestServer(t, Options{Token: token})
		u, _ := url.Parse(s.ts.URL)
		port := u.Port()
		for _, c := range []struct {
			host string
			want int
		}{
			{"rebind.attacker.example:" + port, http.StatusForbidden},
			{"rebind.attacker.example", http.StatusForbidden},
			{"127.0.0.1.nip.io:" + port, http.StatusForbidden},
			{"localhost:" + otherPort(port), http.StatusForbidden},
			{"127.0.0.1:" + port, http.StatusOK},
			{"localhost:" + port, http.StatusOK},
			{"LOCALHOST.:" + port, http.StatusOK},
		} {
			for _, path := range []string{"/api/games", "/"} {
				h := map[string]string{"Host": c.host}
				if token != "" {
					h[TokenHeader] = token
				}
				if code, out := s.send("GET", path, "", h); code != c.want {
					t.Errorf("token %q: GET %s with Host %s: %d %.200s, want %d", token, path, c.host, code, out, c.want)
				}
			}
		}
		h := map[string]string{"Host": "rebind.attacker.example:" + port, "Origin": "http://rebind.attacker.example:" + port, "Content-Type": "application/json"}
		if code, _ := s.send("POST", "/api/episodes", `{"policy":"walkthrough"}`, h); code != http.StatusForbidden {
			t.Errorf("token %q: a rebound page's POST: %d, want 403", token, code)
		}
		if n := s.episodesOf(token); n != 0 {
			t.Errorf("token %q: %d episodes started by a rebound page", token, n)
		}
	}
}

// Options.Hosts names the host of --addr: a request that names it is
// taken.
func TestHostsOption(t *testing.T) {
	s := newTestServer(t, Options{Hosts: []string{"workbench.lan"}})
	u, _ := url.Parse(s.ts.URL)
	if code, out := s.send("GET", "/api/games", "", map[string]string{"Host": "workbench.lan:" + u.Port()}); code != http.StatusOK {
		t.Errorf("Host workbench.lan: %d %s", code, out)
	}
}

// otherPort is a port that is not port.
func otherPort(port string) string {
	if port == "7860" {
		return "7861"
	}
	return "7860"
}
