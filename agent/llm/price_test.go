package llm_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/llmtest"
)

func TestPriceLookup(t *testing.T) {
	p := llm.DefaultPrices()
	u := llm.Usage{PromptTokens: 2_000_000, CompletionTokens: 500_000, TotalTokens: 2_500_000}
	for _, tc := range []struct {
		model string
		want  float64
	}{
		{"gpt-4o", 2*2.50 + 0.5*10},
		{"gpt-4o-mini", 2*0.15 + 0.5*0.60},
		{"gpt-4o-mini-2024-07-18", 2*0.15 + 0.5*0.60}, // the longest prefix, not gpt-4o
		{"gpt-4.1-mini", 2*0.40 + 0.5*1.60},
		{"openai/gpt-4.1", 2*2.00 + 0.5*8.00}, // a provider prefix
		{"o3-mini", 2*1.10 + 0.5*4.40},
		{"Qwen/Qwen2.5-72B-Instruct", 0},
		{"", 0},
	} {
		if got := p.Cost(tc.model, u); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("Cost(%q) = %v, want %v", tc.model, got, tc.want)
		}
	}
	p.Set("Qwen/Qwen2.5-72B-Instruct", llm.Price{InputPerMTok: 0.13, OutputPerMTok: 0.40})
	if got := p.Cost("Qwen/Qwen2.5-72B-Instruct", u); math.Abs(got-(0.26+0.2)) > 1e-9 {
		t.Errorf("Cost after Set = %v", got)
	}
	var none *llm.PriceTable
	if none.Cost("gpt-4o", u) != 0 {
		t.Errorf("a nil table has prices")
	}
}

func TestLoadPrices(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	p, err := llm.LoadPrices(write("ok.json", `{"gpt-4o": {"input_per_mtok": 1, "output_per_mtok": 2}, "local": {"input_per_mtok": 0, "output_per_mtok": 0}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := p.Lookup("gpt-4o"); got != (llm.Price{InputPerMTok: 1, OutputPerMTok: 2}) {
		t.Errorf("the file did not replace gpt-4o: %+v", got)
	}
	if _, ok := p.Lookup("gpt-4o-mini"); !ok {
		t.Errorf("the defaults were lost")
	}
	if _, ok := p.Lookup("local"); !ok {
		t.Errorf("the file's new model is missing")
	}
	for name, text := range map[string]string{
		"typo.json":     `{"m": {"input_per_mtok": 1, "ouptut_per_mtok": 2}}`,
		"negative.json": `{"m": {"input_per_mtok": -1, "output_per_mtok": 2}}`,
		"broken.json":   `{"m": {"input_per_mtok": 1,`,
	} {
		_, err := llm.LoadPrices(write(name, text))
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("LoadPrices(%s) = %v, want an error naming the file", name, err)
		}
	}
	if _, err := llm.LoadPrices(filepath.Join(dir, "absent.json")); err == nil {
		t.Errorf("a missing file loaded")
	}
}

func TestTally(t *testing.T) {
	var tally llm.Tally
	tally.Add(&llm.Reply{Usage: llm.Usage{PromptTokens: 100, CompletionTokens: 10, TotalTokens: 110}, Cost: 0.5, Retries: []llm.Attempt{{}, {}}})
	tally.Add(&llm.Reply{Usage: llm.Usage{PromptTokens: 100, CompletionTokens: 20, TotalTokens: 120}, Cached: true})
	tally.Add(nil)
	tally.AddFailure(&llm.CallError{Attempts: []llm.Attempt{{}, {}, {}}})
	want := llm.Tally{Calls: 2, Usage: llm.Usage{PromptTokens: 200, CompletionTokens: 30, TotalTokens: 230}, Cost: 0.5, Retries: 4, CacheHits: 1, Failures: 1}
	if tally != want {
		t.Errorf("tally = %+v, want %+v", tally, want)
	}
	var total llm.Tally
	total.Merge(tally)
	total.Merge(tally)
	if total.Calls != 4 || total.Usage.TotalTokens != 460 || total.Retries != 8 {
		t.Errorf("merged = %+v", total)
	}
	if s := tally.String(); !strings.Contains(s, "2 calls (1 cached)") || !strings.Contains(s, "230 tokens") || !strings.Contains(s, "$0.5000") {
		t.Errorf("String = %q", s)
	}
}

// A reply without usage costs nothing by itself, streamed or not; the
// client's Price prices the tokens the server did not count, by the
// client's table, and a cache around the client passes its prices on.
func TestPricerPricesUncountedTokens(t *testing.T) {
	srv := llmtest.NewServer()
	defer srv.Close()
	srv.Fallback(func(llmtest.Request) llmtest.Response { return llmtest.Text("You see a lamp.").WithoutUsage() })
	u := llm.Usage{PromptTokens: 2_000_000, CompletionTokens: 500_000, TotalTokens: 2_500_000}
	mini := 2*0.15 + 0.5*0.60
	for _, stream := range []bool{false, true} {
		c := newClient(t, srv, func(cfg *llm.Config) { cfg.Model = "gpt-4o-mini"; cfg.Stream = stream })
		r := complete(t, c, chat("look"))
		if r.Usage != (llm.Usage{}) || r.Cost != 0 || r.Content != "You see a lamp." {
			t.Errorf("stream %v: reply without usage = %+v", stream, r)
		}
		for _, model := range []string{r.Model, "", "gpt-4o-mini-2024-07-18", "a-model-with-no-price"} {
			if got := c.Price(model, u); math.Abs(got-mini) > 1e-9 {
				t.Errorf("Price(%q) = %v, want %v (gpt-4o-mini's)", model, got, mini)
			}
		}
		if got := c.Price("gpt-4o", u); math.Abs(got-(2*2.50+0.5*10)) > 1e-9 {
			t.Errorf("Price(gpt-4o) = %v: not the answering model's price", got)
		}
		var p llm.Pricer = llm.WithCache(c, nil)
		if got := p.Price("", u); math.Abs(got-mini) > 1e-9 {
			t.Errorf("cached client's Price = %v, want %v", got, mini)
		}
	}

	table := llm.NewPriceTable()
	table.Set("local", llm.Price{InputPerMTok: 1, OutputPerMTok: 2})
	own := newClient(t, srv, func(cfg *llm.Config) { cfg.Model = "local"; cfg.Prices = table })
	if got := own.Price("", u); math.Abs(got-3) > 1e-9 {
		t.Errorf("Price by Config.Prices = %v, want 3", got)
	}
	unpriced := newClient(t, srv, nil)
	for name, p := range map[string]llm.Pricer{
		"unpriced model":   unpriced,
		"replay":           llm.ReplayFrom(nil, "gpt-4o-mini", srv.URL()),
		"cache on scripts": llm.WithCache(llm.NewScripted(), nil),
	} {
		if got := p.Price("", u); got != 0 {
			t.Errorf("%s: Price = %v, want 0", name, got)
		}
	}
}

// TestLoadPricesRefusesSpecialFiles: GRUE_PRICES=/dev/zero grew memory
// until the process died; a directory gave a puzzling error.
func TestLoadPricesRefusesSpecialFiles(t *testing.T) {
	for _, path := range []string{"/dev/zero", t.TempDir()} {
		if _, err := os.Stat(path); err != nil {
			continue
		}
		_, err := llm.LoadPrices(path)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("LoadPrices(%s) = %v, want it refused as not a regular file", path, err)
		}
	}
}
