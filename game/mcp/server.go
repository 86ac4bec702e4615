package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"

	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/game/zmachine"
	"github.com/grue-lab/grue/internal/lazyregexp"
)

// The MCP game server: the tools of the contract in docs/design.md over
// mark3labs/mcp-go, one game per MCP session and one per game_id handle
// (see handles.go). Names and text formats follow
// the earlier Python agent's server so that its agents can play grue's
// games; every result
// also carries structured content for machine clients. Score, moves and the
// end of the game always come from the engine, never from the client.

// ServerName is the name the MCP server gives in its initialize reply.
const ServerName = "grue"

// ServerOption configures a Server made by NewServer (and the in-process
// client, which makes one).
type ServerOption func(*serverConfig)

type serverConfig struct {
	game        string
	seed        int64
	version     string
	undoDepth   int
	maxSessions int
	maxBody     int64
	token       string
	origins     []string
	cacheSize   int
	maxLine     int
	maxSaved    int
	detections  *game.DetectionCache
}

// MaxSavesPerGame is how many states save_state keeps for one game; a save
// under a new name beyond it is refused (reusing a name replaces).
const MaxSavesPerGame = 100

// DefaultMaxSavedStates is how many states save_state keeps over all the
// server's games at once ([WithMaxSavedStates]). A saved state keeps the
// game's memory compactly, as its difference from the story
// (game.State.Compact: a few hundred bytes a few moves in, up to 64 KiB
// for a game far from its start), and its stack; without a total a client
// could hold MaxSavesPerGame of them in each of its games.
const DefaultMaxSavedStates = 1000

// WithMaxSavedStates caps the states save_state keeps over all the games
// of the server (default [DefaultMaxSavedStates]); a save beyond it is
// refused with a tool error until games end or are reset, which frees
// their saves.
func WithMaxSavedStates(n int) ServerOption { return func(c *serverConfig) { c.maxSaved = n } }

// WithGame sets the game every new session starts with: a name or path as
// Open takes it, or "lantern", the built-in default story (the default).
func WithGame(nameOrPath string) ServerOption {
	return func(c *serverConfig) { c.game = nameOrPath }
}

// WithDetectionCache makes the server's games take what probing found in
// their stories (score, moves, player: see [game.DetectionCache]) from c,
// which may be shared with other servers, such as the in-process servers
// of an experiment's episodes. Without it the server keeps a cache of its
// own, shared by its sessions.
func WithDetectionCache(c *game.DetectionCache) ServerOption {
	return func(cfg *serverConfig) { cfg.detections = c }
}

// WithSeed sets the seed of each new game's random numbers (default 1, as
// grue play).
func WithSeed(n int64) ServerOption { return func(c *serverConfig) { c.seed = n } }

// WithVersion sets the version the server reports (default "dev").
func WithVersion(v string) ServerOption { return func(c *serverConfig) { c.version = v } }

// WithUndoDepth sets how many play_action steps undo can take back in each
// session (default [DefaultUndoDepth]), which bounds a session's undo
// history: the game's dynamic memory once, and each step what it changed
// (a few hundred bytes).
func WithUndoDepth(n int) ServerOption { return func(c *serverConfig) { c.undoDepth = n } }

// WithMaxSessions caps the live HTTP sessions (default
// [DefaultMaxSessions]); an initialize beyond it gets 503. The games
// started by new_game (and by reset_game without a session) are capped at
// the same number; one beyond it is refused with a tool error.
func WithMaxSessions(n int) ServerOption { return func(c *serverConfig) { c.maxSessions = n } }

// WithMaxBody caps the bytes of an HTTP request body (default
// [DefaultMaxBody]); a larger one gets 413.
func WithMaxBody(n int64) ServerOption { return func(c *serverConfig) { c.maxBody = n } }

// WithToken makes every HTTP request carry "Authorization: Bearer token";
// others get 401. "" (the default) asks for none.
func WithToken(token string) ServerOption { return func(c *serverConfig) { c.token = token } }

