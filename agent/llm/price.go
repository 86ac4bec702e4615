package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/grue-lab/grue/internal/boundedfile"
)

// MaxPriceFileBytes is the largest price file (GRUE_PRICES) Load reads.
const MaxPriceFileBytes = 1 << 20

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	InputPerMTok  float64 `json:"input_per_mtok"`
	OutputPerMTok float64 `json:"output_per_mtok"`
}

// Pricer is implemented by clients that can price tokens their server
// did not count. Price returns what usage u of model costs in US dollars,
// by the prices that give the client's replies their Cost, or 0 when it
// has none for model. model is the model that answered (Reply.Model); ""
// means the client's own. The agent prices with it its estimate of a
// reply that came without usage (see agent.Step.EstimatedTokens). OpenAI
// is a Pricer; Cached passes on its inner client's prices.
type Pricer interface {
	Price(model string, u Usage) float64
}

// PriceKnower is implemented by clients that can say whether they have a
// price for model (or else for their own model): when they have none, a
// Cost of 0 is unknown, not free. OpenAI is a PriceKnower; so is Cached,
// by its inner client.
type PriceKnower interface {
	PriceKnown(model string) bool
}

// PriceTable maps model names to prices. A model is looked up by its exact
// name, then by the longest name in the table that it starts with (so
// "gpt-4o-mini-2024-07-18" costs what "gpt-4o-mini" costs), and then the
// same way without a provider prefix ("openai/gpt-4o" costs what "gpt-4o"
// costs). It is safe for concurrent use.
type PriceTable struct {
	mu     sync.RWMutex
	prices map[string]Price
}

// NewPriceTable returns an empty table.
func NewPriceTable() *PriceTable { return &PriceTable{prices: map[string]Price{}} }

// DefaultPrices returns a table of current public models' list prices.
// Prices were taken from the providers' public pricing pages in August
// 2025 (standard tier, uncached input); they change, so a user overrides
// or extends them with LoadPrices or Set.
func DefaultPrices() *PriceTable {
	t := NewPriceTable()
	for model, p := range map[string]Price{
		"gpt-4o":        {2.50, 10.00},
		"gpt-4o-mini":   {0.15, 0.60},
		"gpt-4.1":       {2.00, 8.00},
		"gpt-4.1-mini":  {0.40, 1.60},
		"gpt-4.1-nano":  {0.10, 0.40},
		"gpt-5":         {1.25, 10.00},
		"gpt-5-mini":    {0.25, 2.00},
		"gpt-5-nano":    {0.05, 0.40},
		"o3":            {2.00, 8.00},
		"o3-mini":       {1.10, 4.40},
		"o4-mini":       {1.10, 4.40},
		"gpt-3.5-turbo": {0.50, 1.50},
	} {
		t.prices[model] = p
	}
	return t
}

// LoadPrices returns DefaultPrices with the prices in the JSON file at
// path added or replaced (see Load).
func LoadPrices(path string) (*PriceTable, error) {
	t := DefaultPrices()
	if err := t.Load(path); err != nil {
		return nil, err
	}
	return t, nil
}

// Load adds or replaces the prices in the JSON file at path, an object
// from model name to price:
//
//	{"my-model": {"input_per_mtok": 0.2, "output_per_mtok": 0.8}}
//
// An unknown field or a negative price is an error naming the file and the
// model; nothing is changed then.
func (t *PriceTable) Load(path string) error {
	b, err := boundedfile.ReadFile(path, MaxPriceFileBytes)
	if err != nil {
		return fmt.Errorf("load prices: %w", err)
	}
	var m map[string]Price
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return fmt.Errorf("load prices %s: %w", path, err)
	}
	for model, p := range m {
		if err := p.check(); err != nil {
			return fmt.Errorf("load prices %s: model %q: %w", path, model, err)
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.prices == nil {
		t.prices = map[string]Price{}
	}
	for model, p := range m {
		t.prices[model] = p
	}
	return nil
}

// check reports a price that cannot be right.
func (p Price) check() error {
	for _, v := range []float64{p.InputPerMTok, p.OutputPerMTok} {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("price %v is not a non-negative number", v)
		}
	}
	return nil
}

// Set sets the price of model.
func (t *PriceTable) Set(model string, p Price) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.prices == nil {
		t.prices = map[string]Price{}
	}
	t.prices[model] = p
}

// Lookup returns the price of model and whether the table has one.
func (t *PriceTable) Lookup(model string) (Price, bool) {
	if t == nil || model == "" {
		return Price{}, false
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	if p, ok := t.lookup(model); ok {
		return p, true
	}
	if i := strings.LastIndex(model, "/"); i >= 0 {
		return t.lookup(model[i+1:])
	}
	return Price{}, false
}

// lookup finds model by exact name, then by longest prefix.
func (t *PriceTable) lookup(model string) (Price, bool) {
	if p, ok := t.prices[model]; ok {
		return p, true
	}
	best, found := "", false
	for name := range t.prices {
		if strings.HasPrefix(model, name) && len(name) > len(best) {
			best, found = name, true
		}
	}
	return t.prices[best], found
}

// Cost returns what usage u of model costs in US dollars, or 0 when the
// table has no price for model.
func (t *PriceTable) Cost(model string, u Usage) float64 {
	p, ok := t.Lookup(model)
	if !ok {
		return 0
	}
	return (float64(u.PromptTokens)*p.InputPerMTok + float64(u.CompletionTokens)*p.OutputPerMTok) / 1e6
}

// Models returns the names in the table, sorted.
func (t *PriceTable) Models() []string {
	if t == nil {
		return nil
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	out := make([]string, 0, len(t.prices))
	for name := range t.prices {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}
