//go:build ignore

// memory_ab.go compares memory strategies: the same agent and model play
// the built-in story from the same seeds with each strategy (none, window,
// summary, hybrid), and harness.Compare tabulates, for each, the mean
// score with its bootstrap interval, rooms, invalid actions and tokens,
// and the paired difference from the window strategy over the seeds both
// played.
//
// It needs a model: OPENAI_API_KEY, or OPENAI_BASE_URL and GRUE_MODEL, or
// HF_TOKEN (grue run --model M --base-url URL sets them).
//
//	grue run scripts/memory_ab.go [STEPS] [SEEDS]
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/openai"
	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/harness"
)

// strategies are the memory strategies compared, by the names
// agent.Config.Memory takes; the first is the baseline.
var strategies = []string{"window", "none", "summary", "hybrid"}

func main() {
	steps, seeds := 15, 3
	for i, p := range []*int{&steps, &seeds} {
		if len(os.Args) > i+1 {
			n, err := strconv.Atoi(os.Args[i+1])
			if err != nil || n < 1 {
				fail(2, "STEPS and SEEDS must be numbers from 1, not %q", os.Args[i+1])
			}
			*p = n
		}
	}
	cfg := llm.ConfigFromEnv()
	if !cfg.Configured() {
		fail(2, "a memory comparison needs a model: set OPENAI_API_KEY, or OPENAI_BASE_URL and GRUE_MODEL, or HF_TOKEN (or grue run --model M --base-url URL)")
	}
	client, err := openai.New(cfg)
	if err != nil {
		fail(1, "%v", err)
	}
	ctx := context.Background()

	rs := harness.NewResultSet()
	for seed := int64(1); seed <= int64(seeds); seed++ {
		for _, name := range strategies {
			c := agent.Defaults()
			c.Memory, c.Window = name, 5 // hybrid keeps 5 turns verbatim, and window 5
			llmSeed := int(seed)         // the same for every strategy: only memory differs
			c.Seed = &llmSeed
			a := agent.New(c)
			a.LLM = client
			a.Model = client.Model()
			ep, err := harness.NewEpisode(a, stories.DefaultName, seed)
			if err != nil {
				fail(1, "%v", err)
			}
			ep.Variant = name
			res, err := ep.Run(ctx, steps)
			if err != nil {
				fail(1, "%s, seed %d: %v", name, seed, err)
			}
			rec := ep.Record()
			rec.Model = a.Model
			rs.Add(rec)
			ep.Close()
			fmt.Printf("%-8s seed %d: score %d, %d rooms, %d tokens (%s)\n", name, seed, res.FinalScore, res.LocationsVisited, res.Tokens.TotalTokens, res.StoppedBy)
		}
	}
	fmt.Println()
	cmp, err := harness.Compare(rs, strategies[0], harness.CompareOptions{})
	if err != nil {
		fail(1, "compare: %v", err)
	}
	if err := cmp.WriteTable(os.Stdout); err != nil {
		fail(1, "%v", err)
	}
}

func fail(status int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "memory_ab: "+format+"\n", args...)
	os.Exit(status)
}
