package openai_test

import (
	"context"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent/llm/llmtest"
)

// vLLM's 400 for a prompt that leaves too little room under the context
// names max_tokens, but max_tokens is not refused: the client lowers it
// once, to what fits, says so in the reply, and learns nothing.
func TestContextOverflowLowersMaxTokensOnce(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Push(llmtest.Error(400, "", "'max_tokens' is too large: 400. This model's maximum context length is 4096 tokens and your request has 3800 input tokens (400 > 4096 - 3800). None"))
	srv.Fallback(ok)
	c, _ := newClient(t, srv, nil)
	req := chat("look")
	req.MaxTokens = 400

	r := complete(t, c, req)
	if len(r.Retries) != 1 || !strings.Contains(r.Retries[0].Learned, "max tokens lowered from 400 to 296 for this request") {
		t.Fatalf("retries %+v: want one, saying max tokens were lowered to 296", r.Retries)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[1].Field("max_tokens") != "296" || reqs[1].Has("max_completion_tokens") {
		t.Errorf("second request: %s", reqs[len(reqs)-1].Raw)
	}
	if len(r.Omitted) != 0 {
		t.Errorf("omitted %q: nothing was refused", r.Omitted)
	}
	// Nothing was learned: the next call sends max_tokens 400 again.
	complete(t, c, req)
	if last := srv.Requests()[2]; last.Field("max_tokens") != "400" || last.Has("max_completion_tokens") {
		t.Errorf("next call: %s; want max_tokens 400 as before", last.Raw)
	}
}

// An overflow whose answer does not say how much would fit, or that no
// max tokens can fix, fails at once with an error that says what to do,
// and leaves the endpoint's parameters as they were.
func TestContextOverflowFailsClearly(t *testing.T) {
	for name, msg := range map[string]string{
		"prompt too long": "This model's maximum context length is 4096 tokens. However, your messages resulted in 5000 tokens. Please reduce the length of the messages.",
		"nothing fits":    "'max_tokens' is too large: 400. This model's maximum context length is 4096 tokens and your request has 4090 input tokens (400 > 4096 - 4090). None",
		"openai code":     "context_length_exceeded: max_tokens plus the prompt exceed the context window",
	} {
		t.Run(name, func(t *testing.T) {
			srv := llmtest.NewServer()
			defer srv.Close()
			srv.Push(llmtest.Error(400, "", msg))
			srv.Fallback(ok)
			c, w := newClient(t, srv, nil)
			req := chat("look")
			req.MaxTokens = 400
			_, err := c.Complete(context.Background(), req)
			if err == nil || !strings.Contains(err.Error(), "do not fit the model's context") || !strings.Contains(err.Error(), "lower max_tokens") {
				t.Fatalf("error %v: want one saying the request does not fit the context", err)
			}
			if len(srv.Requests()) != 1 || len(w.get()) != 0 {
				t.Errorf("%d requests, waits %v: want one request, no retry", len(srv.Requests()), w.get())
			}
			r := complete(t, c, req)
			if last := srv.Requests()[1]; last.Field("max_tokens") != "400" || len(r.Omitted) != 0 {
				t.Errorf("next call: %s, omitted %q: max_tokens must not be learned as refused", last.Raw, r.Omitted)
			}
		})
	}
}
