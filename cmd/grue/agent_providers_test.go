package main

import (
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm/llmtest"
)

// walker answers in the text protocol with a round of commands.
func walker() func(llmtest.Request) llmtest.Response {
	cmds := []string{"look", "north", "inventory", "south", "east", "west", "examine grass", "wait", "take lantern", "look"}
	var n atomic.Int64
	return func(llmtest.Request) llmtest.Response {
		c := cmds[int(n.Add(1)-1)%len(cmds)]
		return llmtest.Text("THOUGHT: keep exploring\nTOOL: play_action\nARGS: {\"action\": \"" + c + "\"}")
	}
}

// grue agent plays 10 steps with its default flags against servers that
// behave as today's providers do; each case checks what grue had to
// cope with there.
func TestAgentAgainstProviders(t *testing.T) {
	cases := []struct {
		name  string
		model string // GRUE_MODEL; "" leaves it unset
		setup func(*llmtest.Server)
		check func(t *testing.T, r *agent.RunResult, srv *llmtest.Server)
	}{
		{"openai reasoning model under an unknown name", "corp/reasoner-1", func(s *llmtest.Server) { s.LikeOpenAIReasoning() },
			func(t *testing.T, r *agent.RunResult, srv *llmtest.Server) {
				first := r.History[0].Reply
				if len(first.Retries) != 2 || first.Retries[0].Learned == "" || first.Retries[1].Learned == "" {
					t.Errorf("step 1 retries %+v: want temperature and max_tokens learned", first.Retries)
				}
				for _, s := range r.History {
					if len(s.Reply.Omitted) != 2 || slices.ContainsFunc(s.Repairs, func(r agent.Repair) bool { return r.Kind == agent.RepairCutOff }) {
						t.Errorf("step %d: omitted %q, repairs %+v", s.Step, s.Reply.Omitted, s.Repairs)
					}
				}
				if n := len(srv.Requests()); n != 12 {
					t.Errorf("%d requests, want 12 (two refusals learned once)", n)
				}
			}},
		{"vllm reasoning model, no GRUE_MODEL", "", func(s *llmtest.Server) { s.LikeVLLMReasoning("Qwen/Qwen3-8B") },
			func(t *testing.T, r *agent.RunResult, srv *llmtest.Server) {
				for _, s := range r.History {
					if s.Reply.Reasoning != llmtest.VLLMReasoning || s.Reply.Model != "Qwen/Qwen3-8B" {
						t.Errorf("step %d: reasoning %q from %q", s.Step, s.Reply.Reasoning, s.Reply.Model)
					}
				}
				for i, req := range srv.Requests() {
					if strings.Contains(string(req.Raw), "reasoning_content") || strings.Contains(string(req.Raw), llmtest.VLLMReasoning) {
						t.Errorf("request %d sent the reasoning back to the model", i)
					}
				}
			}},
		{"ollama", "qwen3", func(s *llmtest.Server) { s.LikeOllama("qwen3") },
			func(t *testing.T, r *agent.RunResult, srv *llmtest.Server) {
				if r.History[9].Reply.Reasoning == "" {
					t.Errorf("Ollama's reasoning field lost")
				}
			}},
		{"lm studio", "qwen2.5-7b-instruct", func(s *llmtest.Server) { s.LikeLMStudio("qwen2.5-7b-instruct") },
			func(t *testing.T, r *agent.RunResult, srv *llmtest.Server) {
				if n := len(srv.Requests()); n != 10 {
					t.Errorf("%d requests, want 10", n)
				}
			}},
		{"one model listed, no GRUE_MODEL", "", func(s *llmtest.Server) { s.Models("llama-3.2-3b") },
			func(t *testing.T, r *agent.RunResult, srv *llmtest.Server) {
				if got := srv.Requests()[0].Model; got != "llama-3.2-3b" {
					t.Errorf("asked model %q", got)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer()
			defer srv.Close()
			tc.setup(srv)
			srv.Fallback(walker())
			modelEnv(t, srv)
			t.Setenv("GRUE_MODEL", tc.model)
			traj := filepath.Join(t.TempDir(), "t.json")
			out, errs, code := grueAgent(t, "--steps", "10", "--trajectory", traj)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out, errs)
			}
			r := readTrajectory(t, traj)
			if r.Steps != 10 || len(r.History) != 10 || r.Error != "" || r.StoppedBy != agent.StopSteps {
				t.Fatalf("%d steps, stopped by %s, error %q", r.Steps, r.StoppedBy, r.Error)
			}
			if !strings.Contains(out, "Policy: llm (") {
				t.Errorf("not played by the model:\n%s", out)
			}
			tc.check(t, r, srv)
		})
	}
}

// A misspelt model fails before the first episode, naming what the
// server serves; no chat request is made.
func TestAgentMisspeltModel(t *testing.T) {
	srv := llmtest.NewServer().Models("Qwen/Qwen3-8B", "Qwen/Qwen3-32B")
	defer srv.Close()
	modelEnv(t, srv)
	t.Setenv("GRUE_MODEL", "Qwen/Qwen3-8b")
	out, errs, code := grueAgent(t, "--steps", "10")
	if code == 0 || !strings.Contains(errs, `"Qwen/Qwen3-8b"`) || !strings.Contains(errs, "Qwen/Qwen3-32B, Qwen/Qwen3-8B") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d chat requests before the model was found wrong", n)
	}
}

// --reasoning-effort, --extra-body and --drop-param reach the wire.
func TestAgentModelFlags(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Fallback(walker())
	modelEnv(t, srv)
	out, errs, code := grueAgent(t, "--steps", "2", "--reasoning-effort", "low",
		"--extra-body", `{"options":{"num_ctx":32768},"think":false}`, "--drop-param", "seed")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	for _, req := range srv.Requests() {
		if req.ReasoningEffort != "low" || req.Field("options") != `{"num_ctx":32768}` || req.Field("think") != "false" || req.Has("seed") {
			t.Errorf("request: %s", req.Raw)
		}
	}
	for _, bad := range [][]string{{"--extra-body", "[1]"}, {"--extra-body", "null"}, {"--drop-param", "messages"}, {"--reasoning-model", "maybe"}} {
		if _, errs, code := grueAgent(t, append([]string{"--steps", "1"}, bad...)...); code == 0 || !strings.Contains(errs, strings.TrimPrefix(bad[0], "--")) && !strings.Contains(errs, "messages") {
			t.Errorf("%v: exit %d, %s", bad, code, errs)
		}
	}
}
