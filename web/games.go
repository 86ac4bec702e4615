package web

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/grue-lab/grue/internal/boundedfile"

	"github.com/grue-lab/grue/agent/memory"
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
	// Uploaded reports a story file sent to POST /api/games; Name is
	// then its path, which the game fields take.
	Uploaded bool `json:"uploaded,omitempty"`
}

// GamesDir is the folder under Options.Runs that holds the story files
// uploaded with POST /api/games.
const GamesDir = "games"

// gamesList is GET /api/games: the games, the policies, the memory
// strategies (the page's choices, from [memory.Names]) and the problems
// met while listing (a file in GRUE_GAMES that is no story).
type gamesList struct {
	Games    []GameInfo `json:"games"`
	Default  string     `json:"default"`
	Policies []string   `json:"policies"`
	Memory   []string   `json:"memory"`
	Problems string     `json:"problems,omitempty"`
}

func (s *Server) listGames(w http.ResponseWriter, r *http.Request) {
	entries := map[string]game.Entry{}
	for _, e := range game.Catalog() {
		entries[e.Name] = e
	}
	out := gamesList{Games: []GameInfo{}, Default: stories.DefaultName, Policies: harness.PolicyNames(), Memory: memory.Names()}
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
	out.Games = append(out.Games, s.uploadedGames()...)
	writeJSON(w, http.StatusOK, out)
}

// uploadedGames lists the story files under Runs/games.
func (s *Server) uploadedGames() []GameInfo {
	dir := filepath.Join(s.opts.Runs, GamesDir)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []GameInfo
	for _, d := range ents {
		if d.IsDir() || !slices.Contains(game.StoryExts, strings.ToLower(filepath.Ext(d.Name()))) {
			continue
		}
		if gi, err := describeStory(filepath.Join(dir, d.Name())); err == nil {
			out = append(out, gi)
		}
	}
	return out
}

// describeStory is the GameInfo of the story file at path.
func describeStory(path string) (GameInfo, error) {
	story, _, err := game.LoadStory(path)
	if err != nil {
		return GameInfo{}, err
	}
	gi := GameInfo{Name: path, Version: story.Version(), Uploaded: true}
	if e, ok := game.Lookup(story); ok {
		gi.Title, gi.MaxScore, gi.Known = e.Title, e.MaxScore, true
	} else if bib, ok := game.StoryBibliographic(story); ok {
		gi.Title = bib.Title // a Blorb file's own record
	}
	return gi, nil
}

// uploadGame is POST /api/games?name=FILE.z5: the body is a story file,
// kept under Runs/games as FILE.z5 once it loads as a story. Its answer's
// name is the path that the game fields of episodes, play sessions and
// experiment configs take.
func (s *Server) uploadGame(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("name")
	if !idPattern.MatchString(name) || !slices.Contains(game.StoryExts, strings.ToLower(filepath.Ext(name))) {
		writeError(w, http.StatusBadRequest, "name", "name %q: a file name (letters, digits, '.', '_', '-') ending in one of %s", name, strings.Join(game.StoryExts, ", "))
		return
	}
	data, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		tooLarge(w, tooBig.Limit)
		return
	case err != nil:
		writeError(w, http.StatusBadRequest, "body", "reading the story: %v", err)
		return
	}
	if _, err := zmachine.Load(data); err != nil {
		writeError(w, http.StatusBadRequest, "body", "not a story file grue can play: %v", err)
		return
	}
	dir := filepath.Join(s.opts.Runs, GamesDir)
	path := filepath.Join(dir, name)
	created, err := createStory(dir, name, data)
	switch {
	case errors.Is(err, fs.ErrExist):
		writeError(w, http.StatusConflict, "name", "another story is already uploaded as %s: choose another name", name)
		return
	case err != nil:
		writeError(w, http.StatusInternalServerError, "", "keep the story: %v", err)
		return
	}
	gi, err := describeStory(path)
	if err != nil {
		writeError(w, http.StatusBadRequest, "body", "%v", err)
		return
	}
	status := http.StatusCreated
	if !created {
		status = http.StatusOK // the same story again: nothing was made
	}
	writeJSON(w, status, gi)
}

// createStory keeps data as the story file dir/name, which must not
// exist: it is written whole to a temporary file, then linked to its name,
// which fails if the name is taken, so that two uploads under one name at
// once never replace each other and no reader sees half a story. A name
// that already holds exactly data is no error (created is false); one
// that holds anything else is fs.ErrExist.
func createStory(dir, name string, data []byte) (created bool, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, err
	}
	path := filepath.Join(dir, name)
	tmp, err := os.CreateTemp(dir, ".upload-*")
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return false, err
	}
	if err = os.Link(tmp.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		// A file system without hard links: create the name exclusively.
		err = writeExclusive(path, data)
	}
	if errors.Is(err, fs.ErrExist) {
		// Only the same bytes, in a regular file, count as the same story.
		if old, rerr := boundedfile.ReadFile(path, int64(len(data))+1); rerr == nil && bytes.Equal(old, data) {
			return false, nil
		}
		return false, fmt.Errorf("%s: %w", name, fs.ErrExist)
	}
	return err == nil, err
}

// writeExclusive writes data to a new file at path (fs.ErrExist if there
// is one), removing what it wrote when it fails.
func writeExclusive(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}
