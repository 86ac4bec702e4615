package harness_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/grue-lab/grue/harness"
)

// An experiment built in code: the walkthrough baseline on the built-in
// story from two seeds, one episode at a time.
func ExampleRun() {
	cfg := &harness.Config{
		Name:     "floor",
		Variants: []harness.Variant{{Name: "walkthrough", Policy: harness.PolicyWalkthrough}},
		Games:    []string{"lantern"},
		Seeds:    []int64{1, 2},
		MaxSteps: 300,
		Parallel: 1,
	}
	dir, err := os.MkdirTemp("", "grue-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	rs, err := harness.Run(context.Background(), cfg, harness.RunOptions{Out: filepath.Join(dir, "run")})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rs.Records {
		fmt.Printf("%s: %d of %d, game over: %v, %s\n", r.Key(), r.FinalScore, r.MaxScore, r.GameCompleted, r.Trajectory)
	}
	// Output:
	// walkthrough/lantern/1: 60 of 60, game over: true, trajectories/walkthrough/lantern_1.json
	// walkthrough/lantern/2: 60 of 60, game over: true, trajectories/walkthrough/lantern_2.json
}
