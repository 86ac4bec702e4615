package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent/llm/llmtest"
)

// TestAgentKeyInBaseURL is the attack of issue 11, item 14 on grue agent:
// OPENAI_BASE_URL=...?api_key=SECRET printed the key in its errors (and
// -v printed every retry's). The key reaches the server, and neither the
// output, the errors nor the trajectory hold it.
func TestAgentKeyInBaseURL(t *testing.T) {
	const secret = "SECRET-url-key-5d1e"
	srv := llmtest.NewServer()
	defer srv.Close()
	modelEnv(t, srv)
	t.Setenv("OPENAI_BASE_URL", srv.URL()+"?api_key="+secret)
	srv.Status(429, "0", "slow down, "+srv.URL()+"?api_key="+secret).
		Reply(textReply("Look around.", "look")).
		Reply(textReply("Look again.", "look"))
	traj := filepath.Join(t.TempDir(), "t.json")
	out, errs, code := grueAgent(t, "--policy", "llm", "--steps", "2", "--trajectory", traj, "-v")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if len(srv.Requests()) != 3 {
		t.Fatalf("%d requests reached the server, want 3: the base URL's query must not break the path", len(srv.Requests()))
	}
	b, err := os.ReadFile(traj)
	if err != nil {
		t.Fatal(err)
	}
	for what, s := range map[string]string{"stdout": out, "stderr": errs, "the trajectory": string(b)} {
		if strings.Contains(s, secret) {
			t.Errorf("%s holds the key:\n%s", what, s)
		}
	}
	if !strings.Contains(out, "api_key=[redacted]") {
		t.Errorf("-v should show the retry's message with the key masked:\n%s", out)
	}

	// A server that cannot be reached: the error quotes the URL.
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1?api_key="+secret)
	out, errs, code = grueAgent(t, "--policy", "llm", "--steps", "1", "--retries", "-1", "-v")
	if code == 0 || strings.Contains(out+errs, secret) || !strings.Contains(out+errs, "127.0.0.1:1") {
		t.Errorf("exit %d; want an error naming the endpoint without its key:\n%s%s", code, out, errs)
	}
}
