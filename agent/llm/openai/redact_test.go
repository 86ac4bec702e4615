package openai_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/openai"
)

const urlSecret = "SECRET-in-the-url-42"

// TestKeyInBaseURLNeverPrinted is the attack of issue 11, item 14:
// OPENAI_BASE_URL=...?api_key=SECRET printed the key in errors (the
// connection's error quotes the URL go-openai makes).
func TestKeyInBaseURLNeverPrinted(t *testing.T) {
	base := "http://127.0.0.1:1/v1?api_key=" + urlSecret
	t.Setenv("OPENAI_BASE_URL", base)
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("HF_TOKEN", "")
	t.Setenv("GRUE_MODEL", "m")
	cfg := llm.ConfigFromEnv()
	cfg.MaxRetries = -1
	c, err := openai.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: "user", Content: "hi"}}})
	if err == nil {
		t.Fatal("a call to a closed port succeeded")
	}
	for _, s := range []string{err.Error(), fmt.Sprintf("%+v", err), cfg.String(), fmt.Sprintf("%#v", cfg), c.String()} {
		if strings.Contains(s, urlSecret) {
			t.Errorf("the key in the base URL is printed: %s", s)
		}
	}
	if !strings.Contains(cfg.String(), "api_key=[redacted]") {
		t.Errorf("Config.String() = %s: want the query's key masked", cfg.String())
	}

	_, err = openai.New(llm.Config{Model: "m", BaseURL: "ftp://h/v1?token=" + urlSecret})
	if err == nil || strings.Contains(err.Error(), urlSecret) {
		t.Errorf("New of a bad URL: %v: want an error without the key", err)
	}
}

// TestBaseURLQueryIsSent checks that a base URL's query (Azure's
// api-version, a proxy's key) reaches the server on every request, after
// the path: go-openai alone appended the path to the query.
func TestBaseURLQueryIsSent(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.URL.Path+" "+r.URL.Query().Get("api_key")+" "+r.URL.Query().Get("api-version"))
		mu.Unlock()
		// A proxy that echoes what it was asked.
		http.Error(w, `{"error":{"message":"no model at `+r.URL.String()+`"}}`, http.StatusNotFound)
	}))
	defer srv.Close()
	c, err := openai.New(llm.Config{Model: "m", BaseURL: srv.URL + "/v1/?api-version=7&api_key=" + urlSecret, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: "user", Content: "hi"}}})
	if err == nil || strings.Contains(err.Error(), urlSecret) || !strings.Contains(err.Error(), "api_key=[redacted]") {
		t.Errorf("error %v: want the echoed key masked", err)
	}
	want := "/v1/chat/completions " + urlSecret + " 7"
	if len(got) != 1 || got[0] != want {
		t.Errorf("the server got %q, want [%q]", got, want)
	}
}
