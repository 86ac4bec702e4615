package memory

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/grue-lab/grue/agent/llm"
)

// play calls s.Context as an episode does, once per step, with the turns
// so far, and returns the last messages.
func play(t *testing.T, s Strategy, turns []Turn) []llm.Message {
	t.Helper()
	var msgs []llm.Message
	for n := 0; n <= len(turns); n++ {
		msgs = context1(t, s, turns[:n])
	}
	return msgs
}

func TestSummarySummarisesEachTurnOnce(t *testing.T) {
	c := summariser()
	s := NewSummary(c, "small-model")
	turns := textTurns(6)
	msgs := play(t, s, turns)

	reqs := c.Requests()
	if len(reqs) != 6 {
		t.Fatalf("%d summary calls for 6 turns, want 6", len(reqs))
	}
	for i, r := range reqs {
		if want := fmt.Sprintf("memory summary, steps %d-%d", i+1, i+1); r.Label != want {
			t.Errorf("call %d label %q, want %q", i, r.Label, want)
		}
		if r.Temperature == nil || *r.Temperature != 0 {
			t.Errorf("call %d temperature %v, want 0", i, r.Temperature)
		}
		if r.Model != "small-model" || r.MaxTokens != DefaultSummaryMaxTokens {
			t.Errorf("call %d model %q max tokens %d", i, r.Model, r.MaxTokens)
		}
		if r.Messages[0].Role != llm.System || r.Messages[0].Content != DefaultSummaryPrompt {
			t.Errorf("call %d system prompt %q", i, r.Messages[0].Content)
		}
		user := r.Messages[1].Content
		// The new turn, and only it, is in the request.
		if !strings.Contains(user, turns[i].Observation) || !strings.Contains(user, "go north "+fmt.Sprint(i)) {
			t.Errorf("call %d lacks its turn:\n%s", i, user)
		}
		if i > 0 && strings.Contains(user, fmt.Sprintf("Room %d.", i-1)) {
			t.Errorf("call %d resends turn %d:\n%s", i, i-1, user)
		}
		// It builds on the summary so far.
		if i > 0 && !strings.Contains(user, fmt.Sprintf("Notes up to steps %d-%d", i, i)) {
			t.Errorf("call %d does not carry the summary so far:\n%s", i, user)
		}
	}
	if len(msgs) != 1 || msgs[0].Role != llm.User || !strings.HasPrefix(msgs[0].Content, SummaryHeader+"\n") ||
		!strings.Contains(msgs[0].Content, "Notes up to steps 6-6") {
		t.Fatalf("pure summary gave %v", msgs)
	}
	// The same turns again: the same messages, no new call.
	again := context1(t, s, turns)
	if !equalMessages(again, msgs) || len(c.Requests()) != 6 {
		t.Fatalf("second call differs or called the model (%d calls)", len(c.Requests()))
	}
	if got := s.Spent(); got.Calls != 6 || got.Usage.TotalTokens != 660 || got.Cost != 3 {
		t.Errorf("spent %+v", got)
	}
}

func TestHybridKeepsLastNVerbatim(t *testing.T) {
	for name, turns := range map[string][]Turn{"text": textTurns(10), "native": nativeTurns(10)} {
		c := summariser()
		h := NewHybrid(3, c, "")
		got := play(t, h, turns)
		if len(c.Requests()) != 7 {
			t.Errorf("%s: %d summary calls, want 7", name, len(c.Requests()))
		}
		if !strings.HasPrefix(got[0].Content, SummaryHeader) || !strings.Contains(got[0].Content, "steps 7-7") {
			t.Errorf("%s: first message %q", name, got[0].Content)
		}
		if !equalMessages(got[1:], messagesOf(turns[7:])) {
			t.Errorf("%s: verbatim part %v", name, got[1:])
		}
	}
	// Fewer turns than N: no summary, no call.
	c := summariser()
	got := play(t, NewHybrid(5, c, ""), textTurns(5))
	if len(c.Requests()) != 0 || !equalMessages(got, messagesOf(textTurns(5))) {
		t.Errorf("5 turns, N 5: %d calls, %d messages", len(c.Requests()), len(got))
	}
}

func TestSummaryEvery(t *testing.T) {
	c := summariser()
	s := &Summary{Client: c, Every: 4, Keep: 1}
	turns := textTurns(11)
	got := play(t, s, turns)
	// Turns 1-4 and 5-8 are summarised; 9-11 stay verbatim (10 is not a
	// multiple of 4).
	var labels []string
	for _, r := range c.Requests() {
		labels = append(labels, r.Label)
	}
	if want := "memory summary, steps 1-4|memory summary, steps 5-8"; strings.Join(labels, "|") != want {
		t.Fatalf("calls %q", labels)
	}
	if !equalMessages(got[1:], messagesOf(turns[8:])) {
		t.Fatalf("verbatim part %v", got[1:])
	}
}

