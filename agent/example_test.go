package agent_test

import (
	"context"
	"fmt"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/game/mcp"
)

// An agent on the default story, with a scripted model whose first reply
// is messy: the step records what was repaired.
func ExampleAgent_Step() {
	ctx := context.Background()
	c, err := mcp.NewInProcessClient()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()

	a := agent.New(agent.Defaults())
	a.LLM = llm.NewScripted().
		Text("**THOUGHT:** A shed!\n**TOOL:** Play\n**ARGS:** {'action': 'walk west'}").
		Text("THOUGHT: Open it.\nTOOL: play_action\nARGS: {\"action\": \"check toolbox\"}")
	if err := a.Connect(ctx, c); err != nil {
		fmt.Println(err)
		return
	}
	for range 2 {
		st, err := a.Step(ctx)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("step %d: %s %v in %s\n", st.Step, st.Tool, st.Args["action"], st.Location)
		for _, r := range st.Repairs {
			switch {
			case r.Kind == agent.RepairMarkdown:
			case r.To == "":
				fmt.Printf("  %s: %s\n", r.Kind, r.Detail)
			default:
				fmt.Printf("  %s: %s -> %s\n", r.Kind, r.From, r.To)
			}
		}
	}
	// Output:
	// step 1: play_action west in Wooden Shed
	//   single-quotes: read single-quoted strings
	//   tool-name: Play -> play_action
	//   verb: walk west -> west
	// step 2: play_action examine toolbox in Wooden Shed
	//   verb: check toolbox -> examine toolbox
}

// commands is a policy a script might write: it plays a list of
// commands, then says it is done.
type commands struct {
	list []string
	next int
}

func (p *commands) Name() string { return "commands" }

func (p *commands) Next(ctx context.Context, v agent.View) (agent.Action, error) {
	if p.next >= len(p.list) {
		return agent.Action{}, agent.ErrDone
	}
	p.next++
	return agent.Action{Tool: "play_action", Args: map[string]any{"action": p.list[p.next-1]}}, nil
}

// Run plays an episode to its end or a limit, and gives the earlier Python agent's
// result; a policy plays without a model.
func ExampleAgent_Run() {
	ctx := context.Background()
	c, err := mcp.NewInProcessClient()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()

	cfg := agent.Defaults()
	cfg.Limits.MaxSteps = 3
	a := agent.New(cfg)
	a.Policy = &commands{list: []string{"west", "open toolbox", "take lantern", "east"}}
	if err := a.Connect(ctx, c); err != nil {
		fmt.Println(err)
		return
	}
	res, err := a.Run(ctx, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.StoppedBy, res.Steps, res.Moves, res.Locations)
	// Output:
	// steps 3 3 [Meadow Wooden Shed]
}
