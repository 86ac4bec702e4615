package openai

import (
	"fmt"
	"net/http"
	"regexp"

	"strconv"

	"github.com/grue-lab/grue/internal/lazyregexp"
)

// A request whose prompt and max tokens do not fit the model's context is
// refused with a 400 that names max_tokens (vLLM: "'max_tokens' is too
// large: 400. This model's maximum context length is 4096 tokens and your
// request has 3800 input tokens"; older vLLM and OpenAI: "This model's
// maximum context length is 4096 tokens. However, you requested 4500
// tokens (4100 in the messages, 400 in the completion)"). That is not a
// parameter the endpoint refuses, and must not be learned as one: the
// client lowers max tokens once, to what fits, when the answer says how
// much that is, and otherwise fails with an error that says what to do.

var (
	overflowSays = lazyregexp.New(`(?i)maximum context length|context length|context window|context_length_exceeded|is too large|too many tokens|prompt is too long|exceeds the model`)
	contextSize  = lazyregexp.New(`(?i)maximum context length is (\d+)`)
	promptSize   = lazyregexp.New(`(?i)(\d+) input tokens|\((\d+) in the messages|prompt contains at least (\d+)|prompt \((\d+) tokens\)`)
)

// minFitTokens is the fewest max tokens worth a second try: below it the
// prompt itself is the problem.
const minFitTokens = 16

// overflow is what a 400 says of a request too long for the model's
// context.
type overflow struct {
	context, prompt int // 0 when the answer does not say
}

// contextOverflow reads a failed try's answer: whether it says that the
// request does not fit the model's context.
func contextOverflow(status int, msg string) (overflow, bool) {
	if (status != http.StatusBadRequest && status != http.StatusUnprocessableEntity) || !overflowSays.MatchString(msg) {
		return overflow{}, false
	}
	var o overflow
	if m := contextSize.FindStringSubmatch(msg); m != nil {
		o.context, _ = strconv.Atoi(m[1])
	}
	if m := promptSize.FindStringSubmatch(msg); m != nil {
		for _, g := range m[1:] {
			if g != "" {
				o.prompt, _ = strconv.Atoi(g)
				break
			}
		}
	}
	if o.context == 0 && o.prompt == 0 && !regexp.MustCompile(`(?i)max_(completion_)?tokens|context`).MatchString(msg) {
		return overflow{}, false // "too large" of something else
	}
	return o, true
}

// fit returns the max tokens that fit, when the answer said the context
// and the prompt's size: at least minFitTokens, and fewer than sent.
func (o overflow) fit(sent int) (int, bool) {
	if o.context == 0 || o.prompt == 0 {
		return 0, false
	}
	n := o.context - o.prompt
	return n, n >= minFitTokens && n < sent
}

// overflowError is the error of a request that does not fit the model's
// context and could not be made to.
func overflowError(msg string, sent int) error {
	return fmt.Errorf("the prompt and max tokens (%d) do not fit the model's context (the server: %s): lower max_tokens, shorten the prompt (memory window, memory_budget), or serve the model with a longer context (vLLM's --max-model-len, Ollama's options.num_ctx)", sent, msg)
}
