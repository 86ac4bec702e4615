//go:build ignore

// prompt_ab.go is a prompt A/B on one game state. The agent reaches a
// state of the built-in story (the walkthrough's first two commands: into
// the shed, the toolbox opened), the episode is forked, the fork's system
// prompt gets one more instruction, and both play on from the same state,
// with the same model, memory and seeds. It prints what each did, step by
// step, and how each ended.
//
// It needs a model: OPENAI_API_KEY, or OPENAI_BASE_URL and GRUE_MODEL, or
// HF_TOKEN (grue run --model M --base-url URL sets them).
//
//	grue run scripts/prompt_ab.go [STEPS] [INSTRUCTION]
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/openai"
	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/harness"
)

// prefix is how many walkthrough commands bring the game to the state
// that A and B start from.
const prefix = 2

func main() {
	steps := 8
	instruction := "Always take anything you find that could be useful, a light above all."
	if len(os.Args) > 1 {
		n, err := strconv.Atoi(os.Args[1])
		if err != nil || n < 1 {
			fail(2, "STEPS must be a number from 1, not %q", os.Args[1])
		}
		steps = n
	}
	if len(os.Args) > 2 {
		instruction = os.Args[2]
	}
	cfg := llm.ConfigFromEnv()
	if !cfg.Configured() {
		fail(2, "a prompt A/B needs a model: set OPENAI_API_KEY, or OPENAI_BASE_URL and GRUE_MODEL, or HF_TOKEN (or grue run --model M --base-url URL)")
	}
	client, err := openai.New(cfg)
	if err != nil {
		fail(1, "%v", err)
	}
	ctx := context.Background()

	a := agent.New(agent.Defaults())
	a.LLM = client // one field at a time: see "yaegi's gaps" in docs/repl.md
	a.Model = client.Model()
	ep, err := harness.NewEpisode(a, stories.DefaultName, 1)
	if err != nil {
		fail(1, "%v", err)
	}
	defer ep.Close()

	// The state to compare from: the walkthrough's first commands, played
	// by a policy and recorded in the history like any other step.
	cmds, err := agent.Walkthrough(stories.DefaultName)
	if err != nil {
		fail(1, "%v", err)
	}
	a.Policy = agent.NewWalkthrough(cmds[:prefix])
	if _, err := ep.Run(ctx, prefix); err != nil {
		fail(1, "reach the state: %v", err)
	}
	a.Policy = nil // the model plays from here
	fmt.Printf("state after %d steps: %s, score %d\n", prefix, a.Location, a.Score)
	fmt.Printf("A: the default system prompt\nB: the default system prompt and %q\n\n", instruction)

	alt, err := ep.Fork()
	if err != nil {
		fail(1, "fork: %v", err)
	}
	defer alt.Close()
	alt.Agent.System += "\n" + instruction
	// The fork's prompt, not the original's, carries the instruction.
	pa, errA := ep.Prompt(ctx)
	pb, errB := alt.Prompt(ctx)
	if errA != nil || errB != nil || strings.Contains(pa[0].Content, instruction) || !strings.Contains(pb[0].Content, instruction) {
		fail(1, "the fork's system prompt is not the original's plus the instruction (%v, %v)", errA, errB)
	}

	resA, err := ep.Run(ctx, steps)
	if err != nil {
		fail(1, "A: %v", err)
	}
	resB, err := alt.Run(ctx, steps)
	if err != nil {
		fail(1, "B: %v", err)
	}

	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "step\tA\tB")
	n := len(resA.History)
	if len(resB.History) > n {
		n = len(resB.History)
	}
	for i := prefix; i < n; i++ {
		fmt.Fprintf(w, "%d\t%s\t%s\n", i+1, brief(resA.History, i), brief(resB.History, i))
	}
	w.Flush()
	fmt.Println()
	w = tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "variant\tscore\tgained\trooms\tinvalid\ttokens\tended")
	for _, v := range []struct {
		name string
		e    *harness.Episode
		r    *agent.RunResult
	}{{"A", ep, resA}, {"B", alt, resB}} {
		rec := v.e.Record()
		gained := rec.FinalScore - rec.ScoreAt(prefix)
		fmt.Fprintf(w, "%s\t%d of %d\t%+d\t%d\t%d\t%d\t%s %s\n", v.name, rec.FinalScore, rec.MaxScore, gained,
			rec.LocationsVisited, rec.InvalidActions, rec.Tokens.TotalTokens, v.r.StoppedBy, v.r.Error)
	}
	w.Flush()
}

// brief is step i of h in a few words: the command, where it led, the
// score.
func brief(h []agent.Step, i int) string {
	if i >= len(h) {
		return ""
	}
	s := h[i]
	what := s.Tool
	if a, ok := s.Args["action"].(string); ok {
		what = a
	}
	return fmt.Sprintf("%s -> %s (%d)", what, s.Location, s.Score)
}

func fail(status int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "prompt_ab: "+format+"\n", args...)
	os.Exit(status)
}
