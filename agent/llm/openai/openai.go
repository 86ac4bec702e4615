// Package openai is grue's client for any OpenAI-compatible
// chat-completions endpoint (OpenAI, Azure OpenAI, vLLM, Ollama,
// llama.cpp, LM Studio, OpenRouter, the Hugging Face router): a
// [github.com/grue-lab/grue/agent/llm.Client] built on
// [github.com/sashabaranov/go-openai] and net/http.
//
// [New] makes a [Client] from an [llm.Config] (usually
// [llm.ConfigFromEnv]'s, with the command line's flags on top);
// [CheckModel] asks the endpoint which models it serves before a run.
// The client retries what can succeed on a second try and nothing else,
// records each failed try in the [llm.Reply], learns which parameters
// the endpoint refuses ([llm.DroppableParams]) and fails with an
// [*llm.CallError].
//
// It lives apart from package llm so that the agent, its memory and its
// tools, which only need llm's types, do not link net/http and its TLS
// (docs/performance.md, Start-up): only the programs that talk to a
// model import it.
package openai

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/grue-lab/grue/agent/llm"
	oai "github.com/sashabaranov/go-openai"
)

// Client is an [llm.Client] for any OpenAI-compatible chat-completions
// endpoint, built on [github.com/sashabaranov/go-openai]; [New] makes one.
// go-openai retries nothing; Client does, and only what a second try can
// fix: 429 (after the Retry-After the server asked for), 408, 409, 5xx,
// connection resets and hang-ups, tries that time out, and 200 answers whose body is not a whole
// completion (what flaky proxies send). A 400, 401, 403, 404, 422 or any
// other 4xx fails at once with the status and the server's message.
//
// It is safe for concurrent use.
type Client struct {
	cfg    llm.Config
	api    *oai.Client
	prices *llm.PriceTable

	tries         int
	timeout       time.Duration
	minBackoff    time.Duration
	maxBackoff    time.Duration
	maxRetryAfter time.Duration
	sleep         func(context.Context, time.Duration) error
	jitter        func(time.Duration) time.Duration

	reasoningTokens int
	quirks          *quirkBook
}

// Option configures a Client beyond its llm.Config: how its requests
// are carried.
type Option func(*options)

type options struct {
	httpClient *http.Client
}

// WithHTTPClient makes the client carry its requests with hc (copied:
// the client sets its own transport on top of hc's). Without it a new
// http.Client on http.DefaultTransport carries them. hc's Timeout, if
// any, applies on top of Config.Timeout.
func WithHTTPClient(hc *http.Client) Option {
	return func(o *options) { o.httpClient = hc }
}

func optionsOf(opts []Option) options {
	var o options
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	return o
}

