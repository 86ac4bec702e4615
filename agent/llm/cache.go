package llm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/grue-lab/grue/internal/atomicfile"
	"github.com/grue-lab/grue/internal/boundedfile"
)

// MaxCacheEntryBytes is the largest cache file Get reads: a larger one, or
// one that is not a regular file, is a corrupt entry (a miss).
const MaxCacheEntryBytes = 64 << 20

// CacheMode says what a Cache does with a call.
type CacheMode int

// The cache modes.
const (
	// CacheOff passes every call through and stores nothing.
	CacheOff CacheMode = iota
	// CacheRead answers from the cache when it can and calls the model
	// otherwise, storing nothing.
	CacheRead
	// CacheWrite always calls the model and stores the reply (a fresh
	// recording that replaces older entries).
	CacheWrite
	// CacheReadWrite answers from the cache when it can, and calls the
	// model and stores the reply otherwise.
	CacheReadWrite
	// CacheReplayOnly answers from the cache and never calls the model:
	// a miss is an error wrapping ErrCacheMiss.
	CacheReplayOnly
)

var cacheModeNames = []string{"off", "read", "write", "read-write", "replay"}

// String returns the mode's name as ParseCacheMode reads it.
func (m CacheMode) String() string {
	if m < 0 || int(m) >= len(cacheModeNames) {
		return fmt.Sprintf("CacheMode(%d)", int(m))
	}
	return cacheModeNames[m]
}

// ParseCacheMode reads a cache mode: "off", "read", "write", "read-write"
// (or "rw"), or "replay" (or "replay-only").
func ParseCacheMode(s string) (CacheMode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "off", "":
		return CacheOff, nil
	case "read":
		return CacheRead, nil
	case "write":
		return CacheWrite, nil
	case "read-write", "readwrite", "rw":
		return CacheReadWrite, nil
	case "replay", "replay-only":
		return CacheReplayOnly, nil
	}
	return CacheOff, fmt.Errorf("unknown cache mode %q (want off, read, write, read-write or replay)", s)
}

// ErrCacheMiss is wrapped by the error of a replay-only call that the
// cache cannot answer.
var ErrCacheMiss = errors.New("llm cache: no recorded reply")

// cacheFormat names the layout of an entry; an entry of another format is
// ignored.
const cacheFormat = "grue-llm-cache/1"

// Cache is a response cache on disk: one JSON file per call, named by the
// SHA-256 of everything that decides the reply (see CacheKey), under
// dir/<first two hex digits>/<key>.json. An entry carries its format, its
// key and a checksum of the reply; one that is corrupt, cut short or
// misplaced is ignored (counted in Stats.Corrupt), never returned. Entries
// are written to a temporary file, synced and renamed into place, so
// concurrent writers of the same key and readers never see half an entry.
//
// A Cache is safe for concurrent use, by several episodes at once.
type Cache struct {
	dir  string
	mode CacheMode

	// Warn, when set, is told of each entry ignored as corrupt and each
	// entry that could not be written.
	Warn func(msg string)

	hits, misses, writes, corrupt, writeErrors atomic.Int64
	warnMu                                     sync.Mutex
}

// CacheStats counts what a Cache did.
type CacheStats struct {
	Hits        int64 `json:"hits"`
	Misses      int64 `json:"misses"`
	Writes      int64 `json:"writes"`
	Corrupt     int64 `json:"corrupt"`
	WriteErrors int64 `json:"write_errors"`
}

// NewCache opens (creating it unless mode is CacheOff or replay-only) the
// cache in dir.
func NewCache(dir string, mode CacheMode) (*Cache, error) {
	if mode < CacheOff || mode > CacheReplayOnly {
		return nil, fmt.Errorf("llm cache: invalid mode %d", int(mode))
	}
	if dir == "" && mode != CacheOff {
		return nil, errors.New("llm cache: no folder given")
	}
	switch mode {
	case CacheOff:
	case CacheRead, CacheReplayOnly:
		if fi, err := os.Stat(dir); err != nil {
			if mode == CacheReplayOnly {
				return nil, fmt.Errorf("llm cache: replay from %s: %w", dir, err)
			}
		} else if !fi.IsDir() {
			return nil, fmt.Errorf("llm cache: %s is not a folder", dir)
		}
	default:
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("llm cache: %w", err)
		}
	}
	return &Cache{dir: dir, mode: mode}, nil
}

