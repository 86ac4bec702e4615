// Package stories holds the project's own Inform 6 stories, embedded: the
// compiled story files and their walkthroughs. The sources (.inf) sit beside
// them and build.sh rebuilds them.
//
// Lantern is the default story, the game a newcomer meets first: a short,
// fair cave adventure (twelve rooms, 60 points) in which a lantern keeps a
// grue at bay.
package stories

import (
	_ "embed"
	"strings"
)

// DefaultName is the name of the default story.
const DefaultName = "lantern"

// MaxScore is the default story's maximum score; its walkthrough reaches it.
const MaxScore = 60

//go:embed lantern.z5
var lanternZ5 []byte

//go:embed lantern.walkthrough.txt
var lanternWalkthrough string

// Default returns the default story's name and its compiled story file
// (Z-machine version 5). The bytes are shared: callers must not modify them.
func Default() (name string, data []byte) {
	return DefaultName, lanternZ5
}

// Walkthrough returns the commands, one per element, that win the default
// story with the maximum score.
func Walkthrough() []string {
	var cmds []string
	for _, line := range strings.Split(lanternWalkthrough, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			cmds = append(cmds, line)
		}
	}
	return cmds
}
