package harness

import (
	"context"
	"fmt"
	"math"
	"sync"

	"golang.org/x/time/rate"

	"github.com/grue-lab/grue/agent/llm"
)

// limiters hold one rate limiter per endpoint, shared by every variant
// and episode that calls it: a rate limit is the endpoint's, not a
// variant's.
type limiters struct {
	perSecond float64
	mu        sync.Mutex
	byURL     map[string]*rate.Limiter
}

func newLimiters(perSecond float64) *limiters {
	return &limiters{perSecond: perSecond, byURL: map[string]*rate.Limiter{}}
}

// wrap returns c behind the limiter of endpoint baseURL, or c itself when
// there is no limit.
func (l *limiters) wrap(c llm.Client, baseURL string) llm.Client {
	if l.perSecond <= 0 {
		return c
	}
	l.mu.Lock()
	lim := l.byURL[baseURL]
	if lim == nil {
		// A burst of one second's worth: a run starting N workers does
		// not send N requests at once to an endpoint that allows fewer.
		lim = rate.NewLimiter(rate.Limit(l.perSecond), max(1, int(math.Floor(l.perSecond))))
		l.byURL[baseURL] = lim
	}
	l.mu.Unlock()
	return &limitedClient{inner: c, lim: lim}
}

// limitedClient waits for its endpoint's limiter before each request. It
// passes on its inner client's model, endpoint and defaults, so that a
// response cache around it keys entries as it would without it, and its
// prices.
type limitedClient struct {
	inner llm.Client
	lim   *rate.Limiter
}

func (c *limitedClient) Complete(ctx context.Context, req llm.Request) (*llm.Reply, error) {
	if err := c.lim.Wait(ctx); err != nil {
		return nil, fmt.Errorf("rate limit: %w", err)
	}
	return c.inner.Complete(ctx, req)
}

func (c *limitedClient) Model() string {
	if e, ok := c.inner.(llm.Endpoint); ok {
		return e.Model()
	}
	return ""
}

func (c *limitedClient) BaseURL() string {
	if e, ok := c.inner.(llm.Endpoint); ok {
		return e.BaseURL()
	}
	return ""
}

// Price prices usage as the inner client does (llm.Pricer), so that the
// agent can price what it estimates for a server that reports no usage;
// 0 when the inner client has no prices.
func (c *limitedClient) Price(model string, u llm.Usage) float64 {
	if p, ok := c.inner.(llm.Pricer); ok {
		return p.Price(model, u)
	}
	return 0
}

func (c *limitedClient) Resolve(req llm.Request) llm.Request {
	if r, ok := c.inner.(llm.Resolver); ok {
		return r.Resolve(req)
	}
	return req
}
