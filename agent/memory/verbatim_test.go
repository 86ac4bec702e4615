package memory

import (
	"testing"

	"github.com/grue-lab/grue/agent/llm"
)

func TestNone(t *testing.T) {
	if msgs := context1(t, NewNone(), textTurns(5)); len(msgs) != 0 {
		t.Fatalf("none gave %d messages", len(msgs))
	}
}

func TestConversationKeepsEverything(t *testing.T) {
	for name, turns := range map[string][]Turn{"text": textTurns(7), "native": nativeTurns(7)} {
		got := context1(t, NewConversation(), turns)
		if !equalMessages(got, messagesOf(turns)) {
			t.Errorf("%s: conversation changed the messages:\n%v", name, got)
		}
	}
	if got := context1(t, NewConversation(), nil); len(got) != 0 {
		t.Errorf("no turns gave %v", got)
	}
}

func TestWindowKeepsLastN(t *testing.T) {
	for name, turns := range map[string][]Turn{"text": textTurns(9), "native": nativeTurns(9)} {
		for _, n := range []int{0, 1, 3, 9, 20} {
			got := context1(t, NewWindow(n), turns)
			want := messagesOf(turns[max(len(turns)-n, 0):])
			if !equalMessages(got, want) {
				t.Errorf("%s window %d: got %d messages, want %d", name, n, len(got), len(want))
			}
		}
	}
}

// A tool result that a turn holds for a call of the turn before (against
// Turn's contract) is dropped when the window cuts between them.
func TestWindowDropsOrphanToolResult(t *testing.T) {
	turns := nativeTurns(4)
	// Move turn 2's tool results into turn 3.
	turns[3].Messages = append(append([]llm.Message(nil), turns[2].Messages[1:]...), turns[3].Messages...)
	turns[2].Messages = turns[2].Messages[:1]
	got := context1(t, NewWindow(1), turns)
	if !equalMessages(got, turns[3].Messages[2:]) {
		t.Fatalf("got %v", got)
	}
	// With the call kept, the results stay.
	got = context1(t, NewWindow(2), turns)
	if !equalMessages(got, messagesOf(turns[2:])) {
		t.Fatalf("window 2 got %v", got)
	}
}

// Under every budget the verbatim strategies give the longest run of
// latest whole turns that fits.
func TestVerbatimBudget(t *testing.T) {
	for name, turns := range map[string][]Turn{"text": textTurns(12), "native": nativeTurns(12)} {
		total := llm.EstimateMessages(messagesOf(turns))
		for budget := 1; budget <= total+10; budget++ {
			for _, s := range []Strategy{&Conversation{Budget: budget}, &Window{N: 8, Budget: budget}} {
				got := context1(t, s, turns)
				if n := llm.EstimateMessages(got); n > budget {
					t.Fatalf("%s %s budget %d: %d tokens", name, s.Name(), budget, n)
				}
				limit := len(turns)
				if w, ok := s.(*Window); ok {
					limit = w.N
				}
				// The longest suffix of whole turns within the limit and budget.
				start := len(turns)
				for start > len(turns)-limit && llm.EstimateMessages(messagesOf(turns[start-1:])) <= budget {
					start--
				}
				if !equalMessages(got, messagesOf(turns[start:])) {
					t.Fatalf("%s %s budget %d: got %d messages, want turns %d..", name, s.Name(), budget, len(got), start)
				}
			}
		}
	}
}