// New returns a client for cfg, or an error saying what cfg lacks.
func New(cfg llm.Config, opts ...Option) (*Client, error) {
	if err := cfg.EnvErr(); err != nil {
		return nil, err
	}
	if cfg.MaxReplyBytes < 0 {
		return nil, fmt.Errorf("llm: MaxReplyBytes is negative (%d)", cfg.MaxReplyBytes)
	}
	if cfg.BaseURL == "" {
		return nil, errors.New("llm: no base URL: set OPENAI_BASE_URL (or OPENAI_API_KEY for OpenAI, or HF_TOKEN for the Hugging Face router) or pass --base-url")
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("llm: base URL %q is not an http(s) URL", llm.RedactURL(cfg.BaseURL))
	}
	azure, err := azureOf(&cfg)
	if err != nil {
		return nil, err
	}
	if cfg.Model == "" {
		return nil, fmt.Errorf("llm: %w: set GRUE_MODEL", ErrNoModel)
	}
	if err := checkDropParams(cfg.DropParams); err != nil {
		return nil, err
	}
	for name, d := range map[string]time.Duration{
		"Timeout": cfg.Timeout, "MinBackoff": cfg.MinBackoff, "MaxBackoff": cfg.MaxBackoff, "MaxRetryAfter": cfg.MaxRetryAfter,
	} {
		if d < 0 {
			return nil, fmt.Errorf("llm: %s is negative (%v)", name, d)
		}
	}
	c := &Client{
		cfg:           cfg,
		prices:        cfg.Prices,
		tries:         1 + cfg.MaxRetries,
		timeout:       orDefault(cfg.Timeout, llm.DefaultTimeout),
		minBackoff:    orDefault(cfg.MinBackoff, llm.DefaultMinBackoff),
		maxBackoff:    orDefault(cfg.MaxBackoff, llm.DefaultMaxBackoff),
		maxRetryAfter: orDefault(cfg.MaxRetryAfter, llm.DefaultMaxRetryAfter),
		sleep:         cfg.Sleep,
		jitter:        cfg.Jitter,

		reasoningTokens: cfg.ReasoningTokens,
		quirks:          &quirkBook{configured: slices.Clone(cfg.DropParams), reasoning: cfg.ReasoningModel},
	}
	switch {
	case cfg.ReasoningTokens == 0:
		c.reasoningTokens = llm.DefaultReasoningTokens
	case cfg.ReasoningTokens < 0:
		c.reasoningTokens = 0
	}
	switch {
	case cfg.MaxRetries == 0:
		c.tries = 1 + llm.DefaultMaxRetries
	case cfg.MaxRetries < 0:
		c.tries = 1
	}
	if c.prices == nil {
		c.prices = llm.DefaultPrices()
	}
	if c.sleep == nil {
		c.sleep = sleepContext
	}
	if c.jitter == nil {
		c.jitter = func(limit time.Duration) time.Duration {
			if limit <= 0 {
				return 0
			}
			return time.Duration(rand.Int64N(int64(limit) + 1))
		}
	}
	hc := &http.Client{}
	if o := optionsOf(opts); o.httpClient != nil {
		copied := *o.httpClient
		hc = &copied
	}
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	// go-openai appends the path to the base URL as a string, which puts
	// it inside a query the URL has (?api-version=..., ?api_key=...): the
	// transport adds the query to each request instead.
	query, baseURL := u.Query(), cfg.BaseURL
	if u.RawQuery != "" || u.ForceQuery {
		u.RawQuery, u.ForceQuery = "", false
		baseURL = u.String()
	}
	hc.Transport = &recorder{base: base, query: query, maxReply: maxReplyOf(cfg)}
	oc := oai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = strings.TrimRight(baseURL, "/")
	if azure != nil {
		oc = *azure
	}
	oc.HTTPClient = hc
	c.api = oai.NewClientWithConfig(oc)
	return c, nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

// Model returns the model the client asks when a Request names none.
func (c *Client) Model() string { return c.cfg.Model }

// BaseURL returns the endpoint the client calls, credentials in its
// query included: pass it through RedactURL before showing it.
func (c *Client) BaseURL() string { return c.cfg.BaseURL }

// Dropped returns the parameters the client leaves out of its requests,
// for each model it has asked, sorted by model and parameter: those
// configured (Config.DropParams), those a reasoning model's name rules
// out, and those learned from the endpoint's 400s. A run's manifest
// records them (harness.Endpoint.Dropped).
func (c *Client) Dropped() []llm.Dropped { return c.quirks.dropped() }

// Resolve returns req with the client's defaults filled in: the model,
// temperature, seed and max tokens it would send.
func (c *Client) Resolve(req llm.Request) llm.Request {
	if req.Model == "" {
		req.Model = c.cfg.Model
	}
	if req.Temperature == nil && c.cfg.Temperature != nil {
		t := *c.cfg.Temperature
		req.Temperature = &t
	}
	if req.Seed == nil && c.cfg.Seed != nil {
		s := *c.cfg.Seed
		req.Seed = &s
	}
	if req.MaxTokens == 0 {
		req.MaxTokens = c.cfg.MaxTokens
	}
	if req.ReasoningEffort == "" {
		req.ReasoningEffort = c.cfg.ReasoningEffort
	}
	if len(c.cfg.ExtraBody) > 0 {
		extra := maps.Clone(c.cfg.ExtraBody)
		maps.Copy(extra, req.Extra)
		req.Extra = extra
	}
	return req
}

// String describes the client without its API key.
func (c *Client) String() string { return "openai.Client{" + c.cfg.String() + "}" }

// Complete sends req, retrying what can succeed on a second try. A 400
// that refuses one of the DroppableParams is retried at once without it,
// and the parameter is not sent to that model again; a reply that spent
// its whole budget on reasoning (Reply.CutOff, with reasoning in it) from
// a model not yet known to reason is asked again with the reasoning
// allowance (Config.ReasoningTokens), its tokens counted in the reply's
// usage. A 400 that says the prompt and max tokens do not fit the
// model's context (vLLM's "max_tokens is too large") is not a refused
// parameter: the request is retried once with the max tokens that fit
// when the answer says how many, and else fails with an error that says
// so. All three are recorded in the reply's Retries (Attempt.Learned).
func (c *Client) Complete(ctx context.Context, req llm.Request) (*llm.Reply, error) {
	start := time.Now()
	var attempts []llm.Attempt
	var wasted llm.Usage
	lowered := false // max tokens lowered once to fit the context
	for try, learned := 1, 0; ; {
		creq, params, omitted, err := c.chatRequest(req)
		if err != nil {
			return nil, &llm.CallError{Label: req.Label, Model: creq.Model, Tries: 0, Err: err}
		}
		reply, f := c.try(ctx, creq, params)
		if f == nil && reply.CutOff() && (reply.Reasoning != "" || reply.Usage.ReasoningTokens > 0) &&
			c.reasoningTokens > 0 && c.Resolve(req).MaxTokens > 0 && learned < len(llm.DroppableParams)+1 && c.quirks.reasons(creq.Model) {
			learned++
			wasted = wasted.Add(reply.Usage)
			attempts = append(attempts, llm.Attempt{
				Error:   fmt.Sprintf("finish_reason length with no answer: the %d completion tokens went on reasoning", reply.Usage.CompletionTokens),
				Status:  http.StatusOK,
				Learned: fmt.Sprintf("the model reasons: %d tokens allowed for reasoning on top of max tokens", c.reasoningTokens),
			})
			continue
		}
		if f == nil {
			reply.Retries = attempts
			reply.Omitted = omitted
			reply.Latency = time.Since(start)
			if reply.Model == "" {
				reply.Model = creq.Model
			}
			reply.Usage = reply.Usage.Add(wasted)
			reply.Cost = c.cost(reply.Model, creq.Model, reply.Usage)
			return reply, nil
		}
		if o, ok := contextOverflow(f.status, f.msg); ok && ctx.Err() == nil {
			sent := sentMaxTokens(params)
			if n, ok := o.fit(sent); ok && !lowered && sent > 0 {
				lowered = true
				req = c.Resolve(req)
				req.MaxTokens -= sent - n
				if req.MaxTokens > 0 {
					attempts = append(attempts, llm.Attempt{Error: f.msg, Status: f.status,
						Learned: fmt.Sprintf("max tokens lowered from %d to %d for this request: the context is %d tokens and the prompt %d", sent, n, o.context, o.prompt)})
					continue
				}
			}
			return nil, &llm.CallError{Label: req.Label, Model: creq.Model, Status: f.status, Tries: try,
				Err: overflowError(f.msg, sent), Attempts: append(attempts, llm.Attempt{Error: f.msg, Status: f.status})}
		}
		if p := refusedParam(f.status, f.param, f.msg, params, req.Extra); p != "" && ctx.Err() == nil &&
			learned < len(llm.DroppableParams)+1 && c.quirks.refuse(creq.Model, p, "refused: "+clipped(f.msg, 120)) {
			learned++
			attempts = append(attempts, llm.Attempt{Error: f.msg, Status: f.status, Learned: p + " refused: no longer sent"})
			continue
		}
		fail := &llm.CallError{Label: req.Label, Model: creq.Model, Status: f.status, Tries: try, Retryable: f.retryable}
		if ctx.Err() != nil {
			fail.Err, fail.Retryable = ctx.Err(), true
			fail.Attempts = append(attempts, llm.Attempt{Error: f.msg, Status: f.status})
			return nil, fail
		}
		if !f.retryable || try >= c.tries {
			fail.Err = errors.New(f.msg)
			fail.Attempts = append(attempts, llm.Attempt{Error: f.msg, Status: f.status})
			return nil, fail
		}
		wait := c.backoff(try, f)
		attempts = append(attempts, llm.Attempt{Error: f.msg, Status: f.status, Wait: wait})
		if err := c.sleep(ctx, wait); err != nil {
			fail.Err, fail.Retryable = err, true
			fail.Attempts = attempts
			return nil, fail
		}
		try++
	}
}

// sentMaxTokens is the max tokens a request sent, under either name; 0
// when it sent none.
func sentMaxTokens(params wireParams) int {
	for _, k := range []string{"max_tokens", "max_completion_tokens"} {
		if n, ok := params[k].(int); ok {
			return n
		}
	}
	return 0
}

// clipped is s cut to n bytes.
func clipped(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// cost prices usage by the model that answered, or else the one asked.
func (c *Client) cost(answered, asked string, u llm.Usage) float64 {
	if _, ok := c.prices.Lookup(answered); ok {
		return c.prices.Cost(answered, u)
	}
	return c.prices.Cost(asked, u)
}

// Price returns what usage u of model costs by the client's price table
// (Config.Prices, or DefaultPrices): the price of model, or else of the
// client's own model, as a reply's Cost is priced by the model that
// answered or else the one asked. It makes Client an llm.Pricer.
func (c *Client) Price(model string, u llm.Usage) float64 { return c.cost(model, c.cfg.Model, u) }

// PriceKnown reports whether the client's price table has a price for
// model, or else for the client's own model, as Price prices it: when it
// has none, a reply's Cost of 0 is unknown rather than free.
func (c *Client) PriceKnown(model string) bool {
	if _, ok := c.prices.Lookup(model); ok {
		return true
	}
	_, ok := c.prices.Lookup(c.cfg.Model)
	return ok
}

// failure is one failed try.
type failure struct {
	msg           string
	param         string // the param an API error names
	status        int
	retryable     bool
	retryAfter    time.Duration
	hasRetryAfter bool
}

// try makes one try under the per-try timeout.
func (c *Client) try(ctx context.Context, creq oai.ChatCompletionRequest, params wireParams) (*llm.Reply, *failure) {
	rec := &tryRecord{params: params}
	tctx, cancel := context.WithTimeout(context.WithValue(ctx, tryKey{}, rec), c.timeout)
	defer cancel()
	var reply *llm.Reply
	var err error
	if creq.Stream {
		reply, err = c.streamTry(tctx, creq)
	} else {
		reply, err = c.plainTry(tctx, creq)
	}
	if err == nil {
		if reply.Reasoning == "" {
			reply.Reasoning = reasoningOf(rec.body.Bytes(), creq.Stream)
		}
		return reply, nil
	}
	return nil, c.classify(ctx, tctx, rec, err)
}

// plainTry makes one non-streamed request.
func (c *Client) plainTry(ctx context.Context, creq oai.ChatCompletionRequest) (*llm.Reply, error) {
	resp, err := c.api.CreateChatCompletion(ctx, creq)
	if err != nil {
		return nil, err
	}
	if len(resp.Choices) == 0 {
		return nil, errMalformed{"the reply has no choices"}
	}
	ch := resp.Choices[0]
	r := &llm.Reply{
		Content:      ch.Message.Content,
		Reasoning:    ch.Message.ReasoningContent,
		FinishReason: string(ch.FinishReason),
		Model:        resp.Model,
		Usage:        usageOf(&resp.Usage),
	}
	for _, tc := range ch.Message.ToolCalls {
		r.ToolCalls = append(r.ToolCalls, llm.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	return r, nil
}

// usageOf is go-openai's usage as grue's.
func usageOf(u *oai.Usage) llm.Usage {
	out := llm.Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
	if d := u.CompletionTokensDetails; d != nil {
		out.ReasoningTokens = d.ReasoningTokens
	}
	return out
}

// errMalformed is a 200 answer that is not a usable completion.
type errMalformed struct{ why string }

func (e errMalformed) Error() string { return e.why }

// classify turns a try's error into a failure: what it says (without the
// API key), its HTTP status, and whether another try may succeed.
func (c *Client) classify(ctx, tctx context.Context, rec *tryRecord, err error) *failure {
	f := &failure{status: rec.status}
	if rec.retryAfterMs != "" {
		if ms, err := strconv.ParseFloat(strings.TrimSpace(rec.retryAfterMs), 64); err == nil && ms >= 0 && ms < 1e9 {
			f.retryAfter, f.hasRetryAfter = time.Duration(ms*float64(time.Millisecond)), true
		}
	}
	if !f.hasRetryAfter && rec.retryAfter != "" {
		f.retryAfter, f.hasRetryAfter = parseRetryAfter(rec.retryAfter, time.Now())
	}
	var apiErr *oai.APIError
	var reqErr *oai.RequestError
	var malformed errMalformed
	var tooLarge *errTooLarge
	switch {
	case ctx.Err() != nil:
		f.msg = ctx.Err().Error()
	// A reply cut at the cap is not retried: the server that sent it
	// will send it again.
	case errors.As(err, &tooLarge):
		f.msg = tooLarge.Error()
	case errors.Is(tctx.Err(), context.DeadlineExceeded):
		f.msg = fmt.Sprintf("no complete reply within the per-try timeout of %v", c.timeout)
		f.retryable = true
	// A RequestError comes first: one whose body is not OpenAI's error
	// object (LM Studio's bare string) wraps an empty APIError.
	case errors.As(err, &reqErr):
		f.status = reqErr.HTTPStatusCode
		f.msg = fmt.Sprintf("status %d: %s", reqErr.HTTPStatusCode, said(string(reqErr.Body)))
		f.retryable = retryableStatus(reqErr.HTTPStatusCode)
	case errors.As(err, &apiErr):
		f.status = apiErr.HTTPStatusCode
		f.msg = fmt.Sprintf("status %d: %s", apiErr.HTTPStatusCode, oneLine(apiErr.Message))
		if apiErr.Param != nil {
			f.param = *apiErr.Param
		}
		f.retryable = retryableStatus(apiErr.HTTPStatusCode)
	case errors.As(err, &malformed):
		f.msg = "malformed reply: " + malformed.why
		f.retryable = true
	case rec.status >= 200 && rec.status < 300:
		f.msg = fmt.Sprintf("malformed reply (status %d): %v", rec.status, err)
		f.retryable = true
	case isTransient(err):
		f.msg = err.Error()
		f.retryable = true
	default:
		f.msg = err.Error()
	}
	f.msg = c.redact(f.msg)
	return f
}

// retryableStatus reports whether an HTTP status may go away on a second
// try: too many requests, a timeout or conflict, or a server error.
func retryableStatus(code int) bool {
	switch code {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooEarly, http.StatusTooManyRequests:
		return true
	}
	return code >= 500
}

// isTransient reports whether err is a network failure that another try
// may not meet: a reset, a hang-up, a refused or timed-out connection.
func isTransient(err error) bool {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	var netErr interface{ Timeout() bool }
	if errors.As(err, &netErr) {
		return true
	}
	s := err.Error()
	for _, sign := range []string{"connection reset", "connection refused", "broken pipe", "server closed", "EOF", "http2: "} {
		if strings.Contains(s, sign) {
			return true
		}
	}
	return false
}

// oneLine shortens a server's message for an error: one line, at most 300
// bytes.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	if s == "" {
		s = "(no message)"
	}
	return s
}

// redact removes the API key and the credentials of URLs (RedactURL)
// from s.
func (c *Client) redact(s string) string {
	if k := c.cfg.APIKey; len(k) >= 4 {
		s = strings.ReplaceAll(s, k, llm.Redacted)
	}
	return llm.RedactURL(s)
}

// backoff is the wait before retry n (1 for the first retry).
func (c *Client) backoff(n int, f *failure) time.Duration {
	if f.hasRetryAfter {
		return min(f.retryAfter, c.maxRetryAfter)
	}
	limit := c.maxBackoff
	if n-1 < 62 {
		if d := c.minBackoff << (n - 1); d > 0 && d < limit {
			limit = d
		}
	}
	return min(max(c.jitter(limit), 0), limit)
}

// parseRetryAfter reads a Retry-After header: seconds, or an HTTP date
// (a date in the past means no wait).
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if secs, err := strconv.ParseFloat(v, 64); err == nil && !math.IsNaN(secs) && !math.IsInf(secs, 0) {
		if secs <= 0 {
			return 0, true
		}
		return time.Duration(min(secs, 1e6) * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// sleepContext waits d, or until ctx is done.
func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
