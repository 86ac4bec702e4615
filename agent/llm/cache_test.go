package llm_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/llmtest"
)

func newCache(t *testing.T, dir string, mode llm.CacheMode) *llm.Cache {
	t.Helper()
	c, err := llm.NewCache(dir, mode)
	if err != nil {
		t.Fatalf("NewCache(%s): %v", mode, err)
	}
	return c
}

// entries returns the cache files under dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	return files
}

func TestCacheRecordThenReplayWithServerGone(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.NewServer()
	srv.Status(429, "1", "busy").
		Push(llmtest.Response{Content: "I'll go north. <&>", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "play_action", Arguments: `{"action":"north"}`}}}.WithUsage(120, 30)).
		Reply("second")
	c := newClient(t, srv, func(cfg *llm.Config) { cfg.Model = "gpt-4o-mini" })
	rec := llm.WithCache(c, newCache(t, dir, llm.CacheReadWrite))
	recorded := []*llm.Reply{complete(t, rec, chat("first")), complete(t, rec, chat("second"))}
	if recorded[0].Cached || recorded[0].Cost == 0 || len(recorded[0].Retries) != 1 {
		t.Fatalf("recorded reply = %+v", recorded[0])
	}
	// The same request again is answered from the cache, not the server.
	again := complete(t, rec, chat("first"))
	if !again.Cached || len(srv.Requests()) != 3 {
		t.Errorf("repeat: cached %v after %d requests", again.Cached, len(srv.Requests()))
	}
	srv.Close()

	// Replay with the server gone: through a client of the dead server, and
	// with no client at all.
	dead := newClient(t, srv, func(cfg *llm.Config) { cfg.Model = "gpt-4o-mini"; cfg.MaxRetries = -1 })
	for name, replay := range map[string]*llm.Cached{
		"client":  llm.WithCache(dead, newCache(t, dir, llm.CacheReplayOnly)),
		"offline": llm.ReplayFrom(newCache(t, dir, llm.CacheReplayOnly), "gpt-4o-mini", srv.URL()),
	} {
		for i, text := range []string{"first", "second"} {
			got := complete(t, replay, chat(text))
			want := *recorded[i]
			want.Cached, want.Cost, want.Retries = true, 0, nil
			// The cache keeps the latency in milliseconds to the
			// microsecond, as every duration in grue's JSON.
			want.Latency = want.Latency.Round(time.Microsecond)
			if !reflect.DeepEqual(got, &want) {
				t.Errorf("%s replay %d:\n got %+v\nwant %+v", name, i, got, &want)
			}
		}
		if s := replay.Cache().Stats(); s.Hits != 2 || s.Misses != 0 {
			t.Errorf("%s stats = %+v", name, s)
		}
	}
	for _, f := range entries(t, dir) {
		b, _ := os.ReadFile(f)
		if strings.Contains(string(b), testKey) {
			t.Errorf("cache entry %s holds the API key", f)
		}
	}
}

func TestReplayOnlyMissNamesTheCall(t *testing.T) {
	dir := t.TempDir()
	s := llm.NewScripted()
	replay := llm.WithCache(s, newCache(t, dir, llm.CacheReplayOnly))
	req := chat("look")
	req.Label = "episode 2, step 17"
	req.Model = "qwen-72b"
	_, err := replay.Complete(context.Background(), req)
	if !errors.Is(err, llm.ErrCacheMiss) || !strings.Contains(err.Error(), "episode 2, step 17") || !strings.Contains(err.Error(), "qwen-72b") {
		t.Errorf("miss error = %v", err)
	}
	if len(s.Requests()) != 0 {
		t.Errorf("replay-only called the model")
	}
	if _, err := llm.NewCache(filepath.Join(dir, "absent"), llm.CacheReplayOnly); err == nil {
		t.Errorf("replay from a folder that does not exist gave no error")
	}
}

