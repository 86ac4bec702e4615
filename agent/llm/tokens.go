package llm

import "unicode/utf8"

// EstimateTokens estimates the tokens text costs a model: one per four
// bytes of English-like text, rounded up, as OpenAI's guidance puts it.
// Memory strategies use it to keep within a budget before a call; the
// tokens a call really used come back in its Usage.
func EstimateTokens(text string) int {
	n := (len(text) + 3) / 4
	if r := utf8.RuneCountInString(text); r < len(text) {
		// Text beyond ASCII costs about a token a character.
		return max(r, n)
	}
	return n
}

// messageOverhead is the tokens a chat message costs beyond its text
// (role and separators), as OpenAI counts them for its chat models.
const messageOverhead = 4

// EstimateMessages estimates the tokens msgs cost a model.
func EstimateMessages(msgs []Message) int {
	n := 0
	for _, m := range msgs {
		n += messageOverhead + EstimateTokens(m.Content)
		for _, c := range m.ToolCalls {
			n += EstimateTokens(c.Name) + EstimateTokens(c.Arguments) + messageOverhead
		}
	}
	return n
}
