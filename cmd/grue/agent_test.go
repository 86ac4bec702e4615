package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/game/mcp"
	"github.com/grue-lab/grue/game/mcp/mcphttp"
	"github.com/grue-lab/grue/game/stories"
)

// modelEnv points grue's LLM settings at srv and nothing else.
func modelEnv(t *testing.T, srv *llmtest.Server) {
	t.Helper()
	t.Setenv("OPENAI_BASE_URL", srv.URL())
	t.Setenv("GRUE_MODEL", "scripted-model")
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("HF_TOKEN", "")
	t.Setenv("GRUE_PRICES", "")
}

// grueAgent runs "grue agent ARGS..." in process and returns stdout, stderr
// and the exit status.
func grueAgent(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"agent"}, args...), strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// readTrajectory reads a --trajectory file.
func readTrajectory(t *testing.T, path string) *agent.RunResult {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r agent.RunResult
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &r
}

// decisions is what a trajectory decided and saw, step by step: everything
// but timings, cost and where the reply came from (the network or the
// cache), which a replay cannot and should not reproduce.
type decision struct {
	Prompt      any
	Reply       string
	ToolCalls   any
	Usage       any
	Thought     string
	Tool        string
	Args        map[string]any
	Repairs     []agent.Repair
	Observation string
	Score       int
	Moves       int
	Location    string
	Done        bool
	Error       string
}

func decisions(r *agent.RunResult) []decision {
	var ds []decision
	for _, s := range r.History {
		d := decision{
			Prompt: s.Prompt, Thought: s.Thought, Tool: s.Tool, Args: s.Args,
			Repairs: s.Repairs, Observation: s.Observation, Score: s.Score,
			Moves: s.Moves, Location: s.Location, Done: s.Done, Error: s.Error,
		}
		if s.Reply != nil {
			d.Reply, d.ToolCalls, d.Usage = s.Reply.Content, s.Reply.ToolCalls, s.Reply.Usage
		}
		ds = append(ds, d)
	}
	return ds
}

// textReply is a reply in the THOUGHT/TOOL/ARGS text protocol.
func textReply(thought, action string) string {
	args, _ := json.Marshal(map[string]string{"action": action})
	return fmt.Sprintf("THOUGHT: %s\nTOOL: play_action\nARGS: %s", thought, args)
}