// A fresh strategy given a whole history at once makes the same requests
// as one that followed the episode step by step, and gives the same
// messages: a run replays from the response cache whenever it resumes.
func TestSummaryDeterministicFromColdStart(t *testing.T) {
	turns := nativeTurns(9)
	live, cold := summariser(), summariser()
	a := play(t, NewHybrid(2, live, "m"), turns)
	b := context1(t, NewHybrid(2, cold, "m"), turns)
	if !equalMessages(a, b) {
		t.Fatalf("live and cold differ:\n%v\n%v", a, b)
	}
	lr, cr := live.Requests(), cold.Requests()
	if len(lr) != len(cr) {
		t.Fatalf("%d live calls, %d cold", len(lr), len(cr))
	}
	for i := range lr {
		if fmt.Sprint(lr[i].Messages) != fmt.Sprint(cr[i].Messages) {
			t.Fatalf("request %d differs", i)
		}
	}
}

// An episode and its fork share one strategy: each gets the summary of its
// own turns, as a strategy of its own would give, and their common past is
// summarised once.
func TestSummaryForkSharing(t *testing.T) {
	base := textTurns(10)
	fork := append(append([]Turn(nil), base[:6]...), textTurns(10)[6:]...)
	for i := 6; i < 10; i++ {
		fork[i].Observation = fmt.Sprintf("Forked room %d.", i)
		fork[i].Messages = []llm.Message{fork[i].Messages[0], {Role: llm.User, Content: fork[i].Observation}}
	}
	shared := summariser()
	h := NewHybrid(2, shared, "")
	var ma, mb []llm.Message
	for n := 0; n <= 10; n++ { // interleave the two episodes
		ma = context1(t, h, base[:n])
		if n >= 6 {
			mb = context1(t, h, fork[:n])
		}
	}
	wantA := context1(t, NewHybrid(2, summariser(), ""), base)
	wantB := context1(t, NewHybrid(2, summariser(), ""), fork)
	if !equalMessages(ma, wantA) || !equalMessages(mb, wantB) {
		t.Fatalf("shared strategy gave a summary of the other episode:\n%v\n%v", ma[0], mb[0])
	}
	if equalMessages(ma[:1], mb[:1]) {
		t.Fatal("the two episodes got one summary")
	}
	// 8 summaries for each (of turns 1 to 1-8), the 6 of the common
	// turns made once: 8 + 2 calls.
	if n := len(shared.Requests()); n != 10 {
		t.Fatalf("%d calls, want 10", n)
	}
}

func TestSummaryConcurrentCallersShareCalls(t *testing.T) {
	c := summariser()
	h := NewHybrid(1, c, "")
	turns := nativeTurns(30)
	want := context1(t, NewHybrid(1, summariser(), ""), turns)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			msgs, err := h.Context(context.Background(), turns)
			if err == nil && !equalMessages(msgs, want) {
				err = errors.New("wrong messages")
			}
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n := len(c.Requests()); n != 29 {
		t.Fatalf("%d calls for 29 summarised turns", n)
	}
}

func TestSummaryLedger(t *testing.T) {
	c := summariser()
	h := NewHybrid(2, c, "")
	turns := textTurns(5)
	var l1, l2 Ledger
	if _, err := h.Context(WithLedger(context.Background(), &l1), turns[:4]); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Context(WithLedger(context.Background(), &l2), turns); err != nil {
		t.Fatal(err)
	}
	if got := l1.Take(); len(got) != 2 || got[0].Usage.TotalTokens != 110 {
		t.Fatalf("first ledger %v", got)
	}
	if got := l1.Take(); len(got) != 0 {
		t.Fatalf("Take twice gave %v", got)
	}
	if got := l2.Take(); len(got) != 1 {
		t.Fatalf("second ledger has %d replies, want the one new call", len(got))
	}
	if sp := h.Spent(); sp.Calls != 3 || sp.Cost != 1.5 {
		t.Fatalf("spent %+v", sp)
	}
}

