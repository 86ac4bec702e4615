package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/grue-lab/grue/game"
)

// WalkthroughPolicy replays a known solution, one command a step, in
// order. Once the commands run out, Next returns ErrDone (wrapped), which
// ends an agent's Run cleanly (StoppedBy "policy"); a solution that wins
// ends the game on its last command, so a Run stops there first. Done
// reports whether every command has been played; Reset rewinds.
type WalkthroughPolicy struct {
	// Commands are the commands to replay.
	Commands []string
	next     int
}

// NewWalkthrough returns a policy that replays commands.
func NewWalkthrough(commands []string) *WalkthroughPolicy {
	return &WalkthroughPolicy{Commands: append([]string(nil), commands...)}
}

// NewWalkthroughFor returns a policy that replays the walkthrough of the
// game named name (see Walkthrough).
func NewWalkthroughFor(name string) (*WalkthroughPolicy, error) {
	cmds, err := Walkthrough(name)
	if err != nil {
		return nil, err
	}
	return NewWalkthrough(cmds), nil
}

// Walkthrough returns the solution grue knows for the game named name
// ("lantern", "zork1"; case does not matter): the built-in story's own,
// or the walkthrough file in the games folder ($GRUE_GAMES) that the
// game's catalog entry names. A game without one is an error.
func Walkthrough(name string) ([]string, error) {
	var names []string
	for _, e := range game.Catalog() {
		if !strings.EqualFold(e.Name, name) {
			names = append(names, e.Name)
			continue
		}
		cmds, err := e.Commands()
		if err != nil {
			return nil, fmt.Errorf("walkthrough of %s: %w", e.Name, err)
		}
		if len(cmds) == 0 {
			return nil, fmt.Errorf("walkthrough of %s: grue knows none for this game", e.Name)
		}
		return cmds, nil
	}
	return nil, fmt.Errorf("walkthrough of %q: not a game grue knows (known: %s)", name, strings.Join(names, ", "))
}

// Name is "walkthrough".
func (p *WalkthroughPolicy) Name() string { return "walkthrough" }

// Reset rewinds to the first command.
func (p *WalkthroughPolicy) Reset() { p.next = 0 }

// Clone returns a copy of the policy at the same place in the same
// commands, which then goes on apart from p.
func (p *WalkthroughPolicy) Clone() Policy {
	c := *p
	c.Commands = append([]string(nil), p.Commands...)
	return &c
}

// Done reports whether every command has been played.
func (p *WalkthroughPolicy) Done() bool { return p.next >= len(p.Commands) }

// Next plays the next command of the walkthrough; after the last one it
// returns an error that wraps ErrDone.
func (p *WalkthroughPolicy) Next(ctx context.Context, v View) (Action, error) {
	if err := ctx.Err(); err != nil {
		return Action{}, err
	}
	if p.Done() {
		return Action{}, fmt.Errorf("walkthrough: all %d commands played: %w", len(p.Commands), ErrDone)
	}
	cmd := p.Commands[p.next]
	p.next++
	return playAction(fmt.Sprintf("walkthrough: command %d of %d", p.next, len(p.Commands)), cmd), nil
}