func TestCorruptEntriesIgnored(t *testing.T) {
	corruptions := map[string]func(b []byte) []byte{
		"truncated": func(b []byte) []byte { return b[:len(b)/2] },
		"empty":     func([]byte) []byte { return nil },
		"not json":  func([]byte) []byte { return []byte("<html>oops</html>") },
		"edited": func(b []byte) []byte {
			return []byte(strings.Replace(string(b), "the real answer", "a forged answer", 1))
		},
		"other key": func(b []byte) []byte { return []byte(strings.Replace(string(b), `"key":"`, `"key":"0`, 1)) },
		"old format": func(b []byte) []byte {
			return []byte(strings.Replace(string(b), "grue-llm-cache/1", "grue-llm-cache/0", 1))
		},
	}
	for name, corrupt := range corruptions {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			rec := llm.WithCache(llm.NewScripted().Text("the real answer"), newCache(t, dir, llm.CacheWrite))
			complete(t, rec, chat("look"))
			files := entries(t, dir)
			if len(files) != 1 {
				t.Fatalf("%d cache files, want 1", len(files))
			}
			b, _ := os.ReadFile(files[0])
			if err := os.WriteFile(files[0], corrupt(b), 0o644); err != nil {
				t.Fatal(err)
			}

			var warned []string
			cache := newCache(t, dir, llm.CacheReplayOnly)
			cache.Warn = func(msg string) { warned = append(warned, msg) }
			r, err := llm.WithCache(nil, cache).Complete(context.Background(), chat("look"))
			if r != nil || !errors.Is(err, llm.ErrCacheMiss) {
				t.Fatalf("replay of a corrupt entry = %+v, %v", r, err)
			}
			if s := cache.Stats(); s.Corrupt != 1 || s.Hits != 0 || len(warned) != 1 {
				t.Errorf("stats %+v, warnings %q", s, warned)
			}

			// Read-write calls the model again and repairs the entry.
			s := llm.NewScripted().Text("fresh")
			rw := llm.WithCache(s, newCache(t, dir, llm.CacheReadWrite))
			if r := complete(t, rw, chat("look")); r.Content != "fresh" || r.Cached {
				t.Errorf("read-write over a corrupt entry = %+v", r)
			}
			if r := complete(t, rw, chat("look")); r.Content != "fresh" || !r.Cached {
				t.Errorf("the repaired entry = %+v", r)
			}
		})
	}
}

func TestCacheModes(t *testing.T) {
	dir := t.TempDir()
	s := llm.NewScripted()
	s.Fallback = func(req llm.Request) (*llm.Reply, error) {
		return &llm.Reply{Content: "live " + req.Messages[1].Content}, nil
	}
	ask := func(mode llm.CacheMode, text string) *llm.Reply {
		return complete(t, llm.WithCache(s, newCache(t, dir, mode)), chat(text))
	}
	if r := ask(llm.CacheRead, "a"); r.Cached || len(entries(t, dir)) != 0 {
		t.Errorf("read mode wrote an entry or hit: %+v", r)
	}
	ask(llm.CacheWrite, "a")
	if r := ask(llm.CacheRead, "a"); !r.Cached {
		t.Errorf("read mode missed a written entry")
	}
	calls := len(s.Requests())
	if r := ask(llm.CacheWrite, "a"); r.Cached || len(s.Requests()) != calls+1 {
		t.Errorf("write mode answered from the cache")
	}
	if r := ask(llm.CacheOff, "a"); r.Cached {
		t.Errorf("off mode answered from the cache")
	}

	for in, want := range map[string]llm.CacheMode{"off": llm.CacheOff, "read": llm.CacheRead, "write": llm.CacheWrite,
		"read-write": llm.CacheReadWrite, "rw": llm.CacheReadWrite, "replay": llm.CacheReplayOnly, "REPLAY-ONLY": llm.CacheReplayOnly} {
		if got, err := llm.ParseCacheMode(in); err != nil || got != want {
			t.Errorf("ParseCacheMode(%q) = %v, %v", in, got, err)
		}
		if got, _ := llm.ParseCacheMode(want.String()); got != want {
			t.Errorf("%v does not round-trip through String", want)
		}
	}
	if _, err := llm.ParseCacheMode("replya"); err == nil || !strings.Contains(err.Error(), "replya") {
		t.Errorf("ParseCacheMode(typo) = %v", err)
	}
}

