package llmtest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// The ways real servers bend the OpenAI wire format, as building blocks
// (Models, Refuse, Think) and as whole servers that behave as one kind
// of provider does (LikeOpenAIReasoning, LikeVLLMReasoning, LikeOllama,
// LikeLMStudio, LikeAzure), for tests that grue copes with each.

// Models makes GET /models list ids, as vLLM, llama.cpp, Ollama and
// OpenAI do; without it the server answers 404 there, as servers with no
// model list do.
func (s *Server) Models(ids ...string) *Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = append([]string{}, ids...)
	return s
}

// Refuse makes the server answer a request whose body has the top-level
// key param with answer (a 400, usually) when refuses says so of the
// key's raw JSON value (nil refuses any value). A refused request takes
// no queued answer.
func (s *Server) Refuse(param string, refuses func(raw string) bool, answer Response) *Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.checks = append(s.checks, func(r Request) *Response {
		if !r.Has(param) || (refuses != nil && !refuses(r.Field(param))) {
			return nil
		}
		a := answer
		return &a
	})
	return s
}

// Think makes every answer reason: text (none when "") in field
// ("reasoning_content" when "", or "reasoning"), and tokens reasoning
// tokens reported in usage. A request whose max tokens
// (max_completion_tokens, or else max_tokens) leave no room after
// tokens is cut off as a reasoning model's is: no content, no tool
// call, finish reason length, every token spent reasoning.
func (s *Server) Think(field, text string, tokens int) *Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.think = &thinking{field: field, text: text, tokens: tokens}
	return s
}

// thinking is what Think set.
type thinking struct {
	field, text string
	tokens      int
}

// apply gives resp the reasoning, or cuts it off.
func (t *thinking) apply(req Request, resp *Response) {
	if t == nil || resp.Status != 0 || resp.Body != "" || resp.Drop {
		return
	}
	resp.Reasoning, resp.ReasoningField, resp.ReasoningTokens = t.text, t.field, t.tokens
	limit := req.MaxCompletionTokens
	if limit == 0 {
		limit = req.MaxTokens
	}
	if limit > 0 && limit <= t.tokens {
		resp.Content, resp.ToolCalls, resp.FinishReason = "", nil, "length"
		resp.ReasoningTokens = limit
		resp.Usage = nil
	}
}

// check runs the Refuse checks on req; s.mu is held.
func (s *Server) check(req Request) *Response {
	for _, c := range s.checks {
		if r := c(req); r != nil {
			return r
		}
	}
	return nil
}

// listModels answers GET /models.
func (s *Server) listModels(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	ids := s.models
	s.mu.Unlock()
	if ids == nil {
		http.Error(w, `{"error":{"message":"llmtest: no model list","type":"not_found"}}`, http.StatusNotFound)
		return
	}
	type model struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		Created int64  `json:"created"`
		OwnedBy string `json:"owned_by"`
	}
	list := struct {
		Object string  `json:"object"`
		Data   []model `json:"data"`
	}{Object: "list", Data: []model{}}
	for _, id := range ids {
		list.Data = append(list.Data, model{ID: id, Object: "model", Created: created, OwnedBy: "llmtest"})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(list)
}

// ParamError returns a 400 in OpenAI's shape that names param in its
// param field, as OpenAI's refusals do.
func ParamError(param, code, message string) Response {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": message, "type": "invalid_request_error", "param": param, "code": code,
	}})
	return Response{Status: http.StatusBadRequest, Body: string(b)}
}

// OpenAIReasoningTokens is how many tokens a LikeOpenAIReasoning server
// reasons per answer.
const OpenAIReasoningTokens = 1200

// LikeOpenAIReasoning makes s answer as OpenAI's reasoning models (o3,
// gpt-5) do, whatever the model's name: a temperature other than 1 is
// refused (400, naming temperature), max_tokens is refused (400: use
// max_completion_tokens), and every answer reasons
// OpenAIReasoningTokens tokens, with no reasoning text, so that a budget
// of fewer tokens gets an empty answer cut off at length.
func (s *Server) LikeOpenAIReasoning() *Server {
	return s.Refuse("temperature", func(raw string) bool { return raw != "1" },
		ParamError("temperature", "unsupported_value", "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.")).
		Refuse("max_tokens", nil,
			ParamError("max_tokens", "unsupported_parameter", "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.")).
		Think("", "", OpenAIReasoningTokens)
}

// VLLMReasoning is the reasoning a LikeVLLMReasoning server sends.
const VLLMReasoning = "The player is in a room; I should look around before moving."

// LikeVLLMReasoning makes s answer as vLLM serving a reasoning model
// (Qwen3, DeepSeek-R1) does: model listed at /models, every answer with
// VLLMReasoning in reasoning_content and VLLMReasoningTokens reasoning
// tokens, counted in max_tokens (so a budget of 400 is cut off).
func (s *Server) LikeVLLMReasoning(model string) *Server {
	return s.Models(model).Think("reasoning_content", VLLMReasoning, VLLMReasoningTokens)
}

// VLLMReasoningTokens is how many tokens a LikeVLLMReasoning server
// reasons per answer.
const VLLMReasoningTokens = 600

// LikeOllama makes s answer as Ollama does: its models listed with their
// tag (NAME:latest), tool_choice, seed and response_format accepted and
// ignored (the answer is whatever is queued), and reasoning sent as
// "reasoning".
func (s *Server) LikeOllama(model string) *Server {
	if !strings.Contains(model, ":") {
		model += ":latest"
	}
	return s.Models(model).Think("reasoning", "Thinking about the game.", 20)
}

// LikeLMStudio makes s answer as LM Studio does: its model listed, and
// response_format json_object refused with a 400 whose error is a bare
// string, not OpenAI's object.
func (s *Server) LikeLMStudio(model string) *Server {
	return s.Models(model).Refuse("response_format", func(raw string) bool { return strings.Contains(raw, "json_object") },
		Response{Status: http.StatusBadRequest, Body: `{"error":"'response_format.type' must be 'json_schema' or 'text'"}`})
}

// LikeAzure makes s refuse stream_options as some Azure OpenAI
// deployments do (400: "Unrecognized request argument supplied"), with
// no model list; a classic Azure client calls
// Root()+"/openai/deployments/NAME/chat/completions?api-version=V" on it.
func (s *Server) LikeAzure() *Server {
	return s.Refuse("stream_options", nil,
		Response{Status: http.StatusBadRequest, Body: `{"error":{"code":null,"message":"Unrecognized request argument supplied: stream_options"}}`})
}
