package openai_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/agent/llm/openai"
)

func ok(llmtest.Request) llmtest.Response {
	return llmtest.Text("THOUGHT: go\nTOOL: play_action\nARGS: {\"action\": \"look\"}")
}

// A reasoning model under a name no list knows (a deployment's, a
// router's): the client learns from OpenAI's two 400s that temperature 0
// and max_tokens are refused, retries at once, and never sends them again.
func TestLearnsWhatAReasoningModelRefuses(t *testing.T) {
	srv := llmtest.NewServer().LikeOpenAIReasoning()
	defer srv.Close()
	srv.Fallback(ok)
	c, w := newClient(t, srv, func(cfg *llm.Config) { cfg.Model = "corp/thinker-2" })
	zero := 0.0
	req := chat("look")
	req.Temperature, req.MaxTokens = &zero, 400

	r := complete(t, c, req)
	if r.Content == "" || r.FinishReason != "stop" {
		t.Fatalf("reply %+v, want an answer", r)
	}
	var learned []string
	for _, a := range r.Retries {
		learned = append(learned, a.Learned)
		if a.Status != 400 || a.Wait != 0 {
			t.Errorf("attempt %+v: want a 400 retried at once", a)
		}
	}
	if want := []string{"temperature refused: no longer sent", "max_tokens refused: no longer sent"}; !slices.Equal(learned, want) {
		t.Errorf("learned %q, want %q", learned, want)
	}
	if len(w.get()) != 0 {
		t.Errorf("waited %v before retrying a learned refusal", w.get())
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	last := reqs[2]
	if last.Has("temperature") || last.Has("max_tokens") || last.Field("max_completion_tokens") != fmt.Sprint(400+llm.DefaultReasoningTokens) {
		t.Errorf("third request: %s", last.Raw)
	}
	if len(r.Omitted) != 2 || !strings.HasPrefix(r.Omitted[0], "max_tokens (refused: status 400") || !strings.HasPrefix(r.Omitted[1], "temperature (refused") {
		t.Errorf("Omitted = %q", r.Omitted)
	}
	if r.Usage.ReasoningTokens != llmtest.OpenAIReasoningTokens {
		t.Errorf("reasoning tokens %d, want %d", r.Usage.ReasoningTokens, llmtest.OpenAIReasoningTokens)
	}

	// Remembered: the next call is one request, with what was learned.
	r = complete(t, c, req)
	if len(r.Retries) != 0 || len(srv.Requests()) != 4 || len(r.Omitted) != 2 {
		t.Errorf("second call: %d retries, %d requests, omitted %q", len(r.Retries), len(srv.Requests()), r.Omitted)
	}
}

// OpenAI's own reasoning models are known by name: the first request is
// right, and go-openai's own checks by name refuse nothing.
func TestReasoningModelByName(t *testing.T) {
	srv := llmtest.NewServer().LikeOpenAIReasoning()
	defer srv.Close()
	srv.Fallback(ok)
	c, _ := newClient(t, srv, func(cfg *llm.Config) { cfg.Model = "gpt-5-mini"; cfg.ReasoningEffort = "low" })
	zero := 0.0
	req := chat("look")
	req.Temperature, req.MaxTokens = &zero, 400
	r := complete(t, c, req)
	reqs := srv.Requests()
	if len(reqs) != 1 || len(r.Retries) != 0 {
		t.Fatalf("%d requests, retries %+v: want one right request", len(reqs), r.Retries)
	}
	if reqs[0].Has("temperature") || reqs[0].ReasoningEffort != "low" || reqs[0].MaxCompletionTokens != 400+llm.DefaultReasoningTokens {
		t.Errorf("request: %s", reqs[0].Raw)
	}
}

// A server that keeps reasoning apart (vLLM, DeepSeek, Qwen3): the
// reasoning is kept in the reply, a first budget spent on reasoning is
// asked again with the allowance, and the reasoning is not sent back.
func TestReasoningContentKeptAndNotSentBack(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprint("stream=", stream), func(t *testing.T) {
			srv := llmtest.NewServer().LikeVLLMReasoning("Qwen/Qwen3-8B")
			defer srv.Close()
			srv.Fallback(ok)
			c, _ := newClient(t, srv, func(cfg *llm.Config) { cfg.Model = "Qwen/Qwen3-8B"; cfg.Stream = stream; cfg.MaxTokens = 400 })
			r := complete(t, c, chat("look"))
			if r.Reasoning != llmtest.VLLMReasoning || r.Content == "" {
				t.Fatalf("reply %+v: want the reasoning and an answer", r)
			}
			if len(r.Retries) != 1 || !strings.Contains(r.Retries[0].Learned, "the model reasons") {
				t.Errorf("retries %+v: want one, learning that the model reasons", r.Retries)
			}
			if r.Usage.ReasoningTokens != 400+llmtest.VLLMReasoningTokens {
				t.Errorf("usage %+v: want the cut-off try's reasoning counted too", r.Usage)
			}
			req := chat("look")
			req.Messages = append(req.Messages, r.Message(), llm.Message{Role: llm.User, Content: "next"})
			r2 := complete(t, c, req)
			if len(r2.Retries) != 0 {
				t.Errorf("second call retried: %+v", r2.Retries)
			}
			last := srv.Requests()[len(srv.Requests())-1]
			if strings.Contains(string(last.Raw), "reasoning") || last.MaxTokens != 400+llm.DefaultReasoningTokens {
				t.Errorf("second request: %s", last.Raw)
			}
		})
	}
}

