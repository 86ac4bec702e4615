package web

import (
	"net/http"

	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/game/zmachine"
	"github.com/grue-lab/grue/harness"
)

// GameInfo is one game GET /api/games lists: grue's built-in default
// story, then the story files under GRUE_GAMES, as grue games lists them.
type GameInfo struct {
	Name     string `json:"name"`
	Title    string `json:"title,omitempty"`
	Version  int    `json:"version"`
	MaxScore int    `json:"max_score,omitempty"`
	BuiltIn  bool   `json:"built_in,omitempty"`
	Known    bool   `json:"known"`
	// Walkthrough reports whether the walkthrough policy can play it.
	Walkthrough bool `json:"walkthrough"`
}

// gamesList is GET /api/games: the games, the policies and the problems
// met while listing (a file in GRUE_GAMES that is no story).
type gamesList struct {
	Games    []GameInfo `json:"games"`
	Default  string     `json:"default"`
	Policies []string   `json:"policies"`
	Problems string     `json:"problems,omitempty"`
}

func (s *Server) listGames(w http.ResponseWriter, r *http.Request) {
	entries := map[string]game.Entry{}
	for _, e := range game.Catalog() {
		entries[e.Name] = e
	}
	out := gamesList{Games: []GameInfo{}, Default: stories.DefaultName, Policies: harness.Policies}
	name, data := stories.Default()
	if story, err := zmachine.Load(data); err == nil {
		gi := GameInfo{Name: name, Version: story.Version(), BuiltIn: true}
		if e, ok := game.Lookup(story); ok {
			gi.Title, gi.MaxScore, gi.Known = e.Title, e.MaxScore, true
			cmds, _ := e.Commands()
			gi.Walkthrough = len(cmds) > 0
		}
		out.Games = append(out.Games, gi)
	}
	files, err := game.Games()
	for _, f := range files {
		gi := GameInfo{Name: f.Name, Version: f.Version, Known: f.Known}
		if e, ok := entries[f.Name]; ok && f.Known {
			gi.Title, gi.MaxScore = e.Title, e.MaxScore
			gi.Walkthrough = e.Walkthrough != ""
		}
		out.Games = append(out.Games, gi)
	}
	if err != nil {
		out.Problems = err.Error()
	}
	writeJSON(w, http.StatusOK, out)
}