func TestSummaryErrors(t *testing.T) {
	boom := errors.New("server on fire")
	c := llm.NewScripted().Text("first notes").Error(boom)
	c.Fallback = summariser().Fallback
	s := NewSummary(c, "")
	turns := textTurns(3)
	if _, err := s.Context(context.Background(), turns[:1]); err != nil {
		t.Fatal(err)
	}
	_, err := s.Context(context.Background(), turns[:2])
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "memory summary: steps 2-2") {
		t.Fatalf("error %v", err)
	}
	// The failure is not remembered: the next call tries again.
	msgs, err := s.Context(context.Background(), turns[:2])
	if err != nil || !strings.Contains(msgs[0].Content, "steps 2-2") {
		t.Fatalf("retry: %v %v", msgs, err)
	}

	empty := NewSummary(llm.NewScripted().Text("  "), "")
	if _, err := empty.Context(context.Background(), turns[:1]); err == nil || !strings.Contains(err.Error(), "empty reply") {
		t.Fatalf("empty summary: %v", err)
	}
	if _, err := (&Summary{}).Context(context.Background(), turns); err == nil {
		t.Fatal("no client, no error")
	}
	if _, err := (Hybrid{N: 1}).Context(context.Background(), turns); err == nil {
		t.Fatal("hybrid without summary, no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewSummary(summariser(), "").Context(ctx, turns); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

// Over budget, a hybrid drops its oldest verbatim turns, then cuts the
// summary short, then drops it; it never exceeds the budget and never
// breaks a tool call from its result.
func TestHybridBudget(t *testing.T) {
	for name, turns := range map[string][]Turn{"text": textTurns(12), "native": nativeTurns(12)} {
		h := NewHybrid(4, summariser(), "")
		full := context1(t, h, turns)
		sumTokens := llm.EstimateMessages(full[:1])
		total := llm.EstimateMessages(full)
		for budget := 1; budget <= total+5; budget++ {
			h.Budget = budget
			got := context1(t, h, turns)
			if n := llm.EstimateMessages(got); n > budget {
				t.Fatalf("%s budget %d: %d tokens", name, budget, n)
			}
			switch {
			case budget >= total:
				if !equalMessages(got, full) {
					t.Fatalf("%s budget %d: not everything", name, budget)
				}
			case budget >= sumTokens:
				// The whole summary, then the latest whole turns that fit.
				if !equalMessages(got[:1], full[:1]) {
					t.Fatalf("%s budget %d: summary changed", name, budget)
				}
				start := len(turns)
				for start > 8 && sumTokens+llm.EstimateMessages(messagesOf(turns[start-1:])) <= budget {
					start--
				}
				if !equalMessages(got[1:], messagesOf(turns[start:])) {
					t.Fatalf("%s budget %d: verbatim part", name, budget)
				}
			case len(got) == 1:
				c := got[0].Content
				if !strings.HasPrefix(c, SummaryHeader) || !strings.HasSuffix(c, "...") || !strings.HasPrefix(full[0].Content, strings.TrimSuffix(c, "...")) {
					t.Fatalf("%s budget %d: cut summary %q", name, budget, c)
				}
			case len(got) != 0:
				t.Fatalf("%s budget %d: %v", name, budget, got)
			}
		}
	}
}

func TestTruncateNonASCII(t *testing.T) {
	s := SummaryHeader + "\nLe trésor est caché sous l’érable, près du ruisseau à l’est."
	for budget := 1; budget < estimate(s)+2; budget++ {
		got := truncate(s, budget)
		if got != "" && estimate(got) > budget {
			t.Fatalf("budget %d: %q costs %d", budget, got, estimate(got))
		}
		if !strings.HasPrefix(s, strings.TrimSuffix(got, "...")) || !utf8.ValidString(got) {
			t.Fatalf("budget %d: %q", budget, got)
		}
	}
}

// A script's turns may carry no messages: the summariser then reads their
// thought, action and observation.
func TestSummaryTurnsWithoutMessages(t *testing.T) {
	turns := textTurns(2)
	for i := range turns {
		turns[i].Messages = nil
	}
	c := summariser()
	msgs := play(t, NewHybrid(1, c, ""), turns)
	reqs := c.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d calls", len(reqs))
	}
	user := reqs[0].Messages[1].Content
	for _, want := range []string{"Step 1, at Room 0, score 0:", "thought: explore 0", `action: play_action {"action":"go north 0"}`, "observation: Room 0."} {
		if !strings.Contains(user, want) {
			t.Errorf("request lacks %q:\n%s", want, user)
		}
	}
	if len(msgs) != 1 {
		t.Errorf("want the summary alone (turn 2 has no messages), got %v", msgs)
	}
	// The same strategy asked again: no call; with an argument changed,
	// the turn is another, and so is its summary.
	h := NewHybrid(1, c, "")
	context1(t, h, turns)
	context1(t, h, turns)
	if n := len(c.Requests()); n != 2 {
		t.Fatalf("%d calls, want 2", n)
	}
	turns[0].Args = map[string]any{"action": "go south"}
	context1(t, h, turns)
	if n := len(c.Requests()); n != 3 || !strings.Contains(c.Requests()[2].Messages[1].Content, "go south") {
		t.Fatalf("%d calls; changed turn not summarised anew", n)
	}
}
