package memory

import (
	"unicode/utf8"

	"github.com/grue-lab/grue/agent/llm"
)

// SummaryHeader starts the text of every summary message.
const SummaryHeader = "Summary of earlier steps:"

// truncMark ends a summary cut short to fit a budget.
const truncMark = "..."

// compose returns the messages that stand for a summary followed by turns
// kept verbatim, within budget tokens (0: no limit). summary is the whole
// text of the summary message, header included, or "" for none.
//
// Over budget, the oldest turns go first, whole; then the summary is cut
// short, and dropped if even its header does not fit. Whatever is dropped,
// no tool result is left without the tool call it answers.
func compose(summary string, turns []Turn, budget int) []llm.Message {
	start := 0
	if budget > 0 {
		used := 0
		if summary != "" {
			used = estimate(summary)
		}
		start = len(turns)
		for i := len(turns) - 1; i >= 0; i-- {
			t := llm.EstimateMessages(turns[i].Messages)
			if used+t > budget {
				break
			}
			used += t
			start = i
		}
		if summary != "" && used > budget {
			summary = truncate(summary, budget)
		}
	}
	n := 0
	for i := start; i < len(turns); i++ {
		n += len(turns[i].Messages)
	}
	if summary != "" {
		n++
	}
	if n == 0 {
		return nil
	}
	out := make([]llm.Message, 0, n)
	if summary != "" {
		out = append(out, llm.Message{Role: llm.User, Content: summary})
	}
	for i := start; i < len(turns); i++ {
		out = append(out, turns[i].Messages...)
	}
	return pairTools(out)
}

// estimate is the tokens of a summary message whose text is s.
func estimate(s string) int {
	return llm.EstimateMessages([]llm.Message{{Role: llm.User, Content: s}})
}

// truncate cuts the summary message text s short, at a character
// boundary and with a mark, so that its message costs at most budget
// tokens. It returns "" when not even the header fits.
func truncate(s string, budget int) string {
	if estimate(s) <= budget {
		return s
	}
	head := len(SummaryHeader)
	if head > len(s) {
		head = len(s)
	}
	// The mark costs at most a token a byte, however the text around it
	// is counted, so the tokens of a prefix plus len(truncMark) bound the
	// tokens of prefix and mark from above; and a longer prefix never
	// costs less: search for the longest prefix that fits.
	markCost := len(truncMark)
	fits := func(cut int) bool {
		return estimate(s[:cut])+markCost <= budget
	}
	if !fits(head) {
		return ""
	}
	lo, hi := head, len(s) // fits(lo); the answer is in [lo, hi)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	for lo > head && !utf8.RuneStart(s[lo]) {
		lo--
	}
	return s[:lo] + truncMark
}

// pairTools removes, in place, every tool result whose tool call is not in
// an earlier message of msgs. A result without an ID pairs with nothing and
// stays.
func pairTools(msgs []llm.Message) []llm.Message {
	w := 0
	for i := range msgs {
		m := &msgs[i]
		if m.Role == llm.Tool && m.ToolCallID != "" && !called(msgs[:w], m.ToolCallID) {
			continue
		}
		if w != i {
			msgs[w] = *m
		}
		w++
	}
	if w == 0 {
		return nil
	}
	return msgs[:w]
}

// called reports whether an assistant message in msgs made the tool call
// id. The call is usually the message just before, so it looks backwards.
func called(msgs []llm.Message, id string) bool {
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, c := range msgs[i].ToolCalls {
			if c.ID == id {
				return true
			}
		}
	}
	return false
}
