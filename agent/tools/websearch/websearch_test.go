package websearch

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/tools"
)

const searchKeyEnv = "GRUE_TOOLS_TEST_SEARCH_API_KEY"
const searchKey = "sk-test-9f8e7d6c5b4a"

// searxng answers like SearXNG's format=json, with n results, and records
// the last request.
func searxng(t *testing.T, n int, last **http.Request) *httptest.Server {
	t.Helper()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*last = r
		var res []map[string]any
		for i := 1; i <= n; i++ {
			res = append(res, map[string]any{
				"title":   fmt.Sprintf("Result %d for %s", i, r.URL.Query().Get("q")),
				"url":     fmt.Sprintf("https://example.org/%d", i),
				"content": fmt.Sprintf("snippet %d", i),
				"engine":  "test",
			})
		}
		json.NewEncoder(w).Encode(map[string]any{"query": r.URL.Query().Get("q"), "results": res})
	}))
	t.Cleanup(hs.Close)
	return hs
}

func searchCall(t *testing.T, ws *Tool, query string) tools.Result {
	t.Helper()
	r, err := ws.Call(context.Background(), map[string]any{"query": query})
	if err != nil {
		t.Fatalf("web_search %q: %v", query, err)
	}
	return r
}

func TestWebSearchSearXNG(t *testing.T) {
	var last *http.Request
	hs := searxng(t, 8, &last)
	ws, err := New(Config{URL: hs.URL + "/search?format=json", MaxResults: 3})
	if err != nil {
		t.Fatal(err)
	}
	r := searchCall(t, ws, "zork troll & bridge")
	if r.IsError {
		t.Fatalf("tool error: %s", r.Text)
	}
	if got := last.URL.Query(); got.Get("q") != "zork troll & bridge" || got.Get("format") != "json" || last.URL.Path != "/search" {
		t.Errorf("request = %s, want /search with format=json and the query as q", last.URL)
	}
	if last.Header.Get("Authorization") != "" {
		t.Errorf("sent Authorization %q with no key configured", last.Header.Get("Authorization"))
	}
	want := "[1] Result 1 for zork troll & bridge\nhttps://example.org/1\nsnippet 1"
	if !strings.HasPrefix(r.Text, want) || !strings.Contains(r.Text, "[3] Result 3") || strings.Contains(r.Text, "[4]") {
		t.Errorf("text = %q, want three results starting %q", r.Text, want)
	}
	if res, _ := r.Structured["results"].([]any); len(res) != 3 {
		t.Errorf("structured results = %v, want 3", r.Structured)
	}
}

func TestWebSearchTemplateAndKey(t *testing.T) {
	t.Setenv(searchKeyEnv, searchKey)
	var last *http.Request
	hs := searxng(t, 1, &last)

	ws, err := New(Config{URL: hs.URL + "/v1/search?q={query}&fmt=json", APIKeyEnv: searchKeyEnv})
	if err != nil {
		t.Fatal(err)
	}
	if r := searchCall(t, ws, "grue lamp&more"); r.IsError {
		t.Fatalf("tool error: %s", r.Text)
	}
	if q := last.URL.Query(); last.URL.Path != "/v1/search" || q.Get("q") != "grue lamp&more" || q.Get("fmt") != "json" {
		t.Errorf("request = %s, want the escaped query in the template", last.URL)
	}
	if got := last.Header.Get("Authorization"); got != "Bearer "+searchKey {
		t.Errorf("Authorization = %q, want the bearer key", got)
	}

	ws, err = New(Config{URL: hs.URL, QueryParam: "search", APIKeyEnv: searchKeyEnv, APIKeyHeader: "X-API-Key"})
	if err != nil {
		t.Fatal(err)
	}
	searchCall(t, ws, "brass lantern")
	if last.URL.Query().Get("search") != "brass lantern" || last.Header.Get("X-API-Key") != searchKey || last.Header.Get("Authorization") != "" {
		t.Errorf("request %s with headers %v, want search=brass lantern and the key in X-API-Key only", last.URL, last.Header)
	}
}