func TestCacheKeyDecidingFields(t *testing.T) {
	zero, half, seed, seed2 := 0.0, 0.5, 1, 2
	base := llm.Request{
		Model:    "m",
		Messages: []llm.Message{{Role: llm.System, Content: "sys"}, {Role: llm.User, Content: "look"}},
		Tools:    []llm.ToolSpec{{Name: "play_action", Parameters: map[string]any{"type": "object"}}},
		Label:    "step 1",
	}
	key := llm.CacheKey(base)
	same := base
	same.Label = "another label"
	if llm.CacheKey(same) != key {
		t.Errorf("the label changed the key")
	}
	changes := map[string]func(r *llm.Request){
		"model":   func(r *llm.Request) { r.Model = "m2" },
		"message": func(r *llm.Request) { r.Messages = []llm.Message{r.Messages[0], {Role: llm.User, Content: "look "}} },
		"role":    func(r *llm.Request) { r.Messages = []llm.Message{{Role: llm.User, Content: "sys"}, r.Messages[1]} },
		"tool call": func(r *llm.Request) {
			r.Messages = append(r.Messages, llm.Message{Role: llm.Assistant, ToolCalls: []llm.ToolCall{{Name: "x"}}})
		},
		"tools": func(r *llm.Request) { r.Tools = nil },
		"tool schema": func(r *llm.Request) {
			r.Tools = []llm.ToolSpec{{Name: "play_action", Parameters: map[string]any{"type": "array"}}}
		},
		"tool choice":  func(r *llm.Request) { r.ToolChoice = "required" },
		"temperature0": func(r *llm.Request) { r.Temperature = &zero },
		"temperature":  func(r *llm.Request) { r.Temperature = &half },
		"seed":         func(r *llm.Request) { r.Seed = &seed },
		"max tokens":   func(r *llm.Request) { r.MaxTokens = 10 },
		"json":         func(r *llm.Request) { r.JSON = true },
		"effort":       func(r *llm.Request) { r.ReasoningEffort = "low" },
		"extra":        func(r *llm.Request) { r.Extra = map[string]any{"think": false} },
		"extra value":  func(r *llm.Request) { r.Extra = map[string]any{"think": true} },
	}
	seen := map[string]string{key: "base"}
	for name, change := range changes {
		r := base
		change(&r)
		k := llm.CacheKey(r)
		if other, dup := seen[k]; dup {
			t.Errorf("changing %s gives the key of %s", name, other)
		}
		seen[k] = name
	}
	s2 := base
	s2.Seed = &seed2
	if _, dup := seen[llm.CacheKey(s2)]; dup {
		t.Errorf("seed 1 and seed 2 share a key")
	}
}

func TestCachedKeysOnClientDefaults(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	t1, t2 := 0.2, 0.9
	a := newClient(t, srv, func(cfg *llm.Config) { cfg.Temperature = &t1 })
	b := newClient(t, srv, func(cfg *llm.Config) { cfg.Temperature = &t2 })
	c := newClient(t, srv, func(cfg *llm.Config) { cfg.Model = "other" })
	cache := newCache(t, t.TempDir(), llm.CacheReadWrite)
	req := chat("look")
	ka, kb, kc := llm.WithCache(a, cache).Key(req), llm.WithCache(b, cache).Key(req), llm.WithCache(c, cache).Key(req)
	if ka == kb || ka == kc {
		t.Errorf("clients with different default temperature or model share keys")
	}
	explicit := req
	explicit.Temperature = &t1
	explicit.Model = "test-model"
	if llm.WithCache(b, cache).Key(explicit) != ka {
		t.Errorf("a request giving the temperature and model explicitly keys differently from the client defaults")
	}
}

func TestCacheConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	cache := newCache(t, dir, llm.CacheWrite)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			s := llm.NewScripted().Text(strings.Repeat("answer ", 1000))
			c := llm.WithCache(s, cache)
			for range 5 {
				s.Text(strings.Repeat("answer ", 1000))
			}
			for range 5 {
				if _, err := c.Complete(context.Background(), chat("same")); err != nil {
					t.Errorf("writer %d: %v", i, err)
				}
			}
		})
	}
	readers := newCache(t, dir, llm.CacheRead)
	wg.Go(func() {
		for range 200 {
			readers.Get(llm.CacheKey(llm.Request{Messages: chat("same").Messages}))
		}
	})
	wg.Wait()
	if s := readers.Stats(); s.Corrupt != 0 {
		t.Errorf("a reader saw a half-written entry: %+v", s)
	}
	if files := entries(t, dir); len(files) != 1 {
		t.Errorf("%d entries, want 1", len(files))
	}
	tmp, _ := filepath.Glob(filepath.Join(dir, "*", ".tmp-*"))
	if len(tmp) != 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
	r, ok, err := cache.Get(llm.CacheKey(llm.Request{Messages: chat("same").Messages}))
	if !ok || err != nil || !strings.HasPrefix(r.Content, "answer answer") {
		t.Errorf("the entry after concurrent writes: %v %v %v", r, ok, err)
	}
}

