package llm_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent/llm"
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