// Dir returns the cache's folder.
func (c *Cache) Dir() string { return c.dir }

// Mode returns the cache's mode.
func (c *Cache) Mode() CacheMode { return c.mode }

// Stats returns the counts so far.
func (c *Cache) Stats() CacheStats {
	return CacheStats{
		Hits: c.hits.Load(), Misses: c.misses.Load(), Writes: c.writes.Load(),
		Corrupt: c.corrupt.Load(), WriteErrors: c.writeErrors.Load(),
	}
}

// keyPayload is what a cache key hashes: everything that decides a reply,
// and nothing else (not the label, not the API key, not streaming, not
// the endpoint). BaseURL is set only in a cache file's record of the
// request, for people reading it, and in the keys of entries written
// before keys left the endpoint out (legacyCacheKey).
type keyPayload struct {
	Model       string     `json:"model"`
	BaseURL     string     `json:"base_url,omitempty"`
	Messages    []Message  `json:"messages"`
	Tools       []ToolSpec `json:"tools,omitempty"`
	ToolChoice  string     `json:"tool_choice,omitempty"`
	Temperature *float64   `json:"temperature,omitempty"`
	Seed        *int       `json:"seed,omitempty"`
	MaxTokens   int        `json:"max_tokens,omitempty"`
	JSON        bool       `json:"json,omitempty"`
	// Added after the first cache format: empty, they leave a key as it
	// was.
	ReasoningEffort string         `json:"reasoning_effort,omitempty"`
	Extra           map[string]any `json:"extra,omitempty"`
}

func payloadOf(req Request, baseURL string) keyPayload {
	msgs := req.Messages
	if msgs == nil {
		msgs = []Message{}
	}
	return keyPayload{
		Model: req.Model, BaseURL: RedactURL(strings.TrimRight(baseURL, "/")),
		Messages: msgs, Tools: req.Tools, ToolChoice: req.ToolChoice,
		Temperature: req.Temperature, Seed: req.Seed, MaxTokens: req.MaxTokens, JSON: req.JSON,
		ReasoningEffort: req.ReasoningEffort, Extra: req.Extra,
	}
}

// CacheKey returns the cache key of req: the hex SHA-256 of a canonical
// JSON of the model (req.Model), the messages, tools, tool choice,
// temperature, seed, max tokens, JSON flag, reasoning effort and extra
// body fields. The endpoint is no part of it, so that a recorded run
// replays with another base URL, or none (ReplayFrom). The request should
// have the client's defaults filled in (see Resolver); Cached does that.
func CacheKey(req Request) string { return keyOf(payloadOf(req, "")) }

