//go:build ignore

// stepthrough.go steps through an episode of the built-in story with a
// prompt builder written in the script: a compact prompt that gives the
// model one line for each remembered step ("step 3: open toolbox -> You
// open the battered toolbox...") instead of the whole conversation. At
// each step it prints the step, the thought, and the size of the prompt
// against the default builder's for the same state; at the end, the
// compact prompt in full.
//
// The model configured in the environment plays (OPENAI_API_KEY, or
// OPENAI_BASE_URL and GRUE_MODEL, or HF_TOKEN); without one the explorer
// baseline plays, and the prompts are what a model would be sent.
//
//	grue run scripts/stepthrough.go [STEPS]
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
	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/harness"
)

// compact is the script's prompt builder: the default prompt's system
// message and state, with the remembered steps as one log message.
type compact struct {
	agent.DefaultPrompt
}

// logHeader starts the message that holds the log of steps.
const logHeader = "Your steps so far, oldest first:"

// Messages puts the memory's messages (compact turns: see Turn) into one
// user message after the system prompt.
func (p compact) Messages(in agent.PromptInput) []llm.Message {
	var log []string
	for _, m := range in.Context {
		log = append(log, m.Content)
	}
	in.Context = nil
	msgs := p.DefaultPrompt.Messages(in) // the system message, then the state
	if len(log) == 0 {
		return msgs
	}
	note := llm.Message{Role: llm.User, Content: logHeader + "\n" + strings.Join(log, "\n")}
	out := []llm.Message{msgs[0], note}
	return append(out, msgs[1:]...)
}

// Turn is how a played step is remembered: one line.
func (p compact) Turn(s *agent.Step) []llm.Message {
	what := s.Tool
	if a, ok := s.Args["action"].(string); ok {
		what = a
	}
	seen, _, _ := strings.Cut(strings.TrimSpace(s.Observation), "\n")
	return []llm.Message{{Role: llm.User, Content: fmt.Sprintf("step %d: %s -> %s (score %d)", s.Step, what, seen, s.Score)}}
}

// mirror is a policy that plays one given action: the shadow episode's.
type mirror struct{ act agent.Action }

func (m mirror) Name() string { return "mirror" }

func (m mirror) Next(ctx context.Context, v agent.View) (agent.Action, error) { return m.act, nil }

func main() {
	steps := 6
	if len(os.Args) > 1 {
		n, err := strconv.Atoi(os.Args[1])
		if err != nil || n < 1 {
			fail(2, "STEPS must be a number from 1, not %q", os.Args[1])
		}
		steps = n
	}
	ctx := context.Background()
	a := agent.New(agent.Defaults())
	a.Builder = compact{}
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
		fmt.Println("no model configured: the explorer plays, and each prompt is what a model would be sent")
	}
	// The default builder makes the same state's prompt in a shadow
	// episode that plays the same commands.
	shadow := agent.New(agent.Defaults())
	ep, err := harness.NewEpisode(a, stories.DefaultName, 1)
	if err != nil {
		fail(1, "%v", err)
	}
	defer ep.Close()
	other, err := harness.NewEpisode(shadow, stories.DefaultName, 1)
	if err != nil {
		fail(1, "%v", err)
	}
	defer other.Close()

	for i := 0; i < steps; i++ {
		p, err := ep.Prompt(ctx)
		if err != nil {
			fail(1, "prompt: %v", err)
		}
		d, err := other.Prompt(ctx)
		if err != nil {
			fail(1, "prompt: %v", err)
		}
		st, err := ep.Step(ctx)
		if err != nil {
			fail(1, "step %d: %v", i+1, err)
		}
		fmt.Println(st)
		if st.Thought != "" {
			fmt.Println("    thought:", st.Thought)
		}
		fmt.Printf("    prompt: %d messages, ~%d tokens (the default builder's: %d messages, ~%d tokens)\n",
			len(p), llm.EstimateMessages(p), len(d), llm.EstimateMessages(d))
		// The shadow makes the same call, so that both states stay equal.
		shadow.Policy = mirror{agent.Action{Thought: st.Thought, Tool: st.Tool, Args: st.Args}}
		if _, err := other.Step(ctx); err != nil {
			fail(1, "shadow step %d: %v", i+1, err)
		}
		if st.Done {
			break
		}
	}
	final, err := ep.Prompt(ctx)
	if err != nil {
		fail(1, "prompt: %v", err)
	}
	fmt.Println("\nThe next prompt, but for the system message (the default's):")
	for _, m := range final[1:] {
		fmt.Printf("── %s ──\n%s\n", m.Role, m.Content)
	}
	// The agent used the script's builder: its log is in the prompt.
	if len(final) < 2 || !strings.HasPrefix(final[1].Content, logHeader+"\nstep 1: ") {
		fail(1, "the prompt does not hold the compact log of steps: the builder was not used")
	}
}

func fail(status int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "stepthrough: "+format+"\n", args...)
	os.Exit(status)
}
