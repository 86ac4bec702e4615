package memory

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"strings"
	"sync"

	"github.com/grue-lab/grue/agent/llm"
)

// DefaultSummaryPrompt is the system prompt of a summary call when
// Summary.Prompt is empty: it asks for the notes a player of a text
// adventure keeps.
const DefaultSummaryPrompt = `You keep the notes of an agent playing a text adventure (interactive fiction). You are given the summary so far and the steps played since it was written. Reply with the updated summary, and nothing else: short, factual, under these headings.

Locations: rooms visited, their exits and how they connect; where the agent is now.
Items: what the agent carries; items seen and where they were left.
Puzzles: obstacles met; those solved, and how; those still open, and what was tried.
Dangers: enemies, traps, darkness, hunger, anything that hurt or threatened the agent.
Failed: actions that did not work or that the game did not understand, so they are not tried again.
Score: the score, and what earned points.

Keep every fact that may matter later, drop the rest, and never state what the steps do not show.`

// DefaultSummaryMaxTokens caps a summary's length when Summary.MaxTokens
// is 0.
const DefaultSummaryMaxTokens = 512

// cacheSize is how many summaries a Summary remembers. Forgetting one
// costs a call at worst: the same turns give the same request again.
const cacheSize = 4096

// Summary keeps a running summary of older turns, written by a model, and
// the latest Keep turns verbatim.
//
// The summary is brought up to date incrementally: each update sends the
// model the summary so far and the turns since it was written, so every
// turn is summarised once. Updates happen every Every turns (1 when 0):
// with Every = 5, the summary covers a multiple of 5 turns and the turns
// beyond it stay verbatim until the next update. Which turns each update
// covers depends only on the turns, so the same turns always give the
// same summary requests, a recorded run replays from the response cache
// even when it resumes half way, and a fresh strategy catches up with the
// same calls a live one made.
//
// Summaries are remembered by a hash of the turns they cover (and of
// Model, Prompt, MaxTokens and Every), so one Summary shared by an episode
// and its forks gives each the summary of its own turns and makes the
// summary of their common past once. It is safe for concurrent use, and
// two callers that need the same summary at once wait for one call.
//
// Each call is labelled "memory summary, steps A-B" and made at
// temperature 0. Use NewSummary, or set Client before the first Context
// and do not copy a Summary after.
type Summary struct {
	// Client writes the summaries; Model, when set, overrides its model.
	Client llm.Client `json:"-"`
	Model  string     `json:"model,omitempty"`
	// Prompt is the system prompt of each summary call;
	// DefaultSummaryPrompt when empty.
	Prompt string `json:"prompt,omitempty"`
	// MaxTokens caps a summary's length; DefaultSummaryMaxTokens when 0.
	MaxTokens int `json:"max_tokens,omitempty"`
	// Keep is how many latest turns stay verbatim after the summary.
	Keep int `json:"keep,omitempty"`
	// Every is how many turns each update of the summary covers.
	Every int `json:"every,omitempty"`
	// Budget caps the tokens of what Context returns; 0: no limit.
	Budget int `json:"budget,omitempty"`

	mu     sync.Mutex
	seeds  [2]maphash.Seed
	seeded bool
	cache  map[key]*entry
	ring   []ringSlot // the cached entries, oldest first from next
	next   int
	spent  Spent
}

// NewSummary returns a Summary that asks model through c (the client's own
// model when model is "") and keeps no turn verbatim.
func NewSummary(c llm.Client, model string) *Summary {
	return &Summary{Client: c, Model: model}
}

// Name returns "summary".
func (s *Summary) Name() string { return "summary" }

// Context returns the summary of all but the latest Keep turns (fewer
// when Every > 1), then those turns verbatim, within Budget.
func (s *Summary) Context(ctx context.Context, turns []Turn) ([]llm.Message, error) {
	return s.context(ctx, turns, s.Keep, s.Budget)
}

// Spent returns what the summary calls made so far have cost, for every
// caller together. To charge each caller its own calls, use a Ledger.
func (s *Summary) Spent() Spent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.spent
}

// config is a Summary's settings as one call of Context uses them, with
// the defaults filled in.
type config struct {
	model, prompt    string
	maxTokens, every int
}

func (s *Summary) config() config {
	c := config{model: s.Model, prompt: s.Prompt, maxTokens: s.MaxTokens, every: s.Every}
	if c.prompt == "" {
		c.prompt = DefaultSummaryPrompt
	}
	if c.maxTokens <= 0 {
		c.maxTokens = DefaultSummaryMaxTokens
	}
	c.every = max(c.every, 1)
	return c
}

// context is Context with keep and budget given, for Summary and Hybrid.
func (s *Summary) context(ctx context.Context, turns []Turn, keep, budget int) ([]llm.Message, error) {
	if s.Client == nil {
		return nil, errors.New("memory summary: no Client to write summaries")
	}
	cfg := s.config()
	k := max(len(turns)-max(keep, 0), 0) / cfg.every * cfg.every
	msg := ""
	if k > 0 {
		e, err := s.summary(ctx, cfg, turns, k)
		if err != nil {
			return nil, err
		}
		msg = e.msg
	}
	return compose(msg, turns[k:], budget), nil
}

