//go:build ignore

// explore.go maps the built-in story with a frontier explorer written in
// the script: it tries an untried exit of the room it is in, or walks the
// shortest known path to the nearest room that still has one, and prints
// the map it made. An exit that kills the player is undone and not tried
// again. Forking the game first shows branching: the fork explores, the
// original stays where it was.
//
//	grue run scripts/explore.go [STEPS]
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/grue-lab/grue/game"
)

// explorer picks the next command from the map and what it has learnt.
type explorer struct {
	g      *game.Game
	steps  int
	deadly map[string]bool // "room id/command" that killed the player
}

func key(room uint16, cmd string) string { return fmt.Sprintf("%d/%s", room, cmd) }

// untried lists the exits of room still worth trying.
func (e *explorer) untried(m *game.Map, room uint16) []string {
	var out []string
	for _, cmd := range m.Untried(room) {
		if !e.deadly[key(room, cmd)] {
			out = append(out, cmd)
		}
	}
	return out
}

// next returns the command to play, or "" when nothing is left to try.
func (e *explorer) next() string {
	m := e.g.Map()
	here := m.Current()
	if untried := e.untried(m, here); len(untried) > 0 {
		return untried[0]
	}
	for _, room := range m.Frontier() {
		if len(e.untried(m, room)) == 0 {
			continue
		}
		if path := m.Path(here, room); len(path) > 0 {
			return path[0]
		}
	}
	return ""
}

func main() {
	limit := 80
	if len(os.Args) > 1 {
		n, err := strconv.Atoi(os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, "explore: STEPS must be a number:", err)
			os.Exit(2)
		}
		limit = n
	}
	g, err := game.Open("")
	if err != nil {
		fmt.Fprintln(os.Stderr, "explore:", err)
		os.Exit(1)
	}
	fork, err := g.Fork()
	if err != nil {
		fmt.Fprintln(os.Stderr, "explore:", err)
		os.Exit(1)
	}
	e := &explorer{g: fork, deadly: map[string]bool{}}
	for e.steps < limit {
		cmd := e.next()
		if cmd == "" {
			break
		}
		here := fork.Map().Current()
		r, err := fork.Step(cmd)
		if err != nil {
			fmt.Fprintf(os.Stderr, "explore: %q: %v\n", cmd, err)
			os.Exit(1)
		}
		e.steps++
		if r.Done {
			fmt.Printf("%q ends the game there: undone\n", cmd)
			if err := fork.Undo(); err != nil {
				fmt.Fprintln(os.Stderr, "explore:", err)
				os.Exit(1)
			}
			e.deadly[key(here, cmd)] = true
		}
	}
	fmt.Println(fork.Map())
	fmt.Printf("explored %d rooms in %d steps; the original game is still at %s, move %d\n",
		len(fork.Map().Rooms()), e.steps, g.Info().Location, g.Info().Moves)
}
