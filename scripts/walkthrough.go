//go:build ignore

// walkthrough.go plays the built-in story's walkthrough and prints a table
// of the moves that scored, then the final score: the smallest end-to-end
// use of grue's game package from a script.
//
//	grue run scripts/walkthrough.go [SEED]
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/game/stories"
)

// scored is one row of the table: a command that raised the score.
type scored struct {
	Move    int
	Command string
	Reward  int
	Score   int
	Room    string
}

func main() {
	seed := int64(1)
	if len(os.Args) > 1 {
		n, err := strconv.ParseInt(os.Args[1], 10, 64)
		if err != nil {
			fmt.Fprintln(os.Stderr, "walkthrough: SEED must be a number:", err)
			os.Exit(2)
		}
		seed = n
	}
	g, err := game.Open(stories.DefaultName, game.Seed(seed))
	if err != nil {
		fmt.Fprintln(os.Stderr, "walkthrough:", err)
		os.Exit(1)
	}
	var rows []scored
	for i, cmd := range stories.Walkthrough() {
		r, err := g.Step(cmd)
		if err != nil {
			fmt.Fprintf(os.Stderr, "walkthrough: %q: %v\n", cmd, err)
			os.Exit(1)
		}
		if r.Reward > 0 {
			rows = append(rows, scored{i + 1, cmd, r.Reward, r.Info.Score, r.Info.Location})
		}
		if r.Done {
			break
		}
	}
	fmt.Printf("%-5s %-26s %-7s %-6s %s\n", "Move", "Command", "Reward", "Score", "Room")
	for _, r := range rows {
		fmt.Printf("%-5d %-26s %-7d %-6d %s\n", r.Move, r.Command, r.Reward, r.Score, r.Room)
	}
	info := g.Info()
	fmt.Printf("final score %d of %d in %d moves; won: %v\n", info.Score, info.MaxScore, info.Moves, g.Victory())
	if !g.Victory() {
		os.Exit(1)
	}
}
