package llm

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Endpoints and models that ConfigFromEnv picks when the environment names
// a key but no endpoint or model.
const (
	OpenAIBaseURL   = "https://api.openai.com/v1"
	HFRouterBaseURL = "https://router.huggingface.co/v1"
	// DefaultOpenAIModel is the model used with OPENAI_API_KEY alone.
	DefaultOpenAIModel = "gpt-4o-mini"
	// DefaultHFModel is the model used with HF_TOKEN alone.
	DefaultHFModel = "Qwen/Qwen2.5-72B-Instruct"
)

// The defaults of Config's zero fields.
const (
	DefaultTimeout       = 60 * time.Second
	DefaultMaxRetries    = 5
	DefaultMinBackoff    = 500 * time.Millisecond
	DefaultMaxBackoff    = 30 * time.Second
	DefaultMaxRetryAfter = 60 * time.Second
	// DefaultReasoningTokens is the allowance for reasoning added to the
	// max tokens of a request to a model that reasons.
	DefaultReasoningTokens = 8192
	// DefaultMaxReplyBytes caps the body of a model's reply, streamed
	// or not, so that a hostile or broken server cannot fill the
	// memory (Config.MaxReplyBytes).
	DefaultMaxReplyBytes = 32 << 20
)

// Config configures a model client (the OpenAI-compatible client of
// package [github.com/grue-lab/grue/agent/llm/openai] reads every field).
// Zero fields take the defaults above; the model, base URL and API key
// usually come from ConfigFromEnv and the command line's flags.
//
// The API key never leaves the client: Config's String and GoString hide
// it, it is not marshalled to JSON, and the client's errors never contain
// it.
type Config struct {
	Model   string `json:"model"`
	BaseURL string `json:"base_url"`
	APIKey  string `json:"-"`
	// KeyEnv names the environment variable APIKey was read from
	// (OPENAI_API_KEY, HF_TOKEN...), "" when none was: what a record may
	// say about the key.
	KeyEnv string `json:"key_env,omitempty"`

	// Timeout bounds each try (a streamed reply included), not the whole
	// call with its retries.
	Timeout time.Duration `json:"timeout,omitempty"`
	// MaxReplyBytes caps the bytes read of one reply's body (a stream's
	// events, an error's body): the client stops reading beyond it and
	// fails the try with an error that says so, not retried. 0 means
	// DefaultMaxReplyBytes (or GRUE_MAX_REPLY_BYTES, see ConfigFromEnv);
	// a negative value is an error.
	MaxReplyBytes int64 `json:"max_reply_bytes,omitempty"`
	// MaxRetries is how many times a failed try is retried: 0 means
	// DefaultMaxRetries, a negative number none.
	MaxRetries int `json:"max_retries,omitempty"`
	// MinBackoff and MaxBackoff bound the exponential backoff: the n-th
	// retry waits a random time (full jitter) up to
	// min(MaxBackoff, MinBackoff * 2^(n-1)), unless the server said how
	// long to wait with Retry-After, which is honoured up to MaxRetryAfter.
	MinBackoff    time.Duration `json:"min_backoff,omitempty"`
	MaxBackoff    time.Duration `json:"max_backoff,omitempty"`
	MaxRetryAfter time.Duration `json:"max_retry_after,omitempty"`

	// Temperature, Seed and MaxTokens are used when a Request leaves them
	// unset.
	Temperature *float64 `json:"temperature,omitempty"`
	Seed        *int     `json:"seed,omitempty"`
	MaxTokens   int      `json:"max_tokens,omitempty"`

	// ReasoningEffort and ExtraBody are used when a Request leaves them
	// unset (see Request.ReasoningEffort and Request.Extra; a Request's
	// Extra keys go on top of ExtraBody's).
	ReasoningEffort string         `json:"reasoning_effort,omitempty"`
	ExtraBody       map[string]any `json:"extra_body,omitempty"`
	// DropParams names request parameters never sent to this endpoint
	// (see DroppableParams): what the client would otherwise learn from
	// the endpoint's first 400, given up front.
	DropParams []string `json:"drop_params,omitempty"`
	// ReasoningModel overrides the guess from the model's name (o1, o3,
	// o4, gpt-5 reason): true treats the model as a reasoning model from
	// the first request (max_completion_tokens with the reasoning
	// allowance, no temperature), false as a plain one; nil guesses.
	// What the endpoint refuses is learned either way.
	ReasoningModel *bool `json:"reasoning_model,omitempty"`
	// ReasoningTokens is the allowance added to a request's max tokens
	// for a model that reasons (known by name, by a reasoning_effort, by
	// a refused max_tokens, or by reasoning in a reply), so that its
	// reasoning does not eat the whole budget of the answer: 0 means
	// DefaultReasoningTokens, a negative number none.
	ReasoningTokens int `json:"reasoning_tokens,omitempty"`
	// APIVersion is the api-version of a classic Azure OpenAI endpoint
	// (https://NAME.openai.azure.com with a deployment): set, or read
	// from a base URL such as
	// https://NAME.openai.azure.com/openai/deployments/DEPLOYMENT?api-version=2024-10-21,
	// it makes the client speak Azure's URLs and api-key header, with
	// the deployment as the model.
	APIVersion string `json:"api_version,omitempty"`

	// Stream asks for server-sent events and accumulates them: the Reply
	// is the same as without streaming.
	Stream bool `json:"stream,omitempty"`

	// Prices gives each reply's Cost; nil means DefaultPrices.
	Prices *PriceTable `json:"-"`
	// Sleep waits d between tries, returning early with ctx's error when
	// ctx is done; nil means a timer. Tests set it to record the waits
	// and skip them.
	Sleep func(ctx context.Context, d time.Duration) error `json:"-"`
	// Jitter returns a random duration in [0, limit]; nil means a uniform
	// draw from math/rand/v2. Tests set it to make waits deterministic.
	Jitter func(limit time.Duration) time.Duration `json:"-"`

	// pricesErr is ConfigFromEnv's failure to load GRUE_PRICES, reported
	// by the client made with the config (PricesErr).
	pricesErr error
	// envErr is ConfigFromEnv's failure to read another variable
	// (GRUE_MAX_REPLY_BYTES), reported with pricesErr (EnvErr).
	envErr error
}