// legacyCacheKey is the key entries were written under before the
// endpoint left the key: with the base URL (its credentials masked by
// RedactURL). Cached still reads them, when it is given the base URL they
// were recorded with.
func legacyCacheKey(req Request, baseURL string) string {
	p := payloadOf(req, baseURL)
	b, err := json.Marshal(struct {
		Model   string `json:"model"`
		BaseURL string `json:"base_url"`
		keyPayload
	}{p.Model, p.BaseURL, p})
	if err != nil {
		return keyOf(p)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// keyOf hashes a key payload.
func keyOf(p keyPayload) string {
	b, err := json.Marshal(p)
	if err != nil {
		// Only a tool schema holding a value JSON cannot encode gets here;
		// such a request cannot be sent either. Key it by its text.
		b = fmt.Appendf(nil, "%#v", p)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// entry is a cache file.
type entry struct {
	Format   string          `json:"format"`
	Key      string          `json:"key"`
	Checksum string          `json:"checksum"` // hex SHA-256 of Reply's bytes
	Label    string          `json:"label,omitempty"`
	Request  json.RawMessage `json:"request"` // the key payload, for people reading the cache
	Reply    json.RawMessage `json:"reply"`
}

func (c *Cache) path(key string) string {
	return filepath.Join(c.dir, key[:2], key+".json")
}

// has reports whether an entry is stored under key, without counting.
func (c *Cache) has(key string) bool {
	if len(key) < 2 {
		return false
	}
	_, err := os.Stat(c.path(key))
	return err == nil
}

// Get returns the reply stored under key, or ok false on a miss. A corrupt
// entry is a miss, and the reason is the returned error (ok false); a
// missing entry gives a nil error.
func (c *Cache) Get(key string) (reply *Reply, ok bool, err error) {
	if len(key) < 2 {
		return nil, false, fmt.Errorf("llm cache: bad key %q", key)
	}
	b, err := boundedfile.ReadFile(c.path(key), MaxCacheEntryBytes)
	if errors.Is(err, fs.ErrNotExist) {
		c.misses.Add(1)
		return nil, false, nil
	}
	if err == nil {
		reply, err = decodeEntry(b, key)
	}
	if err != nil {
		c.corrupt.Add(1)
		c.misses.Add(1)
		err = fmt.Errorf("llm cache: entry %s ignored: %w", c.path(key), err)
		c.warn(err.Error())
		return nil, false, err
	}
	c.hits.Add(1)
	return reply, true, nil
}

// decodeEntry checks and decodes the cache file b that should hold key.
func decodeEntry(b []byte, key string) (*Reply, error) {
	var e entry
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, fmt.Errorf("not a cache entry: %w", err)
	}
	if e.Format != cacheFormat {
		return nil, fmt.Errorf("format %q, want %q", e.Format, cacheFormat)
	}
	if e.Key != key {
		return nil, fmt.Errorf("holds key %.12s…, want %.12s…", e.Key, key)
	}
	sum := sha256.Sum256(e.Reply)
	if hex.EncodeToString(sum[:]) != e.Checksum {
		return nil, errors.New("checksum mismatch")
	}
	var r Reply
	if err := json.Unmarshal(e.Reply, &r); err != nil {
		return nil, fmt.Errorf("reply: %w", err)
	}
	return &r, nil
}

// encodeEntry returns the cache file of reply r to req under key.
func encodeEntry(key string, req Request, baseURL string, r *Reply) ([]byte, error) {
	rb, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	qb, err := json.Marshal(payloadOf(req, baseURL))
	if err != nil {
		qb = []byte("null")
	}
	sum := sha256.Sum256(rb)
	b, err := json.Marshal(entry{
		Format: cacheFormat, Key: key, Checksum: hex.EncodeToString(sum[:]),
		Label: req.Label, Request: qb, Reply: rb,
	})
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Put stores reply r to req (sent to baseURL) under key, atomically.
func (c *Cache) Put(key string, req Request, baseURL string, r *Reply) error {
	err := c.put(key, req, baseURL, r)
	if err != nil {
		c.writeErrors.Add(1)
		err = fmt.Errorf("llm cache: write %s: %w", key, err)
		c.warn(err.Error())
		return err
	}
	c.writes.Add(1)
	return nil
}

func (c *Cache) put(key string, req Request, baseURL string, r *Reply) error {
	if len(key) < 2 {
		return fmt.Errorf("bad key %q", key)
	}
	b, err := encodeEntry(key, req, baseURL, r)
	if err != nil {
		return err
	}
	dir := filepath.Dir(c.path(key))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return atomicfile.Write(c.path(key), b, 0o600)
}

func (c *Cache) warn(msg string) {
	if c.Warn == nil {
		return
	}
	c.warnMu.Lock()
	defer c.warnMu.Unlock()
	c.Warn(msg)
}

// Endpoint is implemented by clients that know which model and endpoint
// they call; Cached keys its entries on them.
type Endpoint interface {
	Model() string
	BaseURL() string
}

// Resolver is implemented by clients that fill in a request's defaults
// (model, temperature, seed, max tokens) before sending it, so that a
// cache keys on what is really sent.
type Resolver interface {
	Resolve(req Request) Request
}

// Cached is a Client that answers from a Cache, calling its inner client
// as the cache's mode says. A reply from the cache has Cached true, Cost 0
// and no Retries (no try was made), and otherwise what was recorded:
// content, tool calls, finish reason, model, usage and latency.
type Cached struct {
	inner   Client
	cache   *Cache
	model   string
	baseURL string
}

// WithCache returns c answering from cache. When c is an Endpoint its model
// and base URL go into the keys; when it is a Resolver its defaults do.
func WithCache(c Client, cache *Cache) *Cached {
	cc := &Cached{inner: c, cache: cache}
	if e, ok := c.(Endpoint); ok {
		cc.model, cc.baseURL = e.Model(), e.BaseURL()
	}
	return cc
}

// ReplayFrom returns a client with no model behind it that answers from
// cache what was recorded for model: what replays a recorded run on a
// machine with no endpoint, or another one. baseURL may be "": it is
// needed only for entries written before the endpoint left the cache key,
// which replay only with the base URL they were recorded with. Every miss
// is an error wrapping ErrCacheMiss.
func ReplayFrom(cache *Cache, model, baseURL string) *Cached {
	return &Cached{cache: cache, model: model, baseURL: baseURL}
}

// Model returns the model the keys name when a request names none.
func (c *Cached) Model() string { return c.model }

// BaseURL returns the endpoint the keys name.
func (c *Cached) BaseURL() string { return c.baseURL }

// Cache returns the cache c answers from.
func (c *Cached) Cache() *Cache { return c.cache }

// Resolve fills in the inner client's defaults.
func (c *Cached) Resolve(req Request) Request {
	if r, ok := c.inner.(Resolver); ok {
		req = r.Resolve(req)
	}
	if req.Model == "" {
		req.Model = c.model
	}
	return req
}

// Price prices u by the inner client when it is a Pricer, and is 0
// otherwise (a client made by ReplayFrom has none: nothing it replays is
// paid for). It makes Cached a Pricer, so that a cache around a client
// hides none of its prices.
func (c *Cached) Price(model string, u Usage) float64 {
	if p, ok := c.inner.(Pricer); ok {
		return p.Price(model, u)
	}
	return 0
}

// PriceKnown reports whether the inner client knows a price for model
// (see PriceKnower); false when it cannot say. It makes Cached a
// PriceKnower, so that a cache hides none of its client's prices.
func (c *Cached) PriceKnown(model string) bool {
	p, ok := c.inner.(PriceKnower)
	return ok && p.PriceKnown(model)
}

// ReplayOnly reports whether c answers from its cache alone, with no
// client behind it (ReplayFrom): nothing it answers is paid for.
func (c *Cached) ReplayOnly() bool { return c.inner == nil }

// Key returns the cache key of req as c would send it.
func (c *Cached) Key(req Request) string { return CacheKey(c.Resolve(req)) }

// Complete answers req from the cache or the inner client, as the cache's
// mode says.
func (c *Cached) Complete(ctx context.Context, req Request) (*Reply, error) {
	mode := CacheOff
	if c.cache != nil {
		mode = c.cache.mode
	}
	if mode == CacheOff {
		if c.inner == nil {
			return nil, fmt.Errorf("llm call %s: no client and no cache", labelOf(req))
		}
		return c.inner.Complete(ctx, req)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("llm call %s: %w", labelOf(req), err)
	}
	resolved := c.Resolve(req)
	key := CacheKey(resolved)
	var why error
	if mode != CacheWrite {
		r, ok, err := c.cache.Get(key)
		if !ok && err == nil && c.baseURL != "" {
			// An entry written before the endpoint left the key.
			if old := legacyCacheKey(resolved, c.baseURL); c.cache.has(old) {
				c.cache.misses.Add(-1)
				r, ok, err = c.cache.Get(old)
			}
		}
		if ok {
			r.Cached, r.Cost, r.Retries = true, 0, nil
			return r, nil
		}
		why = err
	}
	if mode == CacheReplayOnly || c.inner == nil {
		detail := "not recorded"
		if why != nil {
			detail = why.Error()
		}
		return nil, fmt.Errorf("llm call %s (model %s): key %.12s: %s: %w", labelOf(req), resolved.Model, key, detail, ErrCacheMiss)
	}
	r, err := c.inner.Complete(ctx, req)
	if err != nil {
		return nil, err
	}
	if mode == CacheWrite || mode == CacheReadWrite {
		// A reply the cache could not store is still a good reply: the
		// failure is counted in Stats.WriteErrors and told to Warn.
		_ = c.cache.Put(key, resolved, c.baseURL, r)
	}
	return r, nil
}
