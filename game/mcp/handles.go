package mcp

import (
	"context"
	"crypto/rand"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// Game handles. A client of MCP 2026-07-28 over HTTP has no session: each
// of its requests is served on its own, so the server cannot tell two such
// clients apart. Its games are named instead: new_game (or reset_game with
// neither a session nor a game_id) starts a game and returns its game_id,
// and every game tool takes an optional game_id argument. A call with a
// game_id plays that game; one without plays the calling session's game
// (legacy HTTP sessions, the one stdio session, an in-process client); one
// with neither is refused with an error that names game_id. Sharing one
// game between all the sessionless clients (what mcp-go v1 would do by
// default) would let any client play, read and reset another's game.
//
// A game_id is a capability: 130 random bits, so that knowing one's own
// says nothing about another's, and whoever holds it plays that game (as
// whoever holds a session ID plays that session's game). The handles
// without a session are capped (WithMaxSessions) and end after the HTTP
// idle time without a call. See docs/security.md.

// gameIDArg is the argument that names a game.
const gameIDArg = "game_id"

// maxGameIDLen bounds the game_id a client may send: ours are 28 bytes.
const maxGameIDLen = 64

// newGameID makes an unguessable game_id.
func newGameID() string { return "g-" + rand.Text() }

// gameIDArgument reads the game_id argument: the ID, whether one was
// given, and a tool error when it is not a string of a sane length.
func gameIDArgument(args map[string]any) (string, bool, *mcpgo.CallToolResult) {
	v, ok := args[gameIDArg]
	if !ok || v == nil {
		return "", false, nil
	}
	id, ok := v.(string)
	switch {
	case !ok:
		return "", true, toolError("game_id must be a string, as new_game returned it")
	case id == "":
		return "", false, nil
	case len(id) > maxGameIDLen:
		return "", true, toolError("game_id is %d bytes long: not one this server issued (call new_game for a game of your own)", len(id))
	}
	return id, true, nil
}

// gameFor returns the game a call of tool plays, locked (the caller
// unlocks it), starting a session's game on its first use; or the tool
// error that says why there is none.
func (s *Server) gameFor(ctx context.Context, tool string, args map[string]any) (*session, *mcpgo.CallToolResult) {
	id, given, refusal := gameIDArgument(args)
	if refusal != nil {
		return nil, refusal
	}
	sid := sessionID(ctx)
	s.mu.Lock()
	var ss *session
	switch {
	case given:
		ss = s.games[id]
		if ss == nil {
			s.mu.Unlock()
			return nil, toolError("%s: unknown game_id %q: no live game has it (a game idle too long ends, "+
				"and a game_id is valid only on the server that issued it). Call new_game for a game of your own.", tool, id)
		}
	case sid != "":
		ss = s.sessions[sid]
		if ss == nil {
			ss = &session{id: newGameID(), owner: sid, seed: s.cfg.seed, game: s.cfg.game}
			s.sessions[sid] = ss
			s.games[ss.id] = ss
		}
	default:
		s.mu.Unlock()
		return nil, toolError("%s needs a game_id: this request has no MCP session (protocol 2026-07-28), "+
			"so the server cannot tell which game is yours. Call new_game (or reset_game) and pass the "+
			"game_id it returns as the game_id argument of every game tool.", tool)
	}
	ss.last = time.Now()
	s.mu.Unlock()
	ss.mu.Lock()
	if ss.g == nil {
		g, err := s.newGame(s.first, s.cfg.seed)
		if err != nil {
			ss.mu.Unlock()
			return nil, toolError("%s: %v", tool, err)
		}
		s.startGame(ss, g)
	}
	return ss, nil
}

// newHandle makes a game with no session (its game is to be started by
// the caller), locked, or refuses one beyond the cap.
func (s *Server) newHandle(target string, seed int64) (*session, *mcpgo.CallToolResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.handles >= s.cfg.maxSessions && s.gameIdle > 0 {
		s.expireLocked(time.Now().Add(-s.gameIdle))
	}
	if s.handles >= s.cfg.maxSessions {
		return nil, toolError("new_game: the server has %d live games, its limit: try again once idle games have ended", s.handles)
	}
	ss := &session{id: newGameID(), game: target, seed: seed, last: time.Now()}
	ss.mu.Lock()
	s.games[ss.id] = ss
	s.handles++
	return ss, nil
}

// expireLocked ends the games with no session unused since before cutoff;
// s.mu is held. A game in a tool call ends too, once the call returns.
func (s *Server) expireLocked(cutoff time.Time) {
	for id, ss := range s.games {
		if ss.owner == "" && ss.last.Before(cutoff) {
			delete(s.games, id)
			s.handles--
			s.forgetSavesLocked(ss)
		}
	}
}
