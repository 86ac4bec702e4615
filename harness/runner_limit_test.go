package harness

import (
	"testing"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/openai"
)

// TestLimitedClientPrices: a client behind an experiment's rate limit
// still prices tokens as its inner client does, so that an agent can
// price its estimate for a server that reports no usage.
func TestLimitedClientPrices(t *testing.T) {
	prices := llm.NewPriceTable()
	prices.Set("m", llm.Price{InputPerMTok: 1, OutputPerMTok: 2})
	inner, err := openai.New(llm.Config{Model: "m", BaseURL: "http://127.0.0.1:9/v1", Prices: prices})
	if err != nil {
		t.Fatal(err)
	}
	c := newLimiters(5).wrap(inner, "http://127.0.0.1:9/v1")
	p, ok := c.(llm.Pricer)
	if !ok {
		t.Fatal("the rate-limited client is not an llm.Pricer")
	}
	u := llm.Usage{PromptTokens: 1_000_000, CompletionTokens: 500_000, TotalTokens: 1_500_000}
	if got := p.Price("m", u); got != 2 {
		t.Errorf("Price = %v, want $2 (1M in at $1, 0.5M out at $2)", got)
	}
	script := newLimiters(5).wrap(llm.NewScripted(), "")
	if got := script.(llm.Pricer).Price("m", u); got != 0 {
		t.Errorf("a client without prices behind the limit: Price = %v, want 0", got)
	}
}