// The key appears nowhere the model or a log would see it, whatever the
// endpoint echoes.
func TestWebSearchKeyNeverShown(t *testing.T) {
	t.Setenv(searchKeyEnv, searchKey)
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := r.Header.Get("Authorization") + " " + r.URL.Query().Get("key")
		if r.URL.Query().Get("q") == "fail" {
			http.Error(w, "bad credentials: "+got, http.StatusUnauthorized)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"results": []any{map[string]any{"title": "you sent " + got, "url": "https://x/?k=" + got, "content": got}}})
	}))
	defer echo.Close()
	for _, cfg := range []Config{
		{URL: echo.URL, APIKeyEnv: searchKeyEnv},
		{URL: echo.URL + "/?key={key}", APIKeyEnv: searchKeyEnv, APIKeyHeader: "-"},
	} {
		ws, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		r := searchCall(t, ws, "echo")
		b, _ := json.Marshal(r)
		if r.IsError || strings.Contains(string(b), searchKey) || !strings.Contains(r.Text, "[redacted]") {
			t.Errorf("%+v: result %s shows the key or was not the echo", cfg, b)
		}
		r = searchCall(t, ws, "fail")
		if !r.IsError || !strings.Contains(r.Text, "401") || strings.Contains(r.Text, searchKey) {
			t.Errorf("%+v: failed search = %q, want a tool error with the status and no key", cfg, r.Text)
		}
	}
	// A dead endpoint with the key in its URL: the transport's error quotes
	// the URL, and the key must not come with it.
	ws, err := New(Config{URL: "http://127.0.0.1:1/?key={key}", APIKeyEnv: searchKeyEnv})
	if err != nil {
		t.Fatal(err)
	}
	r := searchCall(t, ws, "anything")
	if !r.IsError || strings.Contains(r.Text, searchKey) || !strings.Contains(r.Text, "[redacted]") {
		t.Errorf("dead endpoint = %q, want a tool error quoting the URL without its key", r.Text)
	}
}

func TestWebSearchFailures(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/html", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "<html>hello</html>") })
	mux.HandleFunc("/down", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "maintenance", http.StatusServiceUnavailable)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/none", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{"results": []}`) })
	hs := httptest.NewServer(mux)
	defer hs.Close()
	for path, want := range map[string]string{
		"/html": `something other than {"results": [...]}`,
		"/down": "503 Service Unavailable: maintenance",
		"/slow": "no answer from " + hs.URL + " within 100ms",
	} {
		ws, err := New(Config{URL: hs.URL + path, Timeout: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if r := searchCall(t, ws, "q"); !r.IsError || !strings.Contains(r.Text, want) {
			t.Errorf("%s: %q, want a tool error containing %q", path, r.Text, want)
		}
	}
	ws, _ := New(Config{URL: hs.URL + "/none"})
	if r := searchCall(t, ws, "q"); r.IsError || !strings.Contains(r.Text, `No web results for "q"`) {
		t.Errorf("no results = %+v", r)
	}
	if r := searchCall(t, ws, " "); !r.IsError {
		t.Errorf("empty query = %+v, want a tool error", r)
	}
	// A cancelled episode is a Go error, not something for the model.
	ws, _ = New(Config{URL: hs.URL + "/slow"})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := ws.Call(ctx, map[string]any{"query": "q"}); err == nil {
		t.Error("cancelled search: no error")
	}
}

func TestWebSearchConfigErrors(t *testing.T) {
	t.Setenv(searchKeyEnv, "")
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, "not configured"},
		{Config{URL: "localhost:8888/search"}, "not an http(s) address"},
		{Config{URL: "http://localhost:8888", APIKeyEnv: searchKeyEnv}, searchKeyEnv + " is not set"},
		{Config{URL: "http://localhost:8888", APIKeyEnv: "lower"}, "not an environment variable's name"},
	} {
		if _, err := New(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want %q", tc.cfg, err, tc.want)
		}
	}
}

// TestWebSearchKeyEnvIsConfined keeps the attack: a config naming
// GITHUB_TOKEN (or a model's key, or a cloud secret) as its search key
// would send that secret to a server of the config author's choice.
func TestWebSearchKeyEnvIsConfined(t *testing.T) {
	for _, name := range []string{"GITHUB_TOKEN", "GH_PAT", "AWS_SECRET_ACCESS_KEY", "OPENAI_API_KEY", "GRUE_TOKEN", "DATABASE_PASSWORD", "TAVILY", "SSH_AUTH_SOCK"} {
		t.Setenv(name, "secret-value")
		_, err := New(Config{URL: "http://127.0.0.1:1/?key={key}", APIKeyEnv: name})
		if err == nil || !strings.Contains(err.Error(), "not the key variable of a search service") {
			t.Errorf("api_key_env %s: err = %v, want a refusal", name, err)
		}
	}
	for _, name := range []string{"TAVILY_API_KEY", "BRAVE_API_KEY", "SERPAPI_API_KEY", "BING_SEARCH_KEY", "GOOGLE_CSE_KEY", "GRUE_SEARCH_API_KEY"} {
		t.Setenv(name, "k")
		if _, err := New(Config{URL: "http://127.0.0.1:1/", APIKeyEnv: name}); err != nil {
			t.Errorf("api_key_env %s: %v", name, err)
		}
	}
}
