package web

import (
	"errors"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/game/stories"
)

// playIdle is how long a play-by-hand session may go without a command
// before a new session may take its place.
const playIdle = 30 * time.Minute

// maxCommand is the longest command a person may type.
const maxCommand = 1000

// Turn is one command of a play-by-hand session and the game's reply.
type Turn struct {
	Command string `json:"command"`
	Output  string `json:"output"`
}

// PlayState is a play-by-hand session as the API gives it: the status
// line's fields and the transcript (the opening text first, with an
// empty command).
type PlayState struct {
	ID         string `json:"id"`
	Game       string `json:"game"`
	Seed       int64  `json:"seed"`
	Location   string `json:"location"`
	Score      int    `json:"score"`
	MaxScore   int    `json:"max_score"`
	Moves      int    `json:"moves"`
	Done       bool   `json:"done"`
	Victory    bool   `json:"victory"`
	Transcript []Turn `json:"transcript"`
}

// playSession is one game a person plays in the page.
type playSession struct {
	mu         sync.Mutex
	id         string
	seed       int64
	g          *game.Game
	transcript []Turn
	used       time.Time
}

// state returns the session's state; s.mu is held.
func (p *playSession) state() PlayState {
	info := p.g.Info()
	return PlayState{ID: p.id, Game: p.g.Name(), Seed: p.seed, Location: info.Location, Score: info.Score,
		MaxScore: info.MaxScore, Moves: info.Moves, Done: p.g.Done(), Victory: p.g.Victory(), Transcript: slices.Clone(p.transcript)}
}

// playSessions are the live play-by-hand sessions, in memory only. A
// start reserves a place before it opens its game, so a burst of starts
// opens no more games than there are places.
type playSessions struct {
	mu       sync.Mutex
	max      int
	byID     map[string]*playSession
	reserved int // places held by starts still opening their game
}

func newPlaySessions(max int) *playSessions {
	return &playSessions{max: max, byID: map[string]*playSession{}}
}

// reserve takes a place for a session about to start, ending idle
// sessions to make room; it reports whether there was one. The place is
// then filled (add) or given back (release).
func (ps *playSessions) reserve() bool {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if len(ps.byID)+ps.reserved >= ps.max {
		for id, old := range ps.byID {
			old.mu.Lock()
			idle := time.Since(old.used) > playIdle
			old.mu.Unlock()
			if idle {
				delete(ps.byID, id)
			}
		}
	}
	if len(ps.byID)+ps.reserved >= ps.max {
		return false
	}
	ps.reserved++
	return true
}

// add keeps p in the place reserved for it.
func (ps *playSessions) add(p *playSession) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.reserved--
	ps.byID[p.id] = p
}

// release gives back a reserved place whose session did not start.
func (ps *playSessions) release() {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.reserved--
}

// get returns session id, or answers 404.
func (ps *playSessions) get(w http.ResponseWriter, r *http.Request) (*playSession, bool) {
	id, ok := pathID(w, r)
	if !ok {
		return nil, false
	}
	ps.mu.Lock()
	p, ok := ps.byID[id]
	ps.mu.Unlock()
	if !ok {
		writeError(w, http.StatusNotFound, "id", "no play session %q (it ended, or the server restarted)", id)
	}
	return p, ok
}

func (s *Server) startPlay(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Game string `json:"game"`
		Seed *int64 `json:"seed"`
	}
	if !decodeBody(w, r, &req) {
		return
	}
	if req.Game == "" {
		req.Game = stories.DefaultName
	}
	seed := int64(1)
	if req.Seed != nil {
		seed = *req.Seed
	}
	if !s.play.reserve() {
		busy(w, "play sessions", s.play.max)
		return
	}
	g, err := game.Open(req.Game, game.Seed(seed))
	if err != nil {
		s.play.release()
		writeError(w, http.StatusBadRequest, "game", "%v", err)
		return
	}
	p := &playSession{id: newID(time.Now()), seed: seed, g: g, used: time.Now(),
		transcript: []Turn{{Output: g.Intro()}}}
	s.play.add(p)
	p.mu.Lock()
	defer p.mu.Unlock()
	writeJSON(w, http.StatusCreated, p.state())
}

func (s *Server) getPlay(w http.ResponseWriter, r *http.Request) {
	if p, ok := s.play.get(w, r); ok {
		p.mu.Lock()
		defer p.mu.Unlock()
		writeJSON(w, http.StatusOK, p.state())
	}
}

func (s *Server) playCommand(w http.ResponseWriter, r *http.Request) {
	p, ok := s.play.get(w, r)
	if !ok {
		return
	}
	var req struct {
		Command *string `json:"command"`
	}
	if !decodeBody(w, r, &req) {
		return
	}
	switch {
	case req.Command == nil:
		writeError(w, http.StatusBadRequest, "command", "no command: send {\"command\": \"look\"}")
		return
	case len(*req.Command) > maxCommand:
		writeError(w, http.StatusBadRequest, "command", "the command is %d bytes, more than the limit of %d", len(*req.Command), maxCommand)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.g.Done() {
		writeError(w, http.StatusConflict, "command", "the game is over: undo, or start a new one")
		return
	}
	res, err := p.g.Step(*req.Command)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "command", "%v", err)
		return
	}
	p.used = time.Now()
	p.transcript = append(p.transcript, Turn{Command: *req.Command, Output: res.Observation})
	writeJSON(w, http.StatusOK, p.state())
}

func (s *Server) playUndo(w http.ResponseWriter, r *http.Request) {
	p, ok := s.play.get(w, r)
	if !ok {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.g.Undo(); err != nil {
		status := http.StatusInternalServerError
		if errors.Is(err, game.ErrNoUndo) {
			status = http.StatusConflict
		}
		writeError(w, status, "", "undo: %v", err)
		return
	}
	p.used = time.Now()
	if len(p.transcript) > 1 {
		p.transcript = p.transcript[:len(p.transcript)-1]
	}
	writeJSON(w, http.StatusOK, p.state())
}

func (s *Server) endPlay(w http.ResponseWriter, r *http.Request) {
	p, ok := s.play.get(w, r)
	if !ok {
		return
	}
	s.play.mu.Lock()
	delete(s.play.byID, p.id)
	s.play.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}