// key names a summary: a 128-bit hash of the settings and of the turns it
// covers.
type key [2]uint64

// entry is one summary, made or in the making. done is closed once text,
// msg and err are set; they do not change after.
type entry struct {
	done chan struct{}
	text string // what the model wrote
	msg  string // the summary message's text: the header, then text
	err  error
}

// ready reports whether e holds a summary.
func (e *entry) ready() bool {
	select {
	case <-e.done:
		return e.err == nil
	default:
		return false
	}
}

type ringSlot struct {
	k key
	e *entry
}

// summary returns the summary of turns[:k], k a multiple of cfg.every,
// making it and any it builds on that are not remembered.
func (s *Summary) summary(ctx context.Context, cfg config, turns []Turn, k int) (*entry, error) {
	seeds := s.hashSeeds()
	enc := encoders.Get().(*encoder)
	defer encoders.Put(enc)
	enc.start(cfg)
	for i := range turns[:k] {
		enc.turn(&turns[i])
	}
	s.mu.Lock()
	e := s.cache[enc.key(seeds)]
	s.mu.Unlock()
	if e != nil && e.ready() {
		return e, nil
	}

	// Find the latest summary made, then bring it up to date update by
	// update, as a live episode would have.
	n := k / cfg.every
	keys := make([]key, n) // keys[j] names the summary of turns[:(j+1)*every]
	var ha, hb maphash.Hash
	ha.SetSeed(seeds[0])
	hb.SetSeed(seeds[1])
	enc.start(cfg)
	done := 0
	for j := range keys {
		for i := j * cfg.every; i < (j+1)*cfg.every; i++ {
			enc.turn(&turns[i])
		}
		ha.Write(enc.buf[done:])
		hb.Write(enc.buf[done:])
		done = len(enc.buf)
		keys[j] = key{ha.Sum64(), hb.Sum64()}
	}
	var prev *entry
	j := n - 1
	s.mu.Lock()
	for ; j >= 0; j-- {
		if e := s.cache[keys[j]]; e != nil && e.ready() {
			prev = e
			break
		}
	}
	s.mu.Unlock()
	for j++; j < n; j++ {
		var err error
		if prev, err = s.update(ctx, cfg, keys[j], prev, turns, j*cfg.every, (j+1)*cfg.every); err != nil {
			return nil, err
		}
	}
	return prev, nil
}

// update returns the summary named k: prev (nil for none) brought up to
// date with turns[lo:hi]. When another caller is making it, update waits
// for that call; when that call fails, it makes its own.
func (s *Summary) update(ctx context.Context, cfg config, k key, prev *entry, turns []Turn, lo, hi int) (*entry, error) {
	for {
		s.mu.Lock()
		if e := s.cache[k]; e != nil {
			s.mu.Unlock()
			select {
			case <-e.done:
			case <-ctx.Done():
				return nil, fmt.Errorf("memory summary: %w", ctx.Err())
			}
			if e.err == nil {
				return e, nil
			}
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("memory summary: %w", err)
			}
			continue // its maker failed and removed it: make it here
		}
		e := &entry{done: make(chan struct{})}
		s.store(k, e)
		s.mu.Unlock()

		prevText := ""
		if prev != nil {
			prevText = prev.text
		}
		e.text, e.err = s.call(ctx, cfg, prevText, turns, lo, hi)
		if e.err == nil {
			e.msg = SummaryHeader + "\n" + e.text
		} else {
			s.mu.Lock()
			if s.cache[k] == e {
				delete(s.cache, k)
			}
			s.mu.Unlock()
		}
		close(e.done)
		return e, e.err
	}
}

// store remembers e as the summary k, forgetting the oldest summary when
// the cache is full. s.mu must be held.
func (s *Summary) store(k key, e *entry) {
	if s.cache == nil {
		s.cache = make(map[key]*entry)
	}
	s.cache[k] = e
	if len(s.ring) < cacheSize {
		s.ring = append(s.ring, ringSlot{k, e})
		return
	}
	old := s.ring[s.next]
	if s.cache[old.k] == old.e {
		delete(s.cache, old.k)
	}
	s.ring[s.next] = ringSlot{k, e}
	s.next = (s.next + 1) % cacheSize
}