// TestAgentRecordReplay plays the default story with a model server that
// answers the walkthrough, recording its replies; then plays it again from
// the cache alone, the server stopped, and requires the same trajectory.
func TestAgentRecordReplay(t *testing.T) {
	srv := llmtest.NewServer()
	modelEnv(t, srv)
	walk := stories.Walkthrough()
	for i, cmd := range walk {
		srv.Reply(textReply(fmt.Sprintf("step %d of the plan", i+1), cmd))
	}
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	first := filepath.Join(dir, "first.json")
	out, errs, code := grueAgent(t, "--policy", "llm", "--cache", cache, "--trajectory", first, "--steps", "200")
	if code != 0 {
		t.Fatalf("recording run: exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "Final score: 60 of 60") || !strings.Contains(out, "Game completed: yes (won)") {
		t.Fatalf("the scripted walkthrough should win the default story:\n%s", out)
	}
	if got := len(srv.Requests()); got != len(walk) {
		t.Errorf("the server got %d requests, want one per step (%d)", got, len(walk))
	}
	srv.Close()

	again := filepath.Join(dir, "again.json")
	out, errs, code = grueAgent(t, "--policy", "llm", "--cache", cache, "--cache-mode", "replay", "--trajectory", again, "--steps", "200")
	if code != 0 {
		t.Fatalf("replay with the server stopped: exit %d\n%s%s", code, out, errs)
	}
	a, b := readTrajectory(t, first), readTrajectory(t, again)
	if len(a.History) != len(walk) {
		t.Fatalf("recorded %d steps, want %d", len(a.History), len(walk))
	}
	da, db := decisions(a), decisions(b)
	if len(da) != len(db) {
		t.Fatalf("replay played %d steps, the recording %d", len(db), len(da))
	}
	for i := range da {
		if !reflect.DeepEqual(da[i], db[i]) {
			ja, _ := json.MarshalIndent(da[i], "", " ")
			jb, _ := json.MarshalIndent(db[i], "", " ")
			t.Fatalf("step %d differs in the replay:\nrecorded %s\nreplayed %s", i+1, ja, jb)
		}
	}
	for i, s := range b.History {
		if s.Reply == nil || !s.Reply.Cached {
			t.Fatalf("replayed step %d did not come from the cache", i+1)
		}
	}
	if a.FinalScore != b.FinalScore || a.Moves != b.Moves || !reflect.DeepEqual(a.Locations, b.Locations) {
		t.Errorf("results differ: recorded %d points in %d moves, replayed %d in %d", a.FinalScore, a.Moves, b.FinalScore, b.Moves)
	}

	// A replay with other settings finds the first step (its prompt has no
	// history yet, so it is the same) and misses the second, naming it.
	out, errs, code = grueAgent(t, "--policy", "llm", "--cache", cache, "--cache-mode", "replay", "--memory", "none", "--steps", "3")
	if code == 0 || !strings.Contains(errs, `"step 2"`) || !strings.Contains(errs, "not recorded") {
		t.Errorf("a replay with another memory should miss the cache at step 2 and say so; exit %d\n%s%s", code, out, errs)
	}
}

// TestAgentFlakyServer plays against a server that answers 429 twice, then
// garbage, then a markdown-wrapped reply, then a hallucinated tool name:
// the episode finishes, and its trajectory shows each retry and repair.
func TestAgentFlakyServer(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	modelEnv(t, srv)
	srv.Status(429, "1", "rate limited").
		Status(429, "1", "rate limited").
		Garbage("<html>502 bad gateway</html>").
		Reply("```\n**THOUGHT:** The door is north.\n**TOOL:** play_action\n**ARGS:** {\"action\": \"north\"}\n```").
		Reply("THOUGHT: I should walk back.\nTOOL: walk_to\nARGS: {\"direction\": \"south\"}").
		Reply(textReply("Look around.", "look"))

	traj := filepath.Join(t.TempDir(), "t.json")
	out, errs, code := grueAgent(t, "--policy", "llm", "--steps", "3", "--trajectory", traj, "-v")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	r := readTrajectory(t, traj)
	if r.Steps != 3 || r.Error != "" {
		t.Fatalf("the episode should play its 3 steps without error: %d steps, error %q", r.Steps, r.Error)
	}
	s1 := r.History[0]
	if s1.Reply == nil || len(s1.Reply.Retries) != 3 {
		t.Fatalf("step 1 should record 3 failed tries (429, 429, garbage), got %+v", s1.Reply)
	}
	if st := s1.Reply.Retries[0].Status; st != 429 {
		t.Errorf("first retry status %d, want 429", st)
	}
	if e := s1.Reply.Retries[2].Error; !strings.Contains(e, "malformed reply") {
		t.Errorf("the garbage body should be recorded as a malformed reply, got %q", e)
	}
	if s1.Tool != "play_action" || s1.Args["action"] != "north" {
		t.Errorf("step 1 played %s %v, want play_action north", s1.Tool, s1.Args)
	}
	if !hasRepair(s1, agent.RepairMarkdown) {
		t.Errorf("step 1 should record the markdown it stripped: %+v", s1.Repairs)
	}
	s2 := r.History[1]
	if s2.Tool != "play_action" || !hasRepair(s2, agent.RepairToolName) {
		t.Errorf("step 2 should repair walk_to into play_action and say so: tool %s, repairs %+v", s2.Tool, s2.Repairs)
	}
	for _, want := range []string{"retry: ", "429", "repair (markdown)", "repair (tool-name)", "walk_to"} {
		if !strings.Contains(out, want) {
			t.Errorf("-v output lacks %q:\n%s", want, out)
		}
	}
}

func hasRepair(s agent.Step, kind string) bool {
	for _, r := range s.Repairs {
		if r.Kind == kind {
			return true
		}
	}
	return false
}

// TestAgentOverHTTP plays on an MCP game server reached by URL: the
// walkthrough wins the default story through streamable HTTP, and the
// game is named by the server, not by a flag.
func TestAgentOverHTTP(t *testing.T) {
	srv, err := mcp.NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(mcphttp.Handler(srv, time.Minute))
	defer hs.Close()
	out, errs, code := grueAgent(t, "--policy", "walkthrough", "--server", hs.URL+"/mcp")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{"Game: lantern (seed 1)", "Final score: 60 of 60", "Game completed: yes (won)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	// A server that is not there is an error naming it.
	hs.Close()
	_, errs, code = grueAgent(t, "--policy", "random", "--server", hs.URL+"/mcp")
	if code == 0 || !strings.Contains(errs, hs.URL) {
		t.Errorf("a dead server: exit %d, stderr %q", code, errs)
	}
}

// TestAgentGameDevZero: grue agent --game /dev/zero is refused at once,
// saying what the file is, instead of reading without end.
func TestAgentGameDevZero(t *testing.T) {
	done := make(chan struct{})
	var out, errs string
	var code int
	go func() {
		out, errs, code = grueAgent(t, "--game", "/dev/zero", "--policy", "random", "--steps", "1")
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("grue agent --game /dev/zero still running after 10s")
	}
	if code == 0 || !strings.Contains(errs, "/dev/zero: a device, not a regular file") {
		t.Errorf("exit %d: %s%s", code, out, errs)
	}
}

// TestAgentEndpointWithoutModel: with an endpoint configured and no model
// named, and a server whose /models answers an HTML 404 page, grue agent
// fails before it plays, saying what to set and what the server said in
// one short line, not the page; it plays no baseline in the model's place.
func TestAgentEndpointWithoutModel(t *testing.T) {
	var chats int
	page := "<!DOCTYPE html>\n<html><head><title>404 Not Found</title><style>body{font:12px}</style></head>\n<body><h1>Not Found</h1><p>The requested URL was not found on this server." + strings.Repeat(" <span>padding</span>", 60) + "</p></body></html>\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/chat/completions") {
			chats++
		}
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, page)
	}))
	defer srv.Close()
	t.Setenv("OPENAI_BASE_URL", srv.URL+"/v1")
	t.Setenv("OPENAI_API_KEY", "sk-test-key-1234")
	t.Setenv("GRUE_MODEL", "")
	t.Setenv("HF_TOKEN", "")
	t.Setenv("GRUE_PRICES", "")

	for _, args := range [][]string{{"--steps", "3"}, {"--steps", "3", "--json"}, {"--game", "lantern", "-v", "--steps", "3"}} {
		out, errs, code := grueAgent(t, args...)
		if code == 0 {
			t.Errorf("%q: exit 0, want a failure\nstdout:\n%s\nstderr:\n%s", args, out, errs)
		}
		if strings.Contains(out, "explorer") || strings.Contains(errs, "explorer") || strings.Contains(out, "Final score") {
			t.Errorf("%q: a baseline played in the model's place\nstdout:\n%s\nstderr:\n%s", args, out, errs)
		}
		msg := strings.TrimSpace(errs)
		for _, want := range []string{"--model", "GRUE_MODEL", "404 Not Found", "did not list its models"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%q: stderr %q does not say %q", args, msg, want)
			}
		}
		if strings.Contains(msg, "<") || strings.Contains(msg, "padding") || strings.Contains(msg, "\n") || len(msg) > 400 {
			t.Errorf("%q: stderr is not one short readable line (%d characters):\n%s", args, len(msg), msg)
		}
		if strings.Contains(msg, "sk-test-key-1234") {
			t.Errorf("%q: stderr shows the API key: %s", args, msg)
		}
	}
	if chats != 0 {
		t.Errorf("the server got %d chat requests, want none: the episode must not start", chats)
	}

	// A model named plays no baseline either when the endpoint is gone.
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("GRUE_MODEL", "some-model")
	out, errs, code := grueAgent(t, "--steps", "2")
	if code == 0 || !strings.Contains(errs, "no endpoint") || strings.Contains(out, "explorer") {
		t.Errorf("GRUE_MODEL without an endpoint: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}

	// With nothing configured the explorer plays, and the JSON says so.
	t.Setenv("GRUE_MODEL", "")
	out, errs, code = grueAgent(t, "--steps", "2", "--json")
	if code != 0 || !strings.Contains(out, `"policy": "explorer"`) || !strings.Contains(out, `"baseline": true`) {
		t.Errorf("no model configured: exit %d, want the explorer named in the JSON, as a baseline\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

// TestAgentSaysWhatRan: grue agent's --json and --trajectory name the
// model, its endpoint with its key masked, grue's version and revision,
// the seed and the price source; a model with no known price costs
// "unknown" (null in JSON), not $0.0000, and one in the price table its
// price.
func TestAgentSaysWhatRan(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Fallback(func(llmtest.Request) llmtest.Response {
		return llmtest.Call("play_action", `{"action":"north"}`).WithUsage(100, 10)
	})
	for _, k := range []string{"OPENAI_API_KEY", "HF_TOKEN", "GRUE_PRICES", "OPENAI_BASE_URL", "GRUE_MODEL"} {
		t.Setenv(k, "")
	}
	t.Setenv("OPENAI_API_KEY", "sk-header-secret")
	url := srv.URL() + "?api_key=sk-inurlsecret"
	traj := filepath.Join(t.TempDir(), "t.json")
	out, errs, code := grueAgent(t, "--base-url", url, "--model", "no-price-model", "--protocol", "native", "--seed", "4", "--steps", "2", "--json", "--trajectory", traj)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	b, err := os.ReadFile(traj)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"--json": out, "--trajectory": string(b)} {
		var got map[string]any
		if err := json.Unmarshal([]byte(text), &got); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, text)
		}
		want := map[string]any{"model": "no-price-model", "base_url": srv.URL() + "?api_key=[redacted]", "price_source": "unknown", "cost": nil, "seed": 4.0, "baseline": false}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %s = %#v, want %#v", name, k, got[k], v)
			}
		}
		if got["grue_version"] == nil || got["grue_version"] == "" || got["grue_revision"] == nil || got["grue_revision"] == "" {
			t.Errorf("%s: grue_version %v, grue_revision %v", name, got["grue_version"], got["grue_revision"])
		}
		if strings.Contains(text, "sk-inurlsecret") || strings.Contains(text, "sk-header-secret") {
			t.Errorf("%s shows a key", name)
		}
	}
	out, errs, code = grueAgent(t, "--base-url", srv.URL(), "--model", "no-price-model", "--protocol", "native", "--steps", "2")
	if code != 0 || !strings.Contains(out, "Cost: unknown") || strings.Contains(out, "$0.0000") {
		t.Errorf("a model with no known price: exit %d, want Cost: unknown\n%s\n%s", code, out, errs)
	}
	out, errs, code = grueAgent(t, "--base-url", srv.URL(), "--model", "gpt-4o-mini", "--protocol", "native", "--steps", "2", "--json")
	if code != 0 || !strings.Contains(out, `"price_source": "price table"`) || strings.Contains(out, `"cost": null`) {
		t.Errorf("a model in the price table: exit %d\n%s\n%s", code, out, errs)
	}
}
