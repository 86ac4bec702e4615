// Package game is grue's game layer: it finds and opens the story files that
// the rest of grue plays, between the Z-machine interpreter below it
// ([zmachine]) and the agents, harness and command line above it.
//
// [Find] resolves a story name or path to a file, [LoadStory] loads it once
// for many games; [Open] and [New] start a [Game], which plays commands
// ([Game.Step]) and reads score, moves, location, inventory and the whole
// object tree from the machine, with [Game.Save], [Game.Restore],
// [Game.Fork] and [Game.Undo] for branching experiments. The catalog
// ([Catalog], [Lookup], [Games]) recognises known story files by header and
// holds their facts ([Entry]): maximum score, player object, death and
// victory texts and walkthrough. [Game.ValidActions] lists the commands that
// change the world (package [github.com/grue-lab/grue/game/validactions]
// finds them), and [Map] is the map the player has made.
//
// The MCP game server and client, a protocol layer on this package, are in
// package [github.com/grue-lab/grue/game/mcp].
package game

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// GamesEnv names the environment variable that holds the folder of story
// files that Find searches by name.
const GamesEnv = "GRUE_GAMES"

// StoryExts are the story file extensions that Find tries after a bare name,
// in this order: the Z-machine versions, then Blorb files that package a
// Z-machine story (.zblorb, and .zlb as older tools named them).
var StoryExts = []string{".z3", ".z4", ".z5", ".z7", ".z8", ".zblorb", ".zlb"}

// Find resolves nameOrPath to a story file.
//
// A path to an existing file wins. Otherwise, when the GRUE_GAMES
// environment variable names a folder, Find looks there for NAME and then
// NAME with each of [StoryExts] (NAME.z3 to NAME.z8, NAME.zblorb,
// NAME.zlb); NAME may name a file in a folder of the games folder
// ("corpus/candy"), but not an absolute path or one starting with ".". It
// does not check that the file is a story file: loading it does. The
// error lists every place it looked.
func Find(nameOrPath string) (string, error) {
	if nameOrPath == "" {
		return "", errors.New("no story given")
	}
	fi, err := os.Stat(nameOrPath)
	switch {
	case err == nil && fi.IsDir():
		return "", fmt.Errorf("%s: is a directory, not a story file", nameOrPath)
	case err == nil:
		return nameOrPath, nil
	case !errors.Is(err, fs.ErrNotExist):
		return "", err
	}

	looked := []string{nameOrPath}
	dir := os.Getenv(GamesEnv)
	// A name, or a path relative to the games folder ("corpus/candy"), is
	// looked up there; an absolute path or one that starts with "." is a
	// path on its own.
	if dir != "" && !filepath.IsAbs(nameOrPath) && !strings.HasPrefix(nameOrPath, ".") {
		candidates := []string{filepath.Join(dir, nameOrPath)}
		if filepath.Ext(nameOrPath) == "" {
			for _, ext := range StoryExts {
				candidates = append(candidates, filepath.Join(dir, nameOrPath+ext))
			}
		}
		for _, c := range candidates {
			fi, err := os.Stat(c)
			if err == nil && !fi.IsDir() {
				return c, nil
			}
			looked = append(looked, c)
		}
	}
	msg := fmt.Sprintf("story %q not found: looked for %s", nameOrPath, strings.Join(looked, ", "))
	if dir == "" {
		msg += " (set " + GamesEnv + " to a folder of story files to play them by name)"
	}
	return "", errors.New(msg)
}
