package llm

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
)

func TestScriptedAnswersInOrderAndRecords(t *testing.T) {
	ctx := context.Background()
	s := NewScripted(&Reply{Content: "first"}).
		ToolCall("play_action", `{"action":"north"}`).
		Func(func(req Request) (*Reply, error) {
			return &Reply{Content: "echo " + req.Messages[len(req.Messages)-1].Content}, nil
		})
	if s.Remaining() != 3 {
		t.Fatalf("Remaining = %d, want 3", s.Remaining())
	}
	ask := func(text string) *Reply {
		t.Helper()
		r, err := s.Complete(ctx, Request{Messages: []Message{{Role: User, Content: text}}, Label: text})
		if err != nil {
			t.Fatalf("Complete(%q): %v", text, err)
		}
		return r
	}
	if r := ask("a"); r.Content != "first" {
		t.Errorf("first answer = %q", r.Content)
	}
	r := ask("b")
	if len(r.ToolCalls) != 1 || r.ToolCalls[0].Name != "play_action" || r.ToolCalls[0].Arguments != `{"action":"north"}` || r.FinishReason != "tool_calls" {
		t.Errorf("second answer = %+v", r)
	}
	if r := ask("c"); r.Content != "echo c" {
		t.Errorf("third answer = %q", r.Content)
	}
	_, err := s.Complete(ctx, Request{Label: "step 4"})
	if !errors.Is(err, ErrScriptExhausted) || !strings.Contains(err.Error(), `"step 4"`) {
		t.Errorf("exhausted error = %v, want ErrScriptExhausted naming the label", err)
	}
	reqs := s.Requests()
	if len(reqs) != 4 || reqs[0].Label != "a" || reqs[2].Messages[0].Content != "c" {
		t.Errorf("Requests = %+v", reqs)
	}
}

func TestScriptedRepliesAreCopies(t *testing.T) {
	s := NewScripted().Reply(&Reply{ToolCalls: []ToolCall{{Name: "x"}}})
	s.Fallback = func(Request) (*Reply, error) { return &Reply{Content: "again"}, nil }
	r, _ := s.Complete(context.Background(), Request{})
	r.ToolCalls[0].Name = "changed"
	r2, err := s.Complete(context.Background(), Request{})
	if err != nil || r2.Content != "again" {
		t.Fatalf("fallback = %+v, %v", r2, err)
	}
	req := Request{Messages: []Message{{Role: User, Content: "hi"}}}
	if _, err := s.Complete(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	req.Messages[0].Content = "mutated"
	if got := s.Requests()[2].Messages[0].Content; got != "hi" {
		t.Errorf("recorded request changed with the caller's slice: %q", got)
	}
}

func TestScriptedErrorAndCancel(t *testing.T) {
	boom := errors.New("boom")
	s := NewScripted().Error(boom).Text("ok")
	if _, err := s.Complete(context.Background(), Request{}); !errors.Is(err, boom) {
		t.Errorf("scripted error = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Complete(ctx, Request{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled call = %v", err)
	}
	if s.Remaining() != 1 {
		t.Errorf("a cancelled call used an answer: Remaining = %d", s.Remaining())
	}
}

func TestScriptedConcurrent(t *testing.T) {
	const n = 50
	s := NewScripted()
	for range n {
		s.Text("x")
	}
	var wg sync.WaitGroup
	errs := make(chan error, n+1)
	for range n + 1 {
		wg.Go(func() {
			_, err := s.Complete(context.Background(), Request{})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	failed := 0
	for err := range errs {
		if err != nil {
			failed++
		}
	}
	if failed != 1 || len(s.Requests()) != n+1 {
		t.Errorf("%d calls failed, %d recorded; want 1 and %d", failed, len(s.Requests()), n+1)
	}
}