// WithAllowedOrigins allows browser pages of these origins
// ("https://app.example") to call the HTTP server, besides pages served
// from this machine; any other Origin gets 403.
func WithAllowedOrigins(origins ...string) ServerOption {
	return func(c *serverConfig) { c.origins = append(c.origins, origins...) }
}

// Server is grue's MCP game server. Each MCP session (the one stdio
// session, each HTTP session, each in-process client) gets its own game,
// started on the session's first tool call; a client without a session
// (MCP 2026-07-28 over HTTP) starts games with new_game or reset_game and
// names them with the game_id those return (see docs/design.md).
type Server struct {
	cfg      serverConfig
	tools    []server.ServerTool // every tool and its handler, in the order added
	mcpOnce  sync.Once
	mcp      *server.MCPServer // made by mcpServer when a transport first needs it
	handlers map[string]server.ToolHandlerFunc
	params   map[string]map[string]param // each tool's arguments, by tool name

	first loadedStory // the story every session starts with
	ids   *sessionIDs // HTTP session IDs

	mu       sync.Mutex
	sessions map[string]*session // the sessions' games, by session ID
	games    map[string]*session // every live game, by game_id
	handles  int                 // games with no session (new_game's)
	gameIdle time.Duration       // a game with no session idle this long ends (0: never)
	stories  *storyCache         // other stories reset_game loaded
	closed   chan struct{}
	stopOnce sync.Once
	reaping  bool
	saved    int // the states saved in the live games, at most cfg.maxSaved
}

// session is one game, an MCP session's or one a game_id names, and what
// the tools remember about it.
type session struct {
	id    string    // its game_id
	owner string    // the MCP session it belongs to; "" for a new_game handle
	last  time.Time // when a tool last named it; guarded by Server.mu

	mu      sync.Mutex
	g       *game.Game
	game    string // what reset_game reopens: the server's game, a name or a path it resolved
	seed    int64
	obs     string // the current observation: the intro or the last reply
	history []turn
	saves   map[string]*game.State
	counted int // how many of saves count in Server.saved; guarded by Server.mu
}

// loadedStory is a story loaded once and the name its games take.
type loadedStory struct {
	story *zmachine.Story
	glulx *game.GlulxStory // a Glulx story, when story is nil
	name  string
}

// loadStory loads the story target names, a Z-machine or a Glulx one.
func loadStory(target string) (loadedStory, error) {
	story, name, err := game.LoadStory(target)
	if errors.Is(err, game.ErrGlulxStory) {
		gs, name, err := game.LoadGlulxStory(target)
		if err != nil {
			return loadedStory{}, err
		}
		return loadedStory{glulx: gs, name: name}, nil
	}
	if err != nil {
		return loadedStory{}, err
	}
	return loadedStory{story: story, name: name}, nil
}

// turn is one play_action: the command and the game's reply.
type turn struct{ action, reply string }

// memoryTurns is how many recent actions memory() shows.
const memoryTurns = 5