// PricesErr returns ConfigFromEnv's failure to load the price file
// GRUE_PRICES names, nil when it loaded or none was named: a client made
// with c (openai.New) reports it rather than price with the wrong table.
func (c Config) PricesErr() error { return c.pricesErr }

// EnvErr returns ConfigFromEnv's failures to read the environment: the
// price file (PricesErr) and a GRUE_MAX_REPLY_BYTES that is not a
// positive number of bytes; nil when there were none. A client made with
// c (openai.New) reports it rather than run with settings the user did
// not ask for.
func (c Config) EnvErr() error { return errors.Join(c.pricesErr, c.envErr) }

// ConfigFromEnv returns the configuration the environment gives:
//
//   - OPENAI_API_KEY, OPENAI_BASE_URL and GRUE_MODEL set the key, the
//     endpoint and the model. A key without an endpoint means OpenAI's
//     (OpenAIBaseURL), with DefaultOpenAIModel unless GRUE_MODEL names one.
//     An endpoint without a key is fine (a local vLLM, Ollama, llama.cpp).
//   - HF_TOKEN alone (neither OPENAI_API_KEY nor OPENAI_BASE_URL) means the
//     Hugging Face router (HFRouterBaseURL) with HF_TOKEN as the key, and
//     DefaultHFModel unless GRUE_MODEL names one.
//   - OPENAI_API_VERSION is a classic Azure endpoint's api-version
//     (Config.APIVersion).
//   - GRUE_MAX_REPLY_BYTES caps a reply's size in bytes
//     (Config.MaxReplyBytes); the client made with it reports a value
//     that is not a positive whole number.
//   - GRUE_PRICES names a JSON price file merged into DefaultPrices (see
//     PriceTable.Load); the client made with it (openai.New) reports an
//     error loading it.
//
// With none of these set, BaseURL is empty and Configured reports false:
// the caller then runs a baseline policy or reports what to set.
func ConfigFromEnv() Config {
	c := Config{
		Model:      os.Getenv("GRUE_MODEL"),
		BaseURL:    os.Getenv("OPENAI_BASE_URL"),
		APIKey:     os.Getenv("OPENAI_API_KEY"),
		APIVersion: os.Getenv("OPENAI_API_VERSION"),
	}
	if c.APIKey != "" {
		c.KeyEnv = "OPENAI_API_KEY"
	}
	hf := os.Getenv("HF_TOKEN")
	switch {
	case c.APIKey == "" && c.BaseURL == "" && hf != "":
		c.BaseURL, c.APIKey, c.KeyEnv = HFRouterBaseURL, hf, "HF_TOKEN"
		if c.Model == "" {
			c.Model = DefaultHFModel
		}
	case c.APIKey != "" && c.BaseURL == "":
		c.BaseURL = OpenAIBaseURL
		if c.Model == "" {
			c.Model = DefaultOpenAIModel
		}
	}
	if v := os.Getenv("GRUE_MAX_REPLY_BYTES"); v != "" {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n <= 0 {
			c.envErr = fmt.Errorf("GRUE_MAX_REPLY_BYTES=%q: want a positive number of bytes, such as 33554432 (32 MiB)", v)
		} else {
			c.MaxReplyBytes = n
		}
	}
	if path := os.Getenv("GRUE_PRICES"); path != "" {
		t, err := LoadPrices(path)
		if err != nil {
			c.pricesErr = fmt.Errorf("GRUE_PRICES: %w", err)
		} else {
			c.Prices = t
		}
	}
	return c
}

// Configured reports whether c names an endpoint and a model, the least a
// client needs.
func (c Config) Configured() bool { return c.BaseURL != "" && c.Model != "" }

// String describes c without its API key, and with the credentials of
// its base URL masked (RedactURL).
func (c Config) String() string {
	key := "none"
	if c.APIKey != "" {
		key = "set"
		if c.KeyEnv != "" {
			key = "from " + c.KeyEnv
		}
	}
	return fmt.Sprintf("model=%q base_url=%q api_key=%s", c.Model, RedactURL(c.BaseURL), key)
}

// GoString describes c without its API key, for %#v.
func (c Config) GoString() string { return "llm.Config{" + c.String() + "}" }

// SeedIgnored says why c's endpoint does not honour a request's seed, so
// that a seeded run there is not reproducible: Anthropic's
// OpenAI-compatible endpoint (api.anthropic.com) ignores it, and a seed
// in DropParams is never sent. "" when the seed is sent and nothing is
// known against it.
func (c Config) SeedIgnored() string {
	if slices.Contains(c.DropParams, "seed") {
		return "seed is in drop_params: it is not sent"
	}
	if u, err := url.Parse(c.BaseURL); err == nil && (u.Hostname() == "api.anthropic.com" || strings.HasSuffix(u.Hostname(), ".anthropic.com")) {
		return "Anthropic's OpenAI-compatible endpoint ignores seed"
	}
	return ""
}
