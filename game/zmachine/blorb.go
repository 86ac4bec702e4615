package zmachine

import (
	"errors"
	"fmt"

	"github.com/grue-lab/grue/game/blorb"
)

// Blorb files. Most games released since the early 2000s, and most of
// those on the IF Archive and IFDB, come as a Blorb file (.zblorb, .zlb):
// an IFF FORM of type IFRS that packages the story with its cover art,
// sounds and bibliographic data (the Blorb specification 2.0). Its
// resource index (the RIdx chunk, first in the file) names the
// executable resource 0, the game itself, by the offset of its chunk; a
// Z-machine game's chunk is ZCOD, and holds the story file's bytes
// unchanged. [Load] takes the story out of a Blorb file, and names what
// it finds instead when the game is not a Z-machine one.

// errGlulx is Load's answer to a Glulx game, raw (.ulx) or in a Blorb
// file (.gblorb): the commonest story that is not a Z-machine one.
var errGlulx = errors.New("zmachine: a Glulx game, not a Z-machine one: grue play and grue games take it (package glulx), but the research environment (agent, MCP, REPL, experiments) runs Z-machine games only, versions 3, 4, 5, 7 and 8")

// storyBytes returns the Z-machine story in data: data itself, or the
// story a Blorb file packages, with the file's metadata (its IFmd chunk,
// nil when it has none). Other formats that are recognisable from their
// first bytes are refused by name.
func storyBytes(data []byte) (story, meta []byte, err error) {
	switch {
	case len(data) >= 12 && string(data[:4]) == "FORM" && string(data[8:12]) == "IFRS":
		return blorbStory(data)
	case len(data) >= 12 && string(data[:4]) == "FORM" && string(data[8:12]) == "IFZS":
		return nil, nil, errors.New("zmachine: a Quetzal saved game, not a story file: load the story, then restore the save into it")
	case len(data) >= 4 && string(data[:4]) == "Glul":
		return nil, nil, errGlulx
	}
	return data, nil, nil
}

// blorbStory returns the Z-machine story of the Blorb file data: the
// chunk that the resource index names as executable resource 0, or,
// where a file has no usable index, its first executable chunk. Every
// length and offset is checked against the file; an error names the
// chunk or the offset that is wrong. A file cut short, or whose FORM
// claims more than it holds, still loads when the game's chunk is whole,
// as other interpreters load it: only the resources after it are lost.
// meta is the file's iFiction record (the IFmd chunk), nil when it has
// none.
func blorbStory(data []byte) (story, meta []byte, err error) {
	chunks, cut := blorb.Chunks(data)
	exec, err := blorb.Exec(data, chunks)
	switch {
	case err != nil && cut != nil:
		return nil, nil, fmt.Errorf("zmachine: %w", cut) // the game is in, or beyond, what is missing
	case errors.Is(err, blorb.ErrNoGame):
		return nil, nil, errors.New("zmachine: blorb file: it holds no game, only resources (pictures, sounds, data): give grue the story file (.z5, .z8, ...) it goes with")
	case err != nil:
		return nil, nil, fmt.Errorf("zmachine: %w", err)
	}
	for _, c := range chunks {
		if c.Type == "IFmd" {
			meta = data[c.Start:c.End]
			break
		}
	}
	switch system, _ := blorb.ExecSystem(exec.Type); exec.Type {
	case "ZCOD":
		return data[exec.Start:exec.End], meta, nil
	case "GLUL":
		return nil, nil, errGlulx
	default:
		return nil, nil, fmt.Errorf("zmachine: blorb file: the game is a %s one (chunk %s), not a Z-machine one: grue runs Z-machine games", system, exec.Type)
	}
}