// NewServer makes a server and loads its game's story: an unknown game, or
// a file that is not a story, is an error here. No game starts until a
// session's first tool call (starting one was about a sixth of grue
// serve's start, docs/performance.md), so a story that fails before its
// first prompt is reported to the first session that plays it.
func NewServer(opts ...ServerOption) (*Server, error) {
	cfg := serverConfig{game: stories.DefaultName, seed: 1, version: "dev",
		undoDepth: DefaultUndoDepth, maxSessions: DefaultMaxSessions, maxBody: DefaultMaxBody,
		cacheSize: DefaultStoryCache, maxLine: DefaultMaxLine, maxSaved: DefaultMaxSavedStates}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.detections == nil {
		cfg.detections = game.NewDetectionCache()
	}
	if cfg.maxSaved <= 0 {
		return nil, fmt.Errorf("game server: max saved states (%d) must be positive", cfg.maxSaved)
	}
	if cfg.maxSessions <= 0 || cfg.maxBody <= 0 || cfg.undoDepth < 0 || cfg.maxLine <= 0 {
		return nil, fmt.Errorf("game server: max sessions (%d), max body (%d) and max line (%d) must be positive, undo depth (%d) not negative",
			cfg.maxSessions, cfg.maxBody, cfg.maxLine, cfg.undoDepth)
	}
	s := &Server{
		cfg:      cfg,
		ids:      newSessionIDs(cfg.maxSessions),
		handlers: map[string]server.ToolHandlerFunc{},
		params:   map[string]map[string]param{},
		sessions: map[string]*session{},
		games:    map[string]*session{},
		stories:  newStoryCache(cfg.cacheSize),
		closed:   make(chan struct{}),
	}
	first, err := loadStory(cfg.game)
	if err != nil {
		return nil, err
	}
	s.first = first
	s.addTools()
	return s, nil
}

// MCPServer is the mcp-go server, for serving it over a transport of one's
// choosing.
func (s *Server) MCPServer() *server.MCPServer { return s.mcpServer() }

// mcpServer returns the mcp-go server with the tools, made on first use:
// a Server that only in-process clients call (grue agent's) never needs
// one, and making it (registering and checking every tool) was a tenth of
// that command's start-up.
func (s *Server) mcpServer() *server.MCPServer {
	s.mcpOnce.Do(func() {
		hooks := &server.Hooks{}
		hooks.AddOnUnregisterSession(func(ctx context.Context, cs server.ClientSession) {
			s.drop(cs.SessionID())
		})
		s.mcp = server.NewMCPServer(ServerName, s.cfg.version,
			server.WithToolCapabilities(false),
			server.WithRecovery(),
			server.WithHooks(hooks),
			server.WithInstructions("Play a text adventure: play_action sends a command to the game; "+
				"memory, get_map, inventory and valid_actions describe the state; "+
				"save_state, restore_state and undo branch; reset_game starts again. "+
				"Without an MCP session (protocol 2026-07-28 over HTTP), start a game with new_game "+
				"and pass the game_id it returns to every other tool."),
		)
		s.mcp.AddTools(s.tools...)
	})
	return s.mcp
}

// Close stops the idle-session reaper and forgets every game.
func (s *Server) Close() {
	s.stopOnce.Do(func() { close(s.closed) })
	s.mu.Lock()
	s.sessions = map[string]*session{}
	s.games = map[string]*session{}
	s.handles = 0
	s.mu.Unlock()
}

// Sessions is the number of MCP sessions that have a game.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// Games is the number of live games: the sessions' and those started by
// new_game (or by reset_game without a session), which a game_id names.
func (s *Server) Games() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.games)
}

// reap ends the HTTP sessions idle for longer than idle and drops their
// games, and ends the game_id handles idle as long, until Close. It never
// waits for a game's lock: a game stuck in a tool call must not hold up
// the others.
func (s *Server) reap(idle time.Duration) {
	t := time.NewTicker(max(idle/4, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-s.closed:
			return
		case now := <-t.C:
			// Later requests in these sessions get 404.
			for _, id := range s.ids.idle(now.Add(-idle)) {
				s.drop(id)
			}
			s.mu.Lock()
			s.expireLocked(now.Add(-idle))
			s.mu.Unlock()
		}
	}
}

// drop ends the MCP session id's game.
func (s *Server) drop(id string) {
	s.mu.Lock()
	if ss, ok := s.sessions[id]; ok {
		delete(s.games, ss.id)
		delete(s.sessions, id)
		s.forgetSavesLocked(ss)
	}
	s.mu.Unlock()
}

// sessionKey carries the session ID of a direct in-process call.
type sessionKey struct{}

