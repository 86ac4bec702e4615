package llmtest

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func post(t *testing.T, srv *Server, body string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Post(srv.URL()+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatalf("post: %v", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	return resp, string(b)
}

const chatBody = `{"model":"m1","messages":[{"role":"user","content":"hello there"}],"temperature":0,"tool_choice":{"type":"function","function":{"name":"go"}}}`

func TestServerAnswersInOrder(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	srv.Status(429, "3", "slow down").Reply("hi").ToolCall("go", `{"dir":"n"}`).Garbage("<html>")

	resp, body := post(t, srv, chatBody)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" || !strings.Contains(body, "slow down") {
		t.Errorf("first answer: %d %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}

	_, body = post(t, srv, chatBody)
	var c completion
	if err := json.Unmarshal([]byte(body), &c); err != nil {
		t.Fatalf("reply is not JSON: %v: %s", err, body)
	}
	if c.Model != "m1" || *c.Choices[0].Message.Content != "hi" || *c.Choices[0].FinishReason != "stop" || c.Usage.PromptTokens == 0 {
		t.Errorf("text reply: %s", body)
	}

	_, body = post(t, srv, chatBody)
	c = completion{}
	json.Unmarshal([]byte(body), &c)
	calls := c.Choices[0].Message.ToolCalls
	if len(calls) != 1 || calls[0].Function.Name != "go" || calls[0].Function.Arguments != `{"dir":"n"}` || calls[0].ID == "" || *c.Choices[0].FinishReason != "tool_calls" {
		t.Errorf("tool call reply: %s", body)
	}

	resp, body = post(t, srv, chatBody)
	if resp.StatusCode != 200 || body != "<html>" {
		t.Errorf("garbage: %d %q", resp.StatusCode, body)
	}

	resp, body = post(t, srv, chatBody)
	if resp.StatusCode != 400 || !strings.Contains(body, "no response queued") {
		t.Errorf("empty queue: %d %s", resp.StatusCode, body)
	}

	reqs := srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests recorded, want 5", len(reqs))
	}
	r := reqs[0]
	if r.Model != "m1" || r.LastUser() != "hello there" || r.Field("temperature") != "0" || r.ToolChoiceName() != "go" || r.Has("seed") {
		t.Errorf("decoded request: %+v", r)
	}
}

func TestServerFallbackTruncateDelay(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	srv.Fallback(func(r Request) Response { return Text("echo: "+r.LastUser()).WithUsage(7, 3) })
	srv.Truncated("a reply long enough to cut").Delay(50 * time.Millisecond).Reply("late")

	_, body := post(t, srv, chatBody)
	if json.Valid([]byte(body)) || !strings.HasPrefix(body, `{"id":`) {
		t.Errorf("truncated body is %q", body)
	}
	start := time.Now()
	_, body = post(t, srv, chatBody)
	if time.Since(start) < 50*time.Millisecond || !strings.Contains(body, `"late"`) {
		t.Errorf("delayed reply after %v: %s", time.Since(start), body)
	}
	_, body = post(t, srv, chatBody)
	if !strings.Contains(body, `"echo: hello there"`) || !strings.Contains(body, `"prompt_tokens":7`) {
		t.Errorf("fallback: %s", body)
	}
	if srv.Pending() != 0 {
		t.Errorf("Pending = %d", srv.Pending())
	}
}

func TestServerStreams(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	srv.Push(Response{Content: "one two", ToolCalls: Call("go", `{"direction":"north"}`).ToolCalls})
	_, body := post(t, srv, `{"model":"m","messages":[],"stream":true,"stream_options":{"include_usage":true}}`)
	var content, args, name string
	var usage bool
	sc := bufio.NewScanner(strings.NewReader(body))
	var last string
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		last = line
		if line == "[DONE]" {
			break
		}
		var c completion
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("event %q: %v", line, err)
		}
		if c.Usage != nil {
			usage = true
		}
		for _, ch := range c.Choices {
			if ch.Delta.Content != nil {
				content += *ch.Delta.Content
			}
			for _, tc := range ch.Delta.ToolCalls {
				name += tc.Function.Name
				args += tc.Function.Arguments
			}
		}
	}
	if content != "one two" || name != "go" || args != `{"direction":"north"}` || !usage || last != "[DONE]" {
		t.Errorf("stream gave content %q, call %s(%s), usage %v, last event %q", content, name, args, usage, last)
	}
}

func TestServerDropHangsUp(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	srv.Drop()
	resp, err := http.Post(srv.URL()+"/chat/completions", "application/json", strings.NewReader(chatBody))
	if err == nil {
		resp.Body.Close()
		t.Fatalf("a dropped request got status %d", resp.StatusCode)
	}
	if !errors.Is(err, io.EOF) && !strings.Contains(err.Error(), "EOF") && !strings.Contains(err.Error(), "reset") {
		t.Errorf("dropped request error: %v", err)
	}
}

func TestServerCloseCutsDelay(t *testing.T) {
	srv := NewServer()
	srv.Delay(time.Minute).Reply("never")
	done := make(chan struct{})
	go func() {
		resp, err := http.Post(srv.URL()+"/chat/completions", "application/json", strings.NewReader(chatBody))
		if err == nil {
			resp.Body.Close()
		}
		close(done)
	}()
	waitFor(t, "the request to arrive", func() bool { return len(srv.Requests()) > 0 })
	start := time.Now()
	srv.Close()
	<-done
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Close took %v with a delayed answer pending", d)
	}
}

// events returns the data lines of a server-sent event stream.
func events(body string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			out = append(out, line)
		}
	}
	return out
}

func TestServerWithoutUsage(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	srv.Push(Text("hi").WithoutUsage(), Text("hi").WithUsage(5, 1).WithoutUsage(), Text("one two").WithoutUsage(), Text("one two"))

	for i := range 2 {
		_, body := post(t, srv, chatBody)
		var fields map[string]json.RawMessage
		if err := json.Unmarshal([]byte(body), &fields); err != nil {
			t.Fatalf("reply %d is not JSON: %v: %s", i, err, body)
		}
		if _, ok := fields["usage"]; ok || fields["choices"] == nil {
			t.Errorf("reply %d without usage: %s", i, body)
		}
	}

	const streamBody = `{"model":"m","messages":[{"role":"user","content":"hello"}],"stream":true,"stream_options":{"include_usage":true}}`
	for i, wantUsage := range []bool{false, true} {
		_, body := post(t, srv, streamBody)
		evs := events(body)
		usage, content := false, ""
		for _, e := range evs {
			if e == "[DONE]" {
				continue
			}
			var c completion
			if err := json.Unmarshal([]byte(e), &c); err != nil {
				t.Fatalf("stream %d event %q: %v", i, e, err)
			}
			usage = usage || c.Usage != nil
			for _, ch := range c.Choices {
				if ch.Delta != nil && ch.Delta.Content != nil {
					content += *ch.Delta.Content
				}
			}
		}
		if usage != wantUsage || content != "one two" || len(evs) == 0 || evs[len(evs)-1] != "[DONE]" {
			t.Errorf("stream %d: usage %v (want %v), content %q, events %q", i, usage, wantUsage, content, evs)
		}
	}
}

// waitFor polls cond until it holds, and fails the test when it has not
// after ten seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	deadline := time.After(10 * time.Second)
	for !cond() {
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}
