//go:build ignore

// custom_memory.go writes a memory strategy in the script and gives it to
// the agent: a room journal, which keeps one line for each room the agent
// has been in (what it did there and what it last saw) and the latest
// turns verbatim, so that the prompt stays short however long the episode
// runs and the agent still knows the places it has left.
//
// The model configured in the environment plays with it (OPENAI_API_KEY,
// or OPENAI_BASE_URL and GRUE_MODEL, or HF_TOKEN); without one the
// explorer baseline plays, and the journal is shown as the model would be
// given it.
//
//	grue run scripts/custom_memory.go [STEPS]
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/openai"
	"github.com/grue-lab/grue/agent/memory"
	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/harness"
)

// journal is a memory.Strategy: the agent calls Context before each model
// call with every turn so far.
type journal struct {
	keep  int // latest turns kept verbatim
	calls int // how many times the agent asked
}

func (j *journal) Name() string { return "journal" }

// Context returns the journal of the rooms seen before the latest turns,
// then those turns' own messages. The same turns always give the same
// messages, and turns is left as it is, as memory.Strategy asks.
func (j *journal) Context(ctx context.Context, turns []memory.Turn) ([]llm.Message, error) {
	j.calls++
	cut := len(turns) - j.keep
	if cut < 0 {
		cut = 0
	}
	var rooms []string
	done := map[string][]string{} // room -> commands played there
	seen := map[string]string{}   // room -> the first line of what was last seen there
	note := func(room string) {
		if _, ok := seen[room]; !ok {
			if _, ok := done[room]; !ok {
				rooms = append(rooms, room)
			}
		}
	}
	from := "where you started"
	for _, t := range turns[:cut] {
		if a, ok := t.Args["action"].(string); ok {
			note(from)
			done[from] = append(done[from], a)
		}
		if t.Location != "" {
			note(t.Location)
			first, _, _ := strings.Cut(strings.TrimSpace(t.Observation), "\n")
			seen[t.Location] = first
			from = t.Location
		}
	}
	var msgs []llm.Message
	if len(rooms) > 0 {
		var b strings.Builder
		b.WriteString("Journal of the places you have been:")
		for _, r := range rooms {
			var parts []string
			if len(done[r]) > 0 {
				parts = append(parts, "you tried "+strings.Join(done[r], ", "))
			}
			if seen[r] != "" {
				parts = append(parts, "last you saw: "+seen[r])
			}
			fmt.Fprintf(&b, "\n- %s: %s", r, strings.Join(parts, "; "))
		}
		msgs = append(msgs, llm.Message{Role: llm.User, Content: b.String()})
	}
	for _, t := range turns[cut:] {
		msgs = append(msgs, t.Messages...)
	}
	return msgs, nil
}

func main() {
	steps := 12
	if len(os.Args) > 1 {
		n, err := strconv.Atoi(os.Args[1])
		if err != nil || n < 1 {
			fail(2, "STEPS must be a number from 1, not %q", os.Args[1])
		}
		steps = n
	}
	ctx := context.Background()
	j := &journal{keep: 3}
	a := agent.New(agent.Defaults())
	a.Memory = j
	if cfg := llm.ConfigFromEnv(); cfg.Configured() {
		client, err := openai.New(cfg)
		if err != nil {
			fail(1, "%v", err)
		}
		a.LLM = client
		a.Model = client.Model()
		fmt.Println("model:", a.Model)
	} else {
		a.Policy = agent.NewExplorer(1)
		a.ToolNames = nil // every game tool: the explorer asks valid_actions
		fmt.Println("no model configured: the explorer plays, and the journal is what a model would be given")
	}
	ep, err := harness.NewEpisode(a, stories.DefaultName, 1)
	if err != nil {
		fail(1, "%v", err)
	}
	defer ep.Close()
	res, err := ep.Run(ctx, steps)
	if err != nil {
		fail(1, "%v", err)
	}
	for i := range res.History {
		fmt.Println(&res.History[i])
	}
	fmt.Printf("\nscore %d of %d, %d rooms, %d tokens, stopped by %s %s\n", res.FinalScore, res.MaxScore, res.LocationsVisited, res.Tokens.TotalTokens, res.StoppedBy, res.Error)

	p, err := ep.Prompt(ctx)
	if err != nil {
		fail(1, "prompt: %v", err)
	}
	fmt.Printf("\nThe next prompt (%d messages, ~%d tokens) starts its memory with:\n%s\n", len(p), llm.EstimateMessages(p), p[1].Content)
	// The agent used the script's strategy: it asked, and the journal is
	// in the prompt.
	if j.calls == 0 || !strings.HasPrefix(p[1].Content, "Journal of the places you have been:") {
		fail(1, "the agent did not use the journal (%d calls)", j.calls)
	}
}

func fail(status int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "custom_memory: "+format+"\n", args...)
	os.Exit(status)
}
