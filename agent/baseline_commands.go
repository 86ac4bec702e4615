package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/grue-lab/grue/internal/boundedfile"
)

// BaselineCommands is the policy that replays a command file
// (CommandsPolicy): a walkthrough from elsewhere, under any protocol.
const BaselineCommands = "commands"

// Bounds of a command file (ReadCommands): a walkthrough is a few
// thousand commands of a few words; a file past these is not one.
const (
	MaxCommandsBytes = 1 << 20
	MaxCommands      = 100_000
	MaxCommandLen    = 1000
)

// CommandsPolicy replays the commands of a file, one a step, in order,
// as WalkthroughPolicy does with a game's own walkthrough: after the last
// one Next returns ErrDone (wrapped), which ends a Run cleanly
// (StoppedBy "policy"). TALES's walkthrough agent plays the same way.
type CommandsPolicy struct {
	WalkthroughPolicy
	// File is where the commands came from ("" when given in code).
	File string
}

// NewCommands returns a policy that replays commands, read from file
// (which only names them in its thoughts).
func NewCommands(commands []string, file string) *CommandsPolicy {
	return &CommandsPolicy{WalkthroughPolicy: *NewWalkthrough(commands), File: file}
}

// Name is "commands".
func (p *CommandsPolicy) Name() string { return BaselineCommands }

// Clone returns a copy at the same place in the same commands.
func (p *CommandsPolicy) Clone() Policy {
	c := *p
	c.Commands = append([]string(nil), p.Commands...)
	return &c
}

// Next plays the next command; after the last one it returns an error
// that wraps ErrDone.
func (p *CommandsPolicy) Next(ctx context.Context, v View) (Action, error) {
	if err := ctx.Err(); err != nil {
		return Action{}, err
	}
	if p.Done() {
		return Action{}, fmt.Errorf("commands: all %d commands of %s played: %w", len(p.Commands), p.source(), ErrDone)
	}
	cmd := p.Commands[p.next]
	p.next++
	return playAction(fmt.Sprintf("commands: command %d of %d from %s", p.next, len(p.Commands), p.source()), cmd), nil
}

func (p *CommandsPolicy) source() string {
	if p.File == "" {
		return "the list"
	}
	return p.File
}

// ReadCommands reads a command file: one command a line, "\r\n" or "\n"
// line ends; blank lines and lines starting with "#" are skipped. A file
// larger than MaxCommandsBytes, with more than MaxCommands commands, a
// line longer than MaxCommandLen or a NUL byte is refused, as is a file
// with no command at all; errors name the file (and line).
func ReadCommands(path string) ([]string, error) {
	b, err := boundedfile.ReadFile(path, MaxCommandsBytes)
	if err != nil {
		return nil, fmt.Errorf("commands file: %w", err)
	}
	var out []string
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.ContainsRune(line, 0) {
			return nil, fmt.Errorf("%s:%d: a NUL byte: not a command file", path, i+1)
		}
		if len(line) > MaxCommandLen {
			return nil, fmt.Errorf("%s:%d: a command of %d bytes, more than the limit of %d", path, i+1, len(line), MaxCommandLen)
		}
		if len(out) == MaxCommands {
			return nil, fmt.Errorf("%s:%d: more than %d commands", path, i+1, MaxCommands)
		}
		out = append(out, line)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("commands file %s: no command in it", path)
	}
	return out, nil
}