// call asks the model for prev brought up to date with turns[lo:hi].
func (s *Summary) call(ctx context.Context, cfg config, prev string, turns []Turn, lo, hi int) (string, error) {
	a, b := stepNo(lo, &turns[lo]), stepNo(hi-1, &turns[hi-1])
	var sb strings.Builder
	sb.WriteString("Summary so far:\n")
	if prev == "" {
		sb.WriteString("(none yet: these are the first steps)\n")
	} else {
		sb.WriteString(prev)
		sb.WriteString("\n")
	}
	if a == b {
		fmt.Fprintf(&sb, "\nNew step %d:\n", a)
	} else {
		fmt.Fprintf(&sb, "\nNew steps %d-%d:\n", a, b)
	}
	for i := lo; i < hi; i++ {
		render(&sb, i, &turns[i])
	}
	sb.WriteString("\nWrite the updated summary.")
	zero := 0.0
	req := llm.Request{
		Model: cfg.model,
		Messages: []llm.Message{
			{Role: llm.System, Content: cfg.prompt},
			{Role: llm.User, Content: sb.String()},
		},
		Temperature: &zero,
		MaxTokens:   cfg.maxTokens,
		Label:       fmt.Sprintf("memory summary, steps %d-%d", a, b),
	}
	r, err := s.Client.Complete(ctx, req)
	if err != nil {
		return "", fmt.Errorf("memory summary: steps %d-%d: %w", a, b, err)
	}
	if r == nil {
		return "", fmt.Errorf("memory summary: steps %d-%d: no reply", a, b)
	}
	s.mu.Lock()
	s.spent.add(r)
	s.mu.Unlock()
	LedgerFrom(ctx).Add(r)
	text := strings.TrimSpace(r.Content)
	if text == "" {
		return "", fmt.Errorf("memory summary: steps %d-%d: empty reply (finish reason %q)", a, b, r.FinishReason)
	}
	return text, nil
}

// stepNo is the step number of turns[i]: its Step, or i+1 when that is 0.
func stepNo(i int, t *Turn) int {
	if t.Step != 0 {
		return t.Step
	}
	return i + 1
}

// render writes turns[i] for the summariser to read: a line with the
// step, place and score, then the messages the model saw, or, for a turn
// built without messages, its thought, action and observation.
func render(b *strings.Builder, i int, t *Turn) {
	fmt.Fprintf(b, "Step %d", stepNo(i, t))
	if t.Location != "" {
		fmt.Fprintf(b, ", at %s", t.Location)
	}
	fmt.Fprintf(b, ", score %d", t.Score)
	if t.Reward != 0 {
		fmt.Fprintf(b, " (%+d)", t.Reward)
	}
	b.WriteString(":\n")
	if len(t.Messages) == 0 {
		line(b, "thought", t.Thought)
		if t.Tool != "" {
			line(b, "action", t.Tool+" "+argsText(t.Args))
		}
		line(b, "observation", t.Observation)
		return
	}
	for _, m := range t.Messages {
		role := m.Role
		if role == llm.Tool {
			role = "tool result"
		}
		line(b, role, m.Content)
		for _, c := range m.ToolCalls {
			line(b, "tool call", c.Name+" "+c.Arguments)
		}
	}
}

// line writes "label: text" when text is not blank.
func line(b *strings.Builder, label, text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	b.WriteString(label)
	b.WriteString(": ")
	b.WriteString(text)
	b.WriteByte('\n')
}

// argsText is a tool call's arguments as JSON, keys sorted.
func argsText(args map[string]any) string {
	if len(args) == 0 {
		return "{}"
	}
	p, err := json.Marshal(args)
	if err != nil {
		return fmt.Sprint(args)
	}
	return string(p)
}

// hashSeeds returns the seeds of s's hashes, made on first use.
func (s *Summary) hashSeeds() [2]maphash.Seed {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.seeded {
		s.seeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}
		s.seeded = true
	}
	return s.seeds
}

// encoder writes down what a summary covers, to be hashed: the settings,
// then turn by turn everything render shows, each string after its length
// so that no two different inputs read alike. Encoders are reused through
// a pool: a step's lookup then allocates nothing.
type encoder struct{ buf []byte }

var encoders = sync.Pool{New: func() any { return &encoder{buf: make([]byte, 0, 32<<10)} }}

// start empties e and writes cfg.
func (e *encoder) start(cfg config) {
	e.buf = e.buf[:0]
	e.str(cfg.model)
	e.str(cfg.prompt)
	e.int(cfg.maxTokens)
	e.int(cfg.every)
}

func (e *encoder) int(v int) { e.buf = binary.AppendVarint(e.buf, int64(v)) }

func (e *encoder) str(s string) {
	e.int(len(s))
	e.buf = append(e.buf, s...)
}

func (e *encoder) turn(t *Turn) {
	e.int(t.Step)
	e.str(t.Location)
	e.int(t.Score)
	e.int(t.Reward)
	e.int(len(t.Messages))
	if len(t.Messages) == 0 {
		e.str(t.Thought)
		e.str(t.Tool)
		e.str(argsText(t.Args))
		e.str(t.Observation)
		return
	}
	for i := range t.Messages {
		m := &t.Messages[i]
		e.str(m.Role)
		e.str(m.Content)
		e.int(len(m.ToolCalls))
		for _, c := range m.ToolCalls {
			e.str(c.Name)
			e.str(c.Arguments)
		}
	}
}

// key hashes what e holds. A maphash.Hash fed the same bytes in pieces
// gives the same sums, which summary relies on.
func (e *encoder) key(seeds [2]maphash.Seed) key {
	return key{maphash.Bytes(seeds[0], e.buf), maphash.Bytes(seeds[1], e.buf)}
}