// sessionID names the session a tool call belongs to.
func sessionID(ctx context.Context) string {
	if id, ok := ctx.Value(sessionKey{}).(string); ok {
		return id
	}
	if cs := server.ClientSessionFromContext(ctx); cs != nil {
		return cs.SessionID()
	}
	return ""
}

// forgetSavesLocked takes the saves of ss, which ends or starts again,
// out of the server's count; s.mu is held.
func (s *Server) forgetSavesLocked(ss *session) {
	s.saved -= ss.counted
	ss.counted = 0
}

// startGame makes g the game of ss (locked), which forgets its saves.
func (s *Server) startGame(ss *session, g *game.Game) {
	s.mu.Lock()
	s.forgetSavesLocked(ss)
	s.mu.Unlock()
	ss.start(g)
}

// start makes g the session's game, forgetting the last one's history.
func (ss *session) start(g *game.Game) {
	ss.g = g
	ss.obs = g.Intro()
	ss.history = nil
	ss.saves = map[string]*game.State{}
}

// gameUndoSlots is how many turns the story's own undo command can take
// back in a served game.
const gameUndoSlots = 8

// newGame starts a game of ls with seed.
func (s *Server) newGame(ls loadedStory, seed int64) (*game.Game, error) {
	// The story's own undo command needs a few states, not Frotz's 500,
	// kept for every session: the newest a copy of dynamic memory, each
	// older one its difference from the next.
	if ls.glulx != nil {
		return game.NewGlulx(ls.glulx, ls.name, game.Seed(seed), game.UndoDepth(s.cfg.undoDepth))
	}
	return game.New(ls.story, ls.name, game.Seed(seed), game.UndoDepth(s.cfg.undoDepth), game.GameUndoSlots(gameUndoSlots),
		game.WithDetectionCache(s.cfg.detections))
}

// open starts the game target (what resolve returned) with seed.
func (s *Server) open(target string, seed int64) (*game.Game, error) {
	if target == s.cfg.game {
		return s.newGame(s.first, seed)
	}
	ls, err := s.stories.load(target)
	if err != nil {
		return nil, err
	}
	return s.newGame(ls, seed)
}

// maxScore is the game's maximum score: the catalog's, or the default
// story's.
func maxScore(g *game.Game) int {
	if m := g.MaxScore(); m > 0 {
		return m
	}
	if strings.EqualFold(g.Name(), stories.DefaultName) {
		return stories.MaxScore
	}
	return 0
}

// structured is the structured content every tool result carries. Numbers
// are float64 so that in-process results look exactly like results decoded
// from JSON.
func (ss *session) structured(reward int) map[string]any {
	g := ss.g
	loc, locID := g.Location()
	var moves any = float64(g.Moves())
	if !g.Info().MovesKnown {
		moves = nil // unknown, not 0: the agent reports it so
	}
	st := map[string]any{
		"game_id":     ss.id,
		"game":        g.Name(),
		"observation": ss.obs,
		"score":       float64(g.Score()),
		"max_score":   float64(maxScore(g)),
		"moves":       moves,
		"reward":      float64(reward),
		"done":        g.Done() || g.Halted(),
		"victory":     g.Victory(),
		"location":    loc,
	}
	if locID != 0 {
		// Rooms are told apart by it: Advent has two "In Forest".
		st["location_id"] = float64(locID)
	}
	return st
}

// result is a successful tool result: text and the session's state.
func (ss *session) result(text string, reward int, extra map[string]any) *mcpgo.CallToolResult {
	st := ss.structured(reward)
	for k, v := range extra {
		st[k] = v
	}
	return mcpgo.NewToolResultStructured(st, text)
}

// toolError is an isError result the agent can read.
func toolError(format string, a ...any) *mcpgo.CallToolResult {
	return mcpgo.NewToolResultError(fmt.Sprintf(format, a...))
}

