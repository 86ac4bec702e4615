package openai_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/agent/llm/openai"
)

// counting is a transport that counts the requests it carries.
type counting struct{ n atomic.Int32 }

func (c *counting) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultTransport.RoundTrip(r)
}

// TestWithHTTPClient: the client and CheckModel carry their requests
// with the http.Client given (what Config.HTTPClient was).
func TestWithHTTPClient(t *testing.T) {
	srv := llmtest.NewServer().Models("test-model")
	defer srv.Close()
	srv.Push(llmtest.Text("ok"))
	tr := &counting{}
	hc := &http.Client{Transport: tr}
	cfg, err := openai.CheckModel(context.Background(), llm.Config{BaseURL: srv.URL()}, openai.WithHTTPClient(hc))
	if err != nil || cfg.Model != "test-model" {
		t.Fatalf("CheckModel = %v, %v", cfg, err)
	}
	c, err := openai.New(cfg, openai.WithHTTPClient(hc))
	if err != nil {
		t.Fatal(err)
	}
	complete(t, c, chat("look"))
	if got := tr.n.Load(); got != 2 {
		t.Errorf("the given client carried %d requests, want 2 (models, chat)", got)
	}
	if hc.Transport != tr {
		t.Error("New changed the http.Client it was given")
	}
}