// Ollama sends its reasoning as "reasoning" and lists NAME:latest.
func TestOllamaReasoningField(t *testing.T) {
	srv := llmtest.NewServer().LikeOllama("qwen3")
	defer srv.Close()
	srv.Fallback(ok)
	for _, stream := range []bool{false, true} {
		c, _ := newClient(t, srv, func(cfg *llm.Config) { cfg.Model = "qwen3"; cfg.Stream = stream })
		if r := complete(t, c, chat("look")); r.Reasoning != "Thinking about the game." {
			t.Errorf("stream %v: reasoning %q", stream, r.Reasoning)
		}
	}
	cfg, err := openai.CheckModel(context.Background(), llm.Config{Model: "qwen3", BaseURL: srv.URL()})
	if err != nil || cfg.Model != "qwen3" {
		t.Errorf("CheckModel qwen3 against qwen3:latest: %v, %q", err, cfg.Model)
	}
}

// LM Studio's 400 to json_object is a bare string: the parameter is
// found in its text.
func TestLMStudioJSONRefusalLearned(t *testing.T) {
	srv := llmtest.NewServer().LikeLMStudio("qwen2.5-7b-instruct")
	defer srv.Close()
	srv.Fallback(func(llmtest.Request) llmtest.Response { return llmtest.Text(`{"action":"look"}`) })
	c, _ := newClient(t, srv, func(cfg *llm.Config) { cfg.Model = "qwen2.5-7b-instruct" })
	req := chat("look")
	req.JSON = true
	r := complete(t, c, req)
	if len(r.Retries) != 1 || r.Retries[0].Learned != "response_format refused: no longer sent" || len(r.Omitted) != 1 {
		t.Errorf("retries %+v, omitted %q", r.Retries, r.Omitted)
	}
	complete(t, c, req)
	if reqs := srv.Requests(); len(reqs) != 3 || reqs[2].Has("response_format") {
		t.Errorf("%d requests; the last: %s", len(reqs), reqs[len(reqs)-1].Raw)
	}
}