// tool adds a tool, taking params and game_id, whose handler runs on the
// game the call names (its game_id) or else on the calling session's game.
func (s *Server) tool(t mcpgo.Tool, params map[string]param, h func(ctx context.Context, ss *session, req mcpgo.CallToolRequest) *mcpgo.CallToolResult) {
	s.addTool(t, withGameID(params), func(ctx context.Context, req mcpgo.CallToolRequest) *mcpgo.CallToolResult {
		ss, refusal := s.gameFor(ctx, t.Name, req.GetArguments())
		if refusal != nil {
			return refusal
		}
		defer ss.mu.Unlock()
		return h(ctx, ss, req)
	})
}

// addTool adds a tool taking params whose handler's panic becomes a tool
// error.
func (s *Server) addTool(t mcpgo.Tool, params map[string]param, h func(ctx context.Context, req mcpgo.CallToolRequest) *mcpgo.CallToolResult) {
	setParams(&t, params)
	s.params[t.Name] = params
	handler := func(ctx context.Context, req mcpgo.CallToolRequest) (res *mcpgo.CallToolResult, err error) {
		defer func() {
			if r := recover(); r != nil {
				res, err = toolError("%s failed: internal error: %v", t.Name, r), nil
			}
		}()
		return h(ctx, req), nil
	}
	s.handlers[t.Name] = handler
	s.tools = append(s.tools, server.ServerTool{Tool: t, Handler: handler})
}

func (s *Server) playAction(ctx context.Context, ss *session, req mcpgo.CallToolRequest) *mcpgo.CallToolResult {
	action, err := req.RequireString("action")
	if err != nil || (strings.TrimSpace(action) == "" && !ss.g.KeyExpected()) {
		return toolError("play_action needs an action, a command such as \"look\"")
	}
	if strings.ContainsAny(action, "\n\r") {
		return toolError("play_action takes one command: the action must not contain a newline")
	}
	g := ss.g
	if g.Done() || g.Halted() {
		// The structured content says done, so that a client which
		// missed the end (or ignores the text) stops here.
		res := ss.result(fmt.Sprintf("The game is over (score %d of %d). Use reset_game to play again, or undo or restore_state to go back.",
			g.Score(), maxScore(g)), 0, nil)
		res.IsError = true
		return res
	}
	r, err := g.Step(action)
	if err != nil {
		return toolError("%v", err)
	}
	ss.obs = r.Observation
	ss.history = append(ss.history, turn{action: action, reply: r.Observation})
	if len(ss.history) > 100 {
		ss.history = append(ss.history[:0:0], ss.history[len(ss.history)-memoryTurns:]...)
	}
	return ss.result(formatReply(r), r.Reward, nil)
}

// formatReply is play_action's text: the reply, then the score line or the
// points won, then GAME OVER when the game ended.
func formatReply(r game.StepResult) string {
	var b strings.Builder
	b.WriteString(r.Observation)
	if r.Reward > 0 {
		fmt.Fprintf(&b, "\n\n+%d points! (Total: %d)", r.Reward, r.Info.Score)
	} else {
		fmt.Fprintf(&b, "\n\n[Score: %d | Moves: %d]", r.Info.Score, r.Info.Moves)
	}
	if r.Info.KeyExpected {
		b.WriteString("\n\n[The game waits for a key: send one character (\" \" is SPACE), or an empty action for Return.]")
	}
	if r.Done {
		b.WriteString("\n\nGAME OVER")
	}
	return b.String()
}

func (s *Server) memory(ctx context.Context, ss *session, req mcpgo.CallToolRequest) *mcpgo.CallToolResult {
	g := ss.g
	loc, _ := g.Location()
	var b strings.Builder
	fmt.Fprintf(&b, "Current State:\n- Location: %s\n- Score: %d\n- Moves: %d\n- Game: %s\n\nRecent Actions:\n",
		loc, g.Score(), g.Moves(), g.Name())
	recent := ss.history[max(0, len(ss.history)-memoryTurns):]
	if len(recent) == 0 {
		b.WriteString("  (none yet)\n")
	}
	for _, t := range recent {
		fmt.Fprintf(&b, "  > %s -> %s\n", t.action, summary(t.reply))
	}
	fmt.Fprintf(&b, "\nCurrent Observation:\n%s", ss.obs)
	return ss.result(b.String(), 0, nil)
}

