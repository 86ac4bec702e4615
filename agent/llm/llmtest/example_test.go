package llmtest_test

import (
	"context"
	"fmt"
	"time"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/agent/llm/openai"
)

// A flaky endpoint: rate limited, then a proxy's error page, then the
// answer. The client retries both failures and records them.
func ExampleServer() {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Status(429, "0", "Rate limit reached").
		Garbage("<html>502 Bad Gateway</html>").
		ToolCall("play_action", `{"action":"open mailbox"}`)

	client, err := openai.New(llm.Config{Model: "test-model", BaseURL: srv.URL(), MinBackoff: time.Millisecond})
	if err != nil {
		fmt.Println(err)
		return
	}
	reply, err := client.Complete(context.Background(), llm.Request{
		Messages: []llm.Message{{Role: llm.User, Content: "West of House. There is a small mailbox here."}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range reply.Retries {
		fmt.Printf("retried after status %d\n", a.Status)
	}
	fmt.Println(reply.ToolCalls[0].Name, reply.ToolCalls[0].Arguments)
	fmt.Println(len(srv.Requests()), "requests")
	// Output:
	// retried after status 429
	// retried after status 200
	// play_action {"action":"open mailbox"}
	// 3 requests
}