// A classic Azure URL (deployment and api-version) is spoken as Azure's:
// the deployment's path, the api-version, the api-key header; its
// refusal of stream_options is learned from the message alone.
func TestAzureClassicURLAndStreamOptions(t *testing.T) {
	srv := llmtest.NewServer().LikeAzure()
	defer srv.Close()
	srv.Fallback(ok)
	c, err := openai.New(llm.Config{
		BaseURL: srv.Root() + "/openai/deployments/gpt4o-prod?api-version=2024-10-21",
		APIKey:  testKey, Stream: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if c.Model() != "gpt4o-prod" {
		t.Errorf("model %q, want the deployment", c.Model())
	}
	r := complete(t, c, chat("look"))
	if len(r.Retries) != 1 || r.Retries[0].Learned != "stream_options refused: no longer sent" {
		t.Errorf("retries %+v", r.Retries)
	}
	req := srv.Requests()[1]
	if req.Path != "/openai/deployments/gpt4o-prod/chat/completions" || req.Query != "api-version=2024-10-21" ||
		req.Header.Get("api-key") != testKey || req.Has("stream_options") || !req.Stream {
		t.Errorf("request %s %s api-key=%q: %s", req.Path, req.Query, req.Header.Get("api-key"), req.Raw)
	}
}

// Extra body fields go out verbatim, a request's over the client's, and
// are never dropped: a server refusing one is an error that names it.
func TestExtraBodyVerbatim(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Fallback(ok)
	c, _ := newClient(t, srv, func(cfg *llm.Config) {
		cfg.ExtraBody = map[string]any{"options": map[string]any{"num_ctx": 32768}, "think": false, "temperature": 0.3}
	})
	req := chat("look")
	req.Extra = map[string]any{"chat_template_kwargs": map[string]any{"enable_thinking": false}, "think": true}
	complete(t, c, req)
	got := srv.Requests()[0]
	for k, want := range map[string]string{
		"options": `{"num_ctx":32768}`, "think": "true", "temperature": "0.3",
		"chat_template_kwargs": `{"enable_thinking":false}`,
	} {
		if g := got.Field(k); g != want {
			t.Errorf("%s = %s, want %s", k, g, want)
		}
	}

	// An extra field may replace one grue sets itself, the model too.
	routed := chat("look")
	routed.Extra = map[string]any{"model": "routed/model", "seed": 9}
	complete(t, c, routed)
	if got := srv.Requests()[1]; got.Model != "routed/model" || got.Field("seed") != "9" || len(got.Messages) != 2 {
		t.Errorf("extra model and seed: %s", got.Raw)
	}

	srv.Refuse("think", nil, llmtest.ParamError("think", "unsupported_parameter", "Unsupported parameter: 'think'"))
	_, err := c.Complete(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "think") {
		t.Errorf("a refused extra field: %v, want an error naming it", err)
	}
}

// A 400 naming a parameter that was not sent is not learned from: no
// loop, one request, the error.
func TestRefusalOfUnsentParamFails(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Push(llmtest.ParamError("temperature", "x", "temperature is wrong"))
	c, _ := newClient(t, srv, nil)
	if _, err := c.Complete(context.Background(), chat("look")); err == nil || len(srv.Requests()) != 1 {
		t.Errorf("err %v after %d requests", err, len(srv.Requests()))
	}
}

// DropParams leaves parameters out from the first request; a name grue
// cannot leave out is refused up front.
func TestDropParamsConfigured(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Fallback(ok)
	c, _ := newClient(t, srv, func(cfg *llm.Config) { cfg.DropParams = []string{"seed", "temperature"} })
	seed, zero := 3, 0.0
	req := chat("look")
	req.Seed, req.Temperature = &seed, &zero
	r := complete(t, c, req)
	if got := srv.Requests()[0]; got.Has("seed") || got.Has("temperature") || len(r.Omitted) != 2 {
		t.Errorf("request %s, omitted %q", got.Raw, r.Omitted)
	}
	if _, err := openai.New(llm.Config{Model: "m", BaseURL: srv.URL(), DropParams: []string{"messages"}}); err == nil || !strings.Contains(err.Error(), `"messages"`) {
		t.Errorf("drop_params messages: %v", err)
	}
	if (llm.Config{BaseURL: srv.URL(), DropParams: []string{"seed"}}).SeedIgnored() == "" ||
		(llm.Config{BaseURL: "https://api.anthropic.com/v1/"}).SeedIgnored() == "" ||
		(llm.Config{BaseURL: srv.URL()}).SeedIgnored() != "" {
		t.Error("SeedIgnored")
	}
}

func TestCheckModel(t *testing.T) {
	ctx := context.Background()
	one := llmtest.NewServer().Models("Qwen/Qwen3-8B")
	defer one.Close()
	cfg, err := openai.CheckModel(ctx, llm.Config{BaseURL: one.URL()})
	if err != nil || cfg.Model != "Qwen/Qwen3-8B" {
		t.Errorf("one model served, none named: %q, %v", cfg.Model, err)
	}
	_, err = openai.CheckModel(ctx, llm.Config{BaseURL: one.URL(), Model: "Qwen/Qwen3-8b"})
	if err == nil || !strings.Contains(err.Error(), `"Qwen/Qwen3-8b"`) || !strings.Contains(err.Error(), "it serves Qwen/Qwen3-8B") {
		t.Errorf("misspelt: %v", err)
	}
	two := llmtest.NewServer().Models("a", "b")
	defer two.Close()
	if _, err := openai.CheckModel(ctx, llm.Config{BaseURL: two.URL()}); err == nil || !strings.Contains(err.Error(), "a, b") {
		t.Errorf("two served, none named: %v", err)
	}
	none := llmtest.NewServer()
	defer none.Close()
	if cfg, err := openai.CheckModel(ctx, llm.Config{BaseURL: none.URL(), Model: "whatever"}); err != nil || cfg.Model != "whatever" {
		t.Errorf("no model list: %q, %v: want the check skipped", cfg.Model, err)
	}
	if _, err := openai.CheckModel(ctx, llm.Config{BaseURL: none.URL()}); err == nil || !strings.Contains(err.Error(), "GRUE_MODEL") {
		t.Errorf("no model list, none named: %v", err)
	}
	if len(none.Requests()) != 0 {
		t.Errorf("CheckModel sent a chat request")
	}
}

// Config.ReasoningModel overrides the guess from the name both ways.
func TestReasoningModelOverride(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Fallback(ok)
	zero := 0.0
	req := chat("look")
	req.Temperature, req.MaxTokens = &zero, 100
	yes, no := true, false
	deploy, _ := newClient(t, srv, func(cfg *llm.Config) { cfg.Model = "prod-deployment-7"; cfg.ReasoningModel = &yes })
	complete(t, deploy, req)
	plain, _ := newClient(t, srv, func(cfg *llm.Config) { cfg.Model = "gpt-5-chat-latest"; cfg.ReasoningModel = &no })
	complete(t, plain, req)
	reqs := srv.Requests()
	if reqs[0].Has("temperature") || reqs[0].MaxCompletionTokens != 100+llm.DefaultReasoningTokens {
		t.Errorf("reasoning_model true: %s", reqs[0].Raw)
	}
	if reqs[1].Field("temperature") != "0" || reqs[1].MaxTokens != 100 {
		t.Errorf("reasoning_model false: %s", reqs[1].Raw)
	}
}