// summary shortens a reply to one line of at most 80 characters.
func summary(reply string) string {
	s := strings.Join(strings.Fields(reply), " ")
	if r := []rune(s); len(r) > 80 {
		s = string(r[:77]) + "..."
	}
	return s
}

func (s *Server) getMap(ctx context.Context, ss *session, req mcpgo.CallToolRequest) *mcpgo.CallToolResult {
	m := ss.g.Map()
	if m == nil {
		return toolError("get_map: the map is not available for Glulx stories yet")
	}
	return ss.result(m.String(), 0, mapStructured(m))
}

// mapStructured is get_map's structured content beyond the common fields:
// "rooms", the explored rooms in the order first visited, each
// {"id", "name", "exits": {command: room id}, "untried": [directions]},
// and "current", the id of the player's room (0 when unknown). Ids are
// the rooms' object numbers, numbers as float64 like the other fields; an
// exit's command is the one seen to move the player ("north", "climb
// tree"); untried lists the compass directions not yet tried from the
// room (see game.Map), so a program can find the frontier and walk to it.
func mapStructured(m *game.Map) map[string]any {
	all := m.Rooms()
	rooms := make([]any, 0, len(all))
	for _, r := range all {
		exits := make(map[string]any, len(r.Exits))
		for _, e := range r.Exits {
			exits[e.Command] = float64(e.To)
		}
		untried := []any{}
		for _, d := range m.Untried(r.ID) {
			untried = append(untried, d)
		}
		rooms = append(rooms, map[string]any{
			"id":      float64(r.ID),
			"name":    r.Name,
			"exits":   exits,
			"untried": untried,
		})
	}
	return map[string]any{"rooms": rooms, "current": float64(m.Current())}
}

func (s *Server) inventory(ctx context.Context, ss *session, req mcpgo.CallToolRequest) *mcpgo.CallToolResult {
	if ss.g.IsGlulx() && ss.g.Player() == 0 {
		return toolError("inventory: the player is not found in this Glulx story's object tree")
	}
	var names []string
	for _, o := range ss.g.Inventory() {
		if o.Name == "" {
			// An Inform 7 object without a hardware name whose printed
			// name grue did not find (TextWorld's): a nameless list
			// would read as nonsense.
			return toolError("inventory: the names of this Glulx story's objects are not known (its printed-name property was not found)")
		}
		names = append(names, o.Name)
	}
	text := "Inventory: You are empty-handed."
	if len(names) > 0 {
		text = "Inventory: " + strings.Join(names, ", ")
	}
	items := make([]any, len(names))
	for i, n := range names {
		items[i] = n
	}
	return ss.result(text, 0, map[string]any{"inventory": items})
}

func (s *Server) validActions(ctx context.Context, ss *session, req mcpgo.CallToolRequest) *mcpgo.CallToolResult {
	acts, err := ss.g.ValidActions()
	if err != nil {
		return toolError("valid_actions: %v", err)
	}
	items := make([]any, len(acts))
	for i, a := range acts {
		items[i] = a
	}
	text := "Valid actions: (none)"
	if len(acts) > 0 {
		text = "Valid actions: " + strings.Join(acts, ", ")
	}
	cut := ss.g.ValidActionsCutShort()
	if cut {
		text += "\n(cut short: the search ran out of its time budget; there may be more)"
	}
	return ss.result(text, 0, map[string]any{"actions": items, "cut_short": cut})
}

