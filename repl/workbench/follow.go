package workbench

import (
	"context"
	"fmt"
	"strings"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/repl"
)

// Following runs. ep.Run(ctx, 100) in a cell prints a line for each step
// as it is played (agent.Step.String), so that a long run is not silent
// until it ends; the RunResult it returns then shows as a summary that
// says why the run stopped (agent.RunSummary). The session sets the hook
// (Agent.OnStep) on each episode its variables hold that has none: the
// session's own ep, those cells build or fork, from the cell after the
// one that made them. :quiet turns the lines off and on; :step and :play
// print their steps their own way.

// follow hooks the episodes that the session's variables hold.
func (b *bench) follow(s *repl.Session) {
	for _, v := range s.Globals() {
		if !v.IsValid() || !v.CanInterface() {
			continue
		}
		if e, ok := v.Interface().(*harness.Episode); ok && e != nil && e.Agent != nil && e.Agent.OnStep == nil {
			b.hook(s, e)
		}
	}
}

// hook makes e print each step it plays in a Run.
func (b *bench) hook(s *repl.Session, e *harness.Episode) {
	e.Agent.OnStep = func(st *agent.Step) {
		if b.quiet || b.inMagic {
			return
		}
		fmt.Fprintln(s.Stdout(), st.String())
	}
}

func (b *bench) magicQuiet(ctx context.Context, s *repl.Session, args string) error {
	switch strings.ToLower(args) {
	case "":
		b.quiet = !b.quiet
	case "on":
		b.quiet = true
	case "off":
		b.quiet = false
	default:
		return fmt.Errorf("usage: :quiet [on|off]")
	}
	if b.quiet {
		fmt.Fprintln(s.Stdout(), "quiet: runs print no line per step (:quiet off brings them back)")
	} else {
		fmt.Fprintln(s.Stdout(), "runs print a line per step")
	}
	return nil
}
