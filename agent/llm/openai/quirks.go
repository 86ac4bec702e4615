package openai

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/grue-lab/grue/agent/llm"
)

// quirkBook is what a client knows of its endpoint's models: the
// parameters each refuses and whether it reasons. It is safe for
// concurrent use.
type quirkBook struct {
	configured []string // llm.Config.DropParams
	reasoning  *bool    // llm.Config.ReasoningModel
	mu         sync.Mutex
	models     map[string]*modelQuirks
}

// modelQuirks is a snapshot of what is known of one model.
type modelQuirks struct {
	// dropped maps a parameter not sent to why.
	dropped map[string]string
	// reasoning: the model reasons (by name, refused max_tokens, or
	// reasoning seen in a reply).
	reasoning bool
	// byName: reasoning is known before any answer (by the name, o1,
	// o3, o4, gpt-5, or Config.ReasoningModel), which also prefers
	// max_completion_tokens.
	byName bool
}

// of returns a copy of what is known of model.
func (b *quirkBook) of(model string) modelQuirks {
	b.mu.Lock()
	defer b.mu.Unlock()
	q := b.get(model)
	out := *q
	out.dropped = make(map[string]string, len(q.dropped))
	for k, v := range q.dropped {
		out.dropped[k] = v
	}
	return out
}

// get returns model's entry, made on first use: the configured drops and
// the guess from the name. b.mu must be held.
func (b *quirkBook) get(model string) *modelQuirks {
	if b.models == nil {
		b.models = map[string]*modelQuirks{}
	}
	q := b.models[model]
	if q == nil {
		q = &modelQuirks{dropped: map[string]string{}}
		for _, p := range b.configured {
			q.dropped[p] = "drop_params"
		}
		known, why := reasoningName(model), "a reasoning model by its name"
		if b.reasoning != nil {
			known, why = *b.reasoning, "reasoning_model"
		}
		if known {
			q.reasoning, q.byName = true, true
			if _, set := q.dropped["temperature"]; !set {
				// OpenAI's reasoning models take only the default
				// temperature: saves a refused call.
				q.dropped["temperature"] = why
			}
		}
		b.models[model] = q
	}
	return q
}

// refuse records that model refuses param; it reports false when that
// was known already (the same refusal twice must not loop).
func (b *quirkBook) refuse(model, param, why string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	q := b.get(model)
	if _, ok := q.dropped[param]; ok {
		return false
	}
	q.dropped[param] = why
	if param == "max_tokens" {
		q.reasoning = true
	}
	return true
}

// reasons records that model reasons; it reports false when that was
// known already.
func (b *quirkBook) reasons(model string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	q := b.get(model)
	if q.reasoning {
		return false
	}
	q.reasoning = true
	return true
}

// reasons reports whether req goes to a model that reasons.
func (q modelQuirks) reasons(req llm.Request) bool {
	return q.reasoning || (req.ReasoningEffort != "" && req.ReasoningEffort != "none")
}

// tokenKeys are the names max tokens is sent under, preferred first:
// max_tokens, or max_completion_tokens for a reasoning model by its name.
func (q modelQuirks) tokenKeys() [2]string {
	if q.byName {
		return [2]string{"max_completion_tokens", "max_tokens"}
	}
	return [2]string{"max_tokens", "max_completion_tokens"}
}

// preferredTokensKey is the name max tokens is first set under, before
// strip renames or removes it.
func (q modelQuirks) preferredTokensKey() string { return q.tokenKeys()[0] }

// strip removes the parameters q drops from params and says which, with
// why, in order. Max tokens under a dropped name moves to the other name
// unless that is dropped too.
func (q modelQuirks) strip(params wireParams) []string {
	var out []string
	keys := q.tokenKeys()
	if n, sent := params[keys[0]]; sent {
		if why, gone := q.dropped[keys[0]]; gone {
			delete(params, keys[0])
			if _, gone2 := q.dropped[keys[1]]; gone2 {
				out = append(out, keys[0]+" ("+why+")")
			} else {
				params[keys[1]] = n
				out = append(out, keys[0]+" ("+why+"; sent as "+keys[1]+")")
			}
		}
	}
	for p, why := range q.dropped {
		if _, sent := params[p]; sent {
			delete(params, p)
			out = append(out, p+" ("+why+")")
		}
	}
	sort.Strings(out)
	return out
}

// reasoningName reports whether model is by its name one of OpenAI's
// reasoning models: a first guess only, which the endpoint's answers
// correct (a deployment or router name such as openai/gpt-5 is learned).
func reasoningName(model string) bool {
	for _, p := range []string{"o1", "o3", "o4", "gpt-5"} {
		if strings.HasPrefix(model, p) {
			return true
		}
	}
	return false
}

// checkDropParams checks Config.DropParams.
func checkDropParams(ps []string) error {
	for _, p := range ps {
		if !slices.Contains(llm.DroppableParams, p) {
			return fmt.Errorf("llm: drop_params: %q is not a parameter grue can leave out (valid: %s)", p, strings.Join(llm.DroppableParams, ", "))
		}
	}
	return nil
}

// refusedParam finds the parameter a 400 or 422 answer refuses, among the
// droppable ones that were sent: the error's param field, or else the
// first such name its message mentions. "" when none.
func refusedParam(status int, param, msg string, sent wireParams, extra map[string]any) string {
	if status != http.StatusBadRequest && status != http.StatusUnprocessableEntity {
		return ""
	}
	can := func(p string) bool {
		_, ok := sent[p]
		_, mine := extra[p]
		return ok && !mine && slices.Contains(llm.DroppableParams, p)
	}
	if p, _, _ := strings.Cut(strings.SplitN(param, "[", 2)[0], "."); can(p) {
		return p
	}
	best, at := "", -1
	low := strings.ToLower(msg)
	for _, p := range llm.DroppableParams {
		if !can(p) {
			continue
		}
		// The name standing alone: max_tokens is not in
		// max_completion_tokens.
		re := regexp.MustCompile(`(^|[^a-z_])` + p + `([^a-z_]|$)`)
		if loc := re.FindStringIndex(low); loc != nil && (at < 0 || loc[0] < at) {
			best, at = p, loc[0]
		}
	}
	return best
}

// dropped lists what the book leaves out, by model and parameter.
func (b *quirkBook) dropped() []llm.Dropped {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []llm.Dropped
	for model, q := range b.models {
		for p, why := range q.dropped {
			out = append(out, llm.Dropped{Model: model, Param: p, Why: why})
		}
	}
	slices.SortFunc(out, func(a, b llm.Dropped) int {
		if a.Model != b.Model {
			return strings.Compare(a.Model, b.Model)
		}
		return strings.Compare(a.Param, b.Param)
	})
	return out
}
