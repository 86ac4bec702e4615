package llm_test

import (
	"context"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/agent/llm/openai"
)

// The cache's and the prices' tests put a real client (package openai)
// in front of a scripted server (llmtest): what they test is how package
// llm treats the replies of a client that talks HTTP.

const testKey = "sk-test-secret-0123456789"

// newClient returns a client of srv whose retries do not wait.
func newClient(t *testing.T, srv *llmtest.Server, edit func(*llm.Config)) *openai.Client {
	t.Helper()
	cfg := llm.Config{
		Model: "test-model", BaseURL: srv.URL(), APIKey: testKey,
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 80 * time.Millisecond,
		Sleep:  func(ctx context.Context, _ time.Duration) error { return ctx.Err() },
		Jitter: func(limit time.Duration) time.Duration { return limit },
	}
	if edit != nil {
		edit(&cfg)
	}
	c, err := openai.New(cfg)
	if err != nil {
		t.Fatalf("openai.New: %v", err)
	}
	return c
}

func chat(text string) llm.Request {
	return llm.Request{Messages: []llm.Message{{Role: llm.System, Content: "You play games."}, {Role: llm.User, Content: text}}, Label: "step 1"}
}

func complete(t *testing.T, c llm.Client, req llm.Request) *llm.Reply {
	t.Helper()
	r, err := c.Complete(context.Background(), req)
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	return r
}