// gameChoice reads reset_game's and new_game's game and seed arguments:
// what to open (target, resolved; "" for def) and the seed (seed when not
// given).
func (s *Server) gameChoice(tool string, req mcpgo.CallToolRequest, def string, seed int64) (string, int64, *mcpgo.CallToolResult) {
	target := def
	if name := strings.TrimSpace(req.GetString("game", "")); name != "" {
		var err error
		if target, err = s.resolve(name); err != nil {
			return "", 0, toolError("%s: %v. Use list_games to see the games there are.", tool, err)
		}
	}
	if v, ok := req.GetArguments()["seed"]; ok && v != nil {
		n, ok := wholeNumber(v)
		if !ok {
			return "", 0, toolError("%s: seed must be a whole number, not %v", tool, v)
		}
		seed = n
	}
	return target, seed, nil
}

// resetGame starts the named game (game_id), or the session's, again; a
// call with neither starts a new game as new_game does.
func (s *Server) resetGame(ctx context.Context, req mcpgo.CallToolRequest) *mcpgo.CallToolResult {
	if _, given, _ := gameIDArgument(req.GetArguments()); !given && sessionID(ctx) == "" {
		return s.newGameTool(ctx, req)
	}
	ss, refusal := s.gameFor(ctx, ToolResetGame, req.GetArguments())
	if refusal != nil {
		return refusal
	}
	defer ss.mu.Unlock()
	target, seed, refusal := s.gameChoice(ToolResetGame, req, ss.game, ss.seed)
	if refusal != nil {
		return refusal
	}
	g, err := s.open(target, seed)
	if err != nil {
		return toolError("reset_game: %v", err)
	}
	ss.seed, ss.game = seed, target
	s.startGame(ss, g)
	return ss.result(startText(g, ss), 0, nil)
}

// startText is reset_game's and new_game's text: the game, its game_id
// and its introduction.
func startText(g *game.Game, ss *session) string {
	return fmt.Sprintf("Game: %s\ngame id: %s\n\n%s", g.Name(), ss.id, ss.obs)
}

// newGameTool starts a game of its own for the caller and returns its
// game_id.
func (s *Server) newGameTool(ctx context.Context, req mcpgo.CallToolRequest) *mcpgo.CallToolResult {
	target, seed, refusal := s.gameChoice(ToolNewGame, req, s.cfg.game, s.cfg.seed)
	if refusal != nil {
		return refusal
	}
	g, err := s.open(target, seed)
	if err != nil {
		return toolError("new_game: %v", err)
	}
	ss, refusal := s.newHandle(target, seed)
	if refusal != nil {
		return refusal
	}
	defer ss.mu.Unlock()
	s.startGame(ss, g)
	return ss.result(startText(g, ss), 0, nil)
}

// listGames needs no game: it answers a client without a session or a
// game_id too.
func (s *Server) listGames(ctx context.Context, req mcpgo.CallToolRequest) *mcpgo.CallToolResult {
	type entry struct{ name, title string }
	list := []entry{{stories.DefaultName, "Lantern (built in, the default story)"}}
	files, err := game.Games()
	for _, f := range files {
		if strings.EqualFold(f.Name, stories.DefaultName) {
			continue
		}
		list = append(list, entry{f.Name, f.Title})
	}
	if !slices.ContainsFunc(list, func(e entry) bool { return strings.EqualFold(e.name, s.first.name) }) {
		list = append(list, entry{s.first.name, "the game this server was started with"})
	}
	var b strings.Builder
	b.WriteString("Available games:")
	games := make([]any, 0, len(list))
	for _, e := range list {
		if e.title != "" {
			fmt.Fprintf(&b, "\n- %s: %s", e.name, e.title)
		} else {
			fmt.Fprintf(&b, "\n- %s", e.name)
		}
		games = append(games, map[string]any{"name": e.name, "title": e.title})
	}
	if err != nil {
		fmt.Fprintf(&b, "\n(some files could not be read: %v)", err)
	}
	return mcpgo.NewToolResultStructured(map[string]any{"games": games}, b.String())
}

