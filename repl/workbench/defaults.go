package workbench

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/bindings"
	"github.com/grue-lab/grue/game/mcp"
	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/yaegi/interp"
)

// The session's defaults for the agents that cells build. An episode
// that a cell starts, harness.NewEpisode(agent.New(agent.Defaults()),
// "zork1", 1), gets the session's model when its agent has neither a
// model nor a policy, as the CLI's would; and a baseline policy that
// needs a game tool its agent lacks (the explorer and random baselines
// ask valid_actions, which the default four tools leave out) is refused
// loudly rather than playing blind.

// harnessPath is the import path of package harness in the bindings.
const harnessPath = "github.com/grue-lab/grue/harness"

// symbols are grue's bindings with harness.NewEpisode giving the agent
// the session's defaults: the bench that cur returns when the call is
// made (the session's, set by its Setup).
func symbols(cur func() *bench) interp.Exports {
	all := bindings.Symbols()
	out := make(interp.Exports, len(all))
	for k, v := range all {
		out[k] = v
	}
	key := harnessPath + "/harness"
	h := make(map[string]reflect.Value, len(all[key]))
	for name, v := range all[key] {
		h[name] = v
	}
	h["NewEpisode"] = reflect.ValueOf(func(a *agent.Agent, gameName string, seed int64) (*harness.Episode, error) {
		if b := cur(); b != nil {
			b.agentDefaults(a)
		}
		if err := checkPolicyTools(a); err != nil {
			return nil, fmt.Errorf("harness.NewEpisode: %w", err)
		}
		return harness.NewEpisode(a, gameName, seed)
	})
	out[key] = h
	return out
}

// agentDefaults gives a, an agent a cell built, the session's model when
// it has neither a model nor a policy.
func (b *bench) agentDefaults(a *agent.Agent) {
	if a == nil || a.LLM != nil || a.Policy != nil || b.llm == nil {
		return
	}
	a.LLM = b.llm
	if a.Model == "" {
		a.Model = b.model
	}
}

// toolsNeeded are the game tools that a baseline policy asks before it
// acts, by its type.
func toolsNeeded(p agent.Policy) []string {
	switch p.(type) {
	case *agent.ExplorerPolicy, *agent.RandomPolicy:
		return []string{mcp.ToolValidActions}
	}
	return nil
}

// checkPolicyTools refuses an agent whose policy needs a game tool that
// the agent will not have: one left out of its ToolNames (before it is
// connected) or of its Tools (after).
func checkPolicyTools(a *agent.Agent) error {
	if a == nil || a.Policy == nil {
		return nil
	}
	for _, t := range toolsNeeded(a.Policy) {
		has := len(a.ToolNames) == 0 || slices.Contains(a.ToolNames, t)
		if a.Tools != nil {
			_, has = a.Tools.Get(t)
		}
		if !has {
			names := a.ToolNames
			if a.Tools != nil {
				names = a.Tools.Names()
			}
			return fmt.Errorf("the %s policy needs the game tool %s, which this agent lacks (it has %s): "+
				"set ToolNames = nil (every game tool) before harness.NewEpisode, as the session's own ep has, or use a policy that needs none",
				a.Policy.Name(), t, strings.Join(names, ", "))
		}
	}
	return nil
}

// noPlayerHint explains an agent with neither a model nor a policy.
func (b *bench) noPlayerHint() string {
	if b.llm != nil {
		return fmt.Sprintf("the agent has no model (LLM) and no Policy: give it the session's, ep.Agent.LLM = %s's client (harness.NewEpisode does so for an agent without either), or a baseline, ep.Agent.Policy = agent.NewExplorer(1)", b.model)
	}
	return "the agent has no model (LLM) and no Policy: give it a baseline, ep.Agent.Policy = agent.NewExplorer(1) (and ep.Agent.ToolNames = nil before the episode starts), or a model: " + noModelHelp
}
