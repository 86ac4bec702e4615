package workbench

import (
	"context"
	"errors"
	"fmt"
	"io"

	"strconv"
	"strings"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/lazyregexp"
	"github.com/grue-lab/grue/repl"
)

// The magics of the session's agent episode (EpisodeVar): :step, :play
// and :prompt. Each acts on what ep holds when it runs.

// magics are the workbench's magics, acting on b's session.
func (b *bench) magics() []repl.Magic {
	return []repl.Magic{
		plotMagic(),
		{Name: "step", Usage: "[N]", Help: "play N steps (1) of the agent's episode ep: each step's call, thought and what the game said", Run: b.magicStep},
		{Name: "play", Usage: "COMMAND", Help: "play a command in the agent's episode ep, recorded as a step of its history (in g without an episode)", Run: b.magicPlay},
		{Name: "prompt", Help: "exactly what the model of the episode ep will be sent next", Run: b.magicPrompt},
		{Name: "quiet", Usage: "[on|off]", Help: "whether runs (ep.Run) print a line per step as they play; on by default", Run: b.magicQuiet},
	}
}

// stepObservationLines is how many lines of a step's observation :step
// and :play show; the whole text stays in the step's record.
const stepObservationLines = 4

func (b *bench) magicStep(ctx context.Context, s *repl.Session, args string) error {
	b.inMagic = true
	defer func() { b.inMagic = false }()
	n := 1
	if args != "" {
		var err error
		if n, err = strconv.Atoi(args); err != nil || n < 1 {
			return fmt.Errorf("usage: :step [N], N a number of steps from 1, not %q", args)
		}
	}
	e, err := b.episodeFor(s, "step")
	if err != nil {
		return err
	}
	if a := e.Agent; a != nil && a.LLM == nil && a.Policy == nil {
		return fmt.Errorf(":step: %s", b.noPlayerHint())
	}
	if err := checkPolicyTools(e.Agent); err != nil {
		return fmt.Errorf(":step: %w", err)
	}
	w := s.Stdout()
	for i := 0; i < n; i++ {
		st, err := e.Step(ctx)
		if st != nil && (err == nil || st.Error != "") {
			writeStep(w, st, s.Width())
		}
		if err != nil {
			return stepError(ctx, err, i)
		}
		if st.Done {
			break
		}
	}
	if n > 1 {
		writeStanding(w, e)
	}
	return nil
}

// stepError explains why a step could not be played. The step loop
// stops at a game over or a policy with nothing left, which is an error
// only when not even the first step was played.
func stepError(ctx context.Context, err error, played int) error {
	switch {
	case ctx.Err() != nil:
		return &repl.Error{Kind: repl.KindInterrupted, Msg: "interrupted", Err: ctx.Err()}
	case errors.Is(err, agent.ErrGameOver):
		return errors.New("the game is over: :reset starts afresh, or go on from an earlier state with a fork")
	case errors.Is(err, agent.ErrDone) && played > 0:
		return nil
	}
	return err
}

func (b *bench) magicPlay(ctx context.Context, s *repl.Session, args string) error {
	b.inMagic = true
	defer func() { b.inMagic = false }()
	if args == "" {
		return fmt.Errorf("usage: :play COMMAND")
	}
	e := b.current(s)
	if e == nil {
		return playGame(s, b.currentGame(s), args)
	}
	st, err := playCommand(ctx, e, args)
	if st != nil && (err == nil || st.Error != "") {
		writeStep(s.Stdout(), st, s.Width())
	}
	if err != nil {
		return stepError(ctx, err, 0)
	}
	return nil
}

// playGame plays a command in the game g, for a session without an
// episode.
func playGame(s *repl.Session, g *game.Game, command string) error {
	if g == nil {
		return fmt.Errorf("the session has no game")
	}
	r, err := g.Step(command)
	if err != nil {
		return fmt.Errorf("play %q: %w", command, err)
	}
	w := s.Stdout()
	fmt.Fprintln(w, repl.Fold(strings.TrimRight(r.Observation, "\n"), s.Width()))
	fmt.Fprintf(w, "[Score: %d | Moves: %d]", r.Info.Score, r.Info.Moves)
	if r.Done {
		fmt.Fprint(w, " GAME OVER")
	}
	fmt.Fprintln(w)
	return nil
}

func (b *bench) magicPrompt(ctx context.Context, s *repl.Session, args string) error {
	e, err := b.episodeFor(s, "prompt")
	if err != nil {
		return err
	}
	msgs, err := e.Prompt(ctx)
	if err != nil {
		return fmt.Errorf("prompt: %w", err)
	}
	w := s.Stdout()
	if p := e.Agent.Policy; p != nil {
		fmt.Fprintf(w, "(the %s policy plays this episode, not a model: this is what a model would be sent)\n", p.Name())
	}
	writeMessages(w, msgs)
	return nil
}

// writeMessages writes a chat as the model gets it: each message under a
// rule naming its role, its text as it is.
func writeMessages(w io.Writer, msgs []llm.Message) {
	for _, m := range msgs {
		head := m.Role
		if m.ToolCallID != "" {
			head += " (" + m.ToolCallID + ")"
		}
		fmt.Fprintf(w, "── %s ──\n", head)
		if m.Content != "" {
			fmt.Fprintln(w, strings.TrimRight(m.Content, "\n"))
		}
		for _, c := range m.ToolCalls {
			fmt.Fprintf(w, "tool call %s: %s(%s)\n", c.ID, c.Name, c.Arguments)
		}
	}
}

// scoreLine matches the score line the game server ends play_action's
// text with, which the step's own line already says.
var scoreLine = lazyregexp.New(`^\[Score: -?\d+ \| Moves: -?\d+\]$|^\+\d+ points! \(Total: -?\d+\)$`)

// writeStep writes a step compactly: its line (agent.Step.String), its
// thought, and the first lines of what the tool gave back.
func writeStep(w io.Writer, st *agent.Step, width int) {
	fmt.Fprintln(w, st.String())
	indent := "    "
	inner := max(width-len(indent), 20)
	if t := strings.Join(strings.Fields(st.Thought), " "); t != "" {
		fmt.Fprintln(w, indent+strings.ReplaceAll(repl.Fold("thought: "+t, inner), "\n", "\n"+indent))
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(st.Observation), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || scoreLine.MatchString(l) || l == "GAME OVER" {
			continue
		}
		lines = append(lines, strings.Split(repl.Fold(l, inner), "\n")...)
	}
	for i, l := range lines {
		if i == stepObservationLines {
			fmt.Fprintf(w, "%s… %d more lines (the step's Observation)\n", indent, len(lines)-i)
			break
		}
		fmt.Fprintln(w, indent+l)
	}
}

// writeStanding writes where an episode stands after several steps.
func writeStanding(w io.Writer, e *harness.Episode) {
	a := e.Agent
	score := strconv.Itoa(a.Score)
	if a.MaxScore > 0 {
		score += " of " + strconv.Itoa(a.MaxScore)
	}
	fmt.Fprintf(w, "after %d steps: score %s, %d moves, %d rooms", len(a.History), score, a.Moves, len(a.Locations))
	if a.Location != "" {
		fmt.Fprintf(w, ", in %s", a.Location)
	}
	if a.Done {
		if a.Victory {
			fmt.Fprint(w, ", won")
		} else {
			fmt.Fprint(w, ", game over")
		}
	}
	fmt.Fprintln(w)
}