// wholeNumber reads a JSON number (float64 once decoded, an int from an
// in-process caller) that must be whole.
func wholeNumber(v any) (int64, bool) {
	switch n := v.(type) {
	case float64:
		return int64(n), n == float64(int64(n))
	case int:
		return int64(n), true
	case int64:
		return n, true
	case json.Number:
		i, err := n.Int64()
		return i, err == nil
	}
	return 0, false
}

var stateName = lazyregexp.New(`^[A-Za-z0-9._-]{1,64}$`)

func (s *Server) saveState(ctx context.Context, ss *session, req mcpgo.CallToolRequest) *mcpgo.CallToolResult {
	name, _ := req.RequireString("name")
	if !stateName.MatchString(name) {
		return toolError("save_state: bad state name %q: use 1 to 64 letters, digits, '.', '_' or '-'", name)
	}
	if _, ok := ss.saves[name]; !ok {
		if len(ss.saves) >= MaxSavesPerGame {
			return toolError("save_state: too many saved states in this game (%d); reuse a name", MaxSavesPerGame)
		}
		s.mu.Lock()
		live := s.games[ss.id] == ss
		if live && s.saved >= s.cfg.maxSaved {
			s.mu.Unlock()
			return toolError("save_state: the server holds %d saved states over all its games, its limit: reuse a name, or end or reset games you no longer need", s.cfg.maxSaved)
		}
		if live { // a game that ended during the call takes its saves with it
			s.saved++
			ss.counted++
		}
		s.mu.Unlock()
	}
	ss.saves[name] = ss.g.Save().Compact() // kept for long and in numbers: the difference from the story only
	return ss.result(fmt.Sprintf("Saved state %q (score %d, moves %d).", name, ss.g.Score(), ss.g.Moves()), 0, nil)
}

func (s *Server) restoreState(ctx context.Context, ss *session, req mcpgo.CallToolRequest) *mcpgo.CallToolResult {
	name, _ := req.RequireString("name")
	st, ok := ss.saves[name]
	if !ok {
		names := make([]string, 0, len(ss.saves))
		for n := range ss.saves {
			names = append(names, n)
		}
		sort.Strings(names)
		saved := "none"
		if len(names) > 0 {
			saved = strings.Join(names, ", ")
		}
		return toolError("restore_state: no state saved as %q (saved: %s)", name, saved)
	}
	if err := ss.g.Restore(st); err != nil {
		return toolError("restore_state: %v", err)
	}
	loc, _ := ss.g.Location()
	ss.obs = fmt.Sprintf("Restored state %q.", name)
	text := fmt.Sprintf("Restored state %q.\n\n[Location: %s | Score: %d | Moves: %d]", name, loc, ss.g.Score(), ss.g.Moves())
	return ss.result(text, 0, nil)
}

func (s *Server) undo(ctx context.Context, ss *session, req mcpgo.CallToolRequest) *mcpgo.CallToolResult {
	if err := ss.g.Undo(); err != nil {
		if errors.Is(err, game.ErrNoUndo) {
			return toolError("undo: there is no move to take back")
		}
		return toolError("undo: %v", err)
	}
	var last turn
	if n := len(ss.history); n > 0 {
		last = ss.history[n-1]
		ss.history = ss.history[:n-1]
	}
	ss.obs = "Previous turn undone."
	if n := len(ss.history); n > 0 {
		ss.obs = ss.history[n-1].reply
	}
	loc, _ := ss.g.Location()
	text := fmt.Sprintf("Undid %q.\n\n[Location: %s | Score: %d | Moves: %d]", last.action, loc, ss.g.Score(), ss.g.Moves())
	return ss.result(text, 0, nil)
}

// newLogger logs the stdio server's errors to w.
func newLogger(w io.Writer) *log.Logger { return log.New(w, "grue serve: ", 0) }