func BenchmarkCacheHit(b *testing.B) {
	dir := b.TempDir()
	cache, _ := llm.NewCache(dir, llm.CacheReadWrite)
	req := chat(strings.Repeat("You are in a maze of twisty little passages, all alike. ", 40))
	for range 20 {
		req.Messages = append(req.Messages, llm.Message{Role: llm.Assistant, Content: "THOUGHT: try north\nTOOL: play_action\nARGS: {\"action\": \"north\"}"},
			llm.Message{Role: llm.User, Content: "You are in a maze of twisty little passages, all alike."})
	}
	c := llm.WithCache(llm.NewScripted().Text(strings.Repeat("a fairly long reply ", 50)), cache)
	if _, err := c.Complete(context.Background(), req); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		r, err := c.Complete(context.Background(), req)
		if err != nil || !r.Cached {
			b.Fatalf("not a hit: %v", err)
		}
	}
}

// A run recorded through the cache replays with another endpoint, or with
// none: the key does not depend on the base URL.
func TestReplayWithAnotherOrNoEndpoint(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.NewServer()
	srv.Reply("north")
	c := newClient(t, srv, func(cfg *llm.Config) { cfg.Model = "gpt-4o-mini" })
	recorded := complete(t, llm.WithCache(c, newCache(t, dir, llm.CacheReadWrite)), chat("look"))
	srv.Close()

	other := llmtest.NewServer() // another endpoint, never called
	defer other.Close()
	elsewhere := newClient(t, other, func(cfg *llm.Config) { cfg.Model = "gpt-4o-mini" })
	for name, replay := range map[string]*llm.Cached{
		"another endpoint": llm.WithCache(elsewhere, newCache(t, dir, llm.CacheReplayOnly)),
		"no endpoint":      llm.ReplayFrom(newCache(t, dir, llm.CacheReplayOnly), "gpt-4o-mini", ""),
		"other, offline":   llm.ReplayFrom(newCache(t, dir, llm.CacheReplayOnly), "gpt-4o-mini", "http://10.1.2.3:9/v1"),
	} {
		got, err := replay.Complete(context.Background(), chat("look"))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got.Content != recorded.Content || !got.Cached {
			t.Errorf("%s: replayed %+v, want the recorded %q", name, got, recorded.Content)
		}
	}
	if n := len(other.Requests()); n != 0 {
		t.Errorf("the replay sent %d requests to the other endpoint", n)
	}
}

// An entry written before the endpoint left the key (its key hashed the
// base URL too) still replays, given the base URL it was recorded with.
func TestCacheReadsEntriesKeyedByEndpoint(t *testing.T) {
	dir := t.TempDir()
	temp, seed := 0.3, 7
	req := llm.Request{Model: "gpt-4o-mini", Messages: []llm.Message{{Role: llm.System, Content: "sys"}, {Role: llm.User, Content: "look"}},
		Tools: []llm.ToolSpec{{Name: "play_action", Parameters: map[string]any{"type": "object"}}}, Temperature: &temp, Seed: &seed}
	// The key the cache of grue before this change gave req at this URL.
	const old = "a4e3f8dded61c02426473b4eadb8e5a1587a03c67517c2cbac5f943e3646db0f"
	w := newCache(t, dir, llm.CacheReadWrite)
	if err := w.Put(old, req, "http://127.0.0.1:8080/v1", &llm.Reply{Content: "recorded long ago"}); err != nil {
		t.Fatal(err)
	}
	r := llm.ReplayFrom(newCache(t, dir, llm.CacheReplayOnly), "gpt-4o-mini", "http://127.0.0.1:8080/v1")
	got, err := r.Complete(context.Background(), req)
	if err != nil || got.Content != "recorded long ago" {
		t.Fatalf("old entry: %+v, %v", got, err)
	}
	if s := r.Cache().Stats(); s.Hits != 1 || s.Misses != 0 {
		t.Errorf("stats %+v, want one hit and no miss", s)
	}
}
