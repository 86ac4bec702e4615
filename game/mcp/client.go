package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// Client is the agent's side of MCP: it calls the game server's tools
// in-process (grue's own server, with no serialisation), over a stdio
// command, or over streamable HTTP. A Client is safe for concurrent use,
// though one game answers one call at a time.
type Client struct {
	// in-process
	srv *Server
	id  string

	// stdio and HTTP
	mu      sync.Mutex
	remote  *mcpclient.Client
	proc    *stdioProc // stdio only
	url     string     // HTTP only
	version string     // the protocol version negotiated

	// A game handle, on a connection without a session (MCP 2026-07-28
	// over HTTP) to a server that issues them: the game_id this client
	// plays, and the tools that take one. Guarded by mu.
	gameID    string
	takesGame map[string]bool
}

// ToolResult is what one tool call gave back: the text for the agent, the
// structured content (numbers are float64, as JSON decodes them) and whether
// the tool reported an error (an unknown game, a bad state name, a game that
// is over). A tool error is a result, not a Go error: its Text says what
// went wrong in words the agent can act on.
type ToolResult struct {
	Text       string
	Structured map[string]any
	IsError    bool
}

// Int returns the structured field key as an int (0 when absent).
func (r ToolResult) Int(key string) int {
	f, _ := r.Structured[key].(float64)
	return int(f)
}

// Bool returns the structured field key as a bool (false when absent).
func (r ToolResult) Bool(key string) bool {
	b, _ := r.Structured[key].(bool)
	return b
}

// String returns the structured field key as a string ("" when absent).
func (r ToolResult) String(key string) string {
	s, _ := r.Structured[key].(string)
	return s
}

// NewInProcessClient starts grue's MCP game server in this process and
// returns a client that calls its tool handlers directly: no JSON, no
// transport. The client has its own session, and so its own game.
func NewInProcessClient(opts ...ServerOption) (*Client, error) {
	srv, err := NewServer(opts...)
	if err != nil {
		return nil, err
	}
	// The server is the client's own, so one session name is enough.
	return &Client{srv: srv, id: "inprocess"}, nil
}

// TokenEnv names the environment variable that holds the bearer token of
// grue serve --http: the server reads it when --token is not given, and
// [mcphttp.NewClient] sends it.
//
// [mcphttp.NewClient]: https://pkg.go.dev/github.com/grue-lab/grue/game/mcp/mcphttp#NewClient
const TokenEnv = "GRUE_SERVE_TOKEN"

// takeGame starts a game of the client's own on a connection without a
// session, when the server issues game handles: its tools take a game_id
// and it offers new_game. A server that offers neither (one that keeps a
// game per connection, or one game) is played as it is.
func (c *Client) takeGame(ctx context.Context) error {
	if !mcpgo.IsModernProtocol(c.version) || c.proc != nil {
		return nil
	}
	takes, hasNew, err := c.gameTools(ctx)
	if err != nil || !hasNew || len(takes) == 0 {
		return err
	}
	r, err := c.callRemote(ctx, ToolNewGame, map[string]any{})
	if err != nil {
		return err
	}
	id := r.String(gameIDArg)
	if r.IsError || id == "" {
		return fmt.Errorf("new_game gave no game_id: %s", r.Text)
	}
	c.mu.Lock()
	c.gameID, c.takesGame = id, takes
	c.mu.Unlock()
	return nil
}

// gameTools lists the server's tools that take a game_id, and whether it
// offers new_game.
func (c *Client) gameTools(ctx context.Context) (map[string]bool, bool, error) {
	tools, err := c.listTools(ctx)
	if err != nil {
		return nil, false, err
	}
	takes := map[string]bool{}
	hasNew := false
	for _, t := range tools {
		hasNew = hasNew || t.Name == ToolNewGame
		if info, err := toolInfo(t); err == nil {
			if props, _ := info.InputSchema["properties"].(map[string]any); props[gameIDArg] != nil {
				takes[t.Name] = true
			}
		}
	}
	return takes, hasNew, nil
}

// ProtocolVersion is the MCP protocol version the connection negotiated:
// "2026-07-28" (stateless, no session) or an earlier one (a session
// started by initialize); "" for an in-process client, which uses none.
func (c *Client) ProtocolVersion() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version
}

// GameID is the game_id of the game the client plays on a server that
// issues game handles: the one it started at connect on a connection
// without a session, or the last one new_game started through it; ""
// when it plays its session's game.
func (c *Client) GameID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gameID
}

// NewStdioClient starts command with args as an MCP server speaking over its
// stdin and stdout, and initializes the session. The server's stderr is read
// all the time (so a chatty server never blocks) and its last lines are kept
// for error messages. The process outlives ctx, which bounds the start only;
// Close ends it.
func NewStdioClient(ctx context.Context, command string, args ...string) (*Client, error) {
	c := &Client{proc: &stdioProc{command: command, args: args}}
	if err := c.startStdio(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// stdioDiscoverTimeout is how long a stdio server has to answer the
// server/discover probe before it is taken for a legacy server and sent
// initialize. mcp-go waits 5 s, which a server that starts slowly (node
// loading an SDK on a busy machine) misses: a server of MCP 2026-07-28
// only would then be sent initialize, which it refuses. A legacy server
// that ignores the probe, rather than refusing it, costs this long at
// start.
const stdioDiscoverTimeout = 20 * time.Second

// stdioProc is a stdio server process and what the client knows about it.
type stdioProc struct {
	command string
	args    []string

	tr     *transport.Stdio
	cmd    *exec.Cmd
	stderr *tailBuffer
	exited chan struct{} // closed when the server's stderr ends: it has exited
	dead   error         // why the server is dead, once known
}

func (p *stdioProc) name() string {
	return strings.Join(append([]string{p.command}, p.args...), " ")
}

// startStdio starts (or starts again) the stdio server; c.mu is held or c
// is not yet shared.
func (c *Client) startStdio(ctx context.Context) error {
	p := c.proc
	p.stderr = &tailBuffer{max: 4096}
	p.exited = make(chan struct{})
	p.dead = nil
	tr := transport.NewStdioWithOptions(p.command, nil, p.args,
		transport.WithCommandFunc(func(_ context.Context, command string, env, args []string) (*exec.Cmd, error) {
			// Not exec.CommandContext: the server lives until Close.
			cmd := exec.Command(command, args...)
			cmd.Env = append(os.Environ(), env...)
			p.cmd = cmd
			return cmd, nil
		}))
	if err := tr.Start(ctx); err != nil {
		return fmt.Errorf("starting MCP server %q: %w", p.name(), err)
	}
	p.tr = tr
	go func(r io.Reader, buf *tailBuffer, exited chan struct{}) {
		io.Copy(buf, r)
		close(exited)
	}(tr.Stderr(), p.stderr, p.exited)
	cl := mcpclient.NewClient(tr, mcpclient.WithDiscoverTimeout(stdioDiscoverTimeout))
	if err := cl.Start(ctx); err != nil {
		tr.Close()
		return fmt.Errorf("starting MCP server %q: %w", p.name(), err)
	}
	if err := Initialize(ctx, cl, ""); err != nil {
		err = c.stdioError(err)
		cl.Close()
		return fmt.Errorf("starting MCP server %q: %w", p.name(), err)
	}
	c.remote = cl
	c.version = cl.ProtocolVersion()
	return nil
}

// stdioError turns a failed call into an error that says the server died,
// with how and its last words, when it did.
func (c *Client) stdioError(err error) error {
	p := c.proc
	if p.dead != nil {
		return p.dead
	}
	select {
	case <-p.exited:
	case <-time.After(300 * time.Millisecond):
		return err // alive: an ordinary failure
	}
	how := "exited"
	if werr := p.tr.Close(); werr != nil {
		how = werr.Error()
	}
	msg := fmt.Sprintf("MCP server %q died (%s); call Restart to start it again", p.name(), how)
	if tail := strings.TrimSpace(p.stderr.String()); tail != "" {
		msg += "; its last output on stderr: " + tail
	}
	p.dead = errors.New(msg)
	return p.dead
}

// Restart starts a stdio client's server again after it died (or at any
// time), with a fresh session and so a fresh game.
func (c *Client) Restart(ctx context.Context) error {
	if c.proc == nil {
		return errors.New("Restart: only a stdio client has a server process to restart")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.remote != nil {
		c.remote.Close()
		c.remote = nil
	}
	c.gameID, c.takesGame = "", nil // a game started by new_game died with the process
	return c.startStdio(ctx)
}

// Initialize connects c in the era of version: "" negotiates (server/discover
// first, then initialize), a version of 2026-07-28 or later insists on it
// (a server that falls back to a session is an error), an earlier one
// starts a session.
func Initialize(ctx context.Context, c *mcpclient.Client, version string) error {
	req := mcpgo.InitializeRequest{}
	req.Params.ProtocolVersion = version
	req.Params.ClientInfo = mcpgo.Implementation{Name: "grue", Version: "dev"}
	if _, err := c.Initialize(ctx, req); err != nil {
		return err
	}
	if got := c.ProtocolVersion(); mcpgo.IsModernProtocol(version) && got != version {
		return fmt.Errorf("the server does not speak MCP %s (it answered server/discover with no such version, and initialize with %s)", version, got)
	}
	return nil
}

// client returns the remote client, or the error that says why there is
// none.
func (c *Client) client() (*mcpclient.Client, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.proc != nil {
		if c.proc.dead != nil {
			return nil, c.proc.dead
		}
		select {
		case <-c.proc.exited:
			return nil, c.stdioError(errors.New("server exited"))
		default:
		}
	}
	if c.remote == nil {
		return nil, errors.New("MCP client is closed")
	}
	return c.remote, nil
}

// CallTool calls the tool name with args. The error is for calls that did
// not reach the tool (a dead server, a broken connection, an unknown
// tool); a tool that fails answers a ToolResult with IsError set.
//
// A client that plays a game by its game_id (see [Client.GameID]) adds it
// to the call of every tool that takes one, unless args names a game_id
// itself; a new_game through the client (or a reset_game that started a
// new game) moves the client to the game it returns.
func (c *Client) CallTool(ctx context.Context, name string, args map[string]any) (ToolResult, error) {
	c.mu.Lock()
	id, takes := c.gameID, c.takesGame[name]
	c.mu.Unlock()
	_, explicit := args[gameIDArg]
	if id != "" && takes && !explicit {
		with := make(map[string]any, len(args)+1)
		maps.Copy(with, args)
		with[gameIDArg] = id
		args = with
	}
	var r ToolResult
	var err error
	if c.srv != nil {
		r, err = c.callInProcess(ctx, name, args)
	} else {
		r, err = c.callRemote(ctx, name, args)
	}
	if err == nil && !explicit && !r.IsError {
		err = c.follow(ctx, name, id, r)
	}
	return r, err
}

// follow moves the client to the game a new_game call started (or a
// reset_game without a game_id, on a client that plays one by its ID, as
// that starts a new game), so that the next calls play it.
func (c *Client) follow(ctx context.Context, name, id string, r ToolResult) error {
	nid := r.String(gameIDArg)
	if nid == "" || nid == id || !(name == ToolNewGame || (name == ToolResetGame && id != "")) {
		return nil
	}
	c.mu.Lock()
	takes := c.takesGame
	c.mu.Unlock()
	if takes == nil {
		var err error
		if takes, _, err = c.gameTools(ctx); err != nil {
			return fmt.Errorf("%s started game %s, but the tools that play it are unknown: %w", name, nid, err)
		}
	}
	c.mu.Lock()
	c.gameID, c.takesGame = nid, takes
	c.mu.Unlock()
	return nil
}

// callRemote calls the tool name with args on a stdio or HTTP server.
func (c *Client) callRemote(ctx context.Context, name string, args map[string]any) (ToolResult, error) {
	cl, err := c.client()
	if err != nil {
		return ToolResult{}, err
	}
	if args == nil {
		// "arguments": null is refused by the TypeScript SDK's servers;
		// no arguments is an empty object.
		args = map[string]any{}
	}
	req := mcpgo.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := cl.CallTool(ctx, req)
	if err != nil {
		if c.proc != nil {
			c.mu.Lock()
			err = c.stdioError(err)
			c.mu.Unlock()
		}
		return ToolResult{}, fmt.Errorf("calling %s: %w", name, err)
	}
	return toolResult(res), nil
}

func (c *Client) callInProcess(ctx context.Context, name string, args map[string]any) (ToolResult, error) {
	h, ok := c.srv.handlers[name]
	if !ok {
		return ToolResult{}, fmt.Errorf("calling %s: no such tool", name)
	}
	req := mcpgo.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := h(context.WithValue(ctx, sessionKey{}, c.id), req)
	if err != nil {
		return ToolResult{}, fmt.Errorf("calling %s: %w", name, err)
	}
	return toolResult(res), nil
}

func toolResult(res *mcpgo.CallToolResult) ToolResult {
	var texts []string
	for _, ct := range res.Content {
		if t, ok := mcpgo.AsTextContent(ct); ok {
			texts = append(texts, t.Text)
		}
	}
	st, _ := res.StructuredContent.(map[string]any)
	return ToolResult{Text: strings.Join(texts, "\n"), Structured: st, IsError: res.IsError}
}

// Tools lists the server's tool names, sorted.
func (c *Client) Tools(ctx context.Context) ([]string, error) {
	tools, err := c.listTools(ctx)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	slices.Sort(names)
	return names, nil
}

// ToolInfo describes one of the server's tools as a model would see it:
// its name, its description and the JSON Schema of its arguments (an
// object schema, decoded from JSON: nested values are map[string]any and
// []any). ReadOnly is the server's hint that the tool changes nothing.
type ToolInfo struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	InputSchema map[string]any `json:"input_schema"`
	ReadOnly    bool           `json:"read_only,omitempty"`
}

// ToolInfos describes the server's tools, sorted by name: from the tools
// grue's server registered when in process, from the server's tools/list
// otherwise.
func (c *Client) ToolInfos(ctx context.Context) ([]ToolInfo, error) {
	tools, err := c.listTools(ctx)
	if err != nil {
		return nil, err
	}
	infos := make([]ToolInfo, 0, len(tools))
	for _, t := range tools {
		var info ToolInfo
		if params, ok := c.inProcessParams(t.Name); ok {
			info = toolInfoOf(t, paramsSchema(params))
		} else if info, err = toolInfo(t); err != nil {
			return nil, err
		}
		infos = append(infos, withoutGameID(info))
	}
	sort.Slice(infos, func(i, j int) bool { return infos[i].Name < infos[j].Name })
	return infos, nil
}

// listTools is the server's tools: those grue's server registered when in
// process, the server's tools/list otherwise.
func (c *Client) listTools(ctx context.Context) ([]mcpgo.Tool, error) {
	var tools []mcpgo.Tool
	if c.srv != nil {
		for _, st := range c.srv.tools {
			tools = append(tools, st.Tool)
		}
		return tools, nil
	}
	cl, err := c.client()
	if err != nil {
		return nil, err
	}
	res, err := cl.ListTools(ctx, mcpgo.ListToolsRequest{})
	if err != nil {
		if c.proc != nil {
			c.mu.Lock()
			err = c.stdioError(err)
			c.mu.Unlock()
		}
		return nil, fmt.Errorf("listing tools: %w", err)
	}
	return res.Tools, nil
}

// withoutGameID drops an optional game_id argument from info's schema: the
// client fills it in itself (its session's game, or the game it started),
// so a model never has to copy one, nor can it name another's game by
// mistake. A required game_id stays: that server asks the caller for it.
func withoutGameID(info ToolInfo) ToolInfo {
	props, _ := info.InputSchema["properties"].(map[string]any)
	if _, ok := props[gameIDArg]; !ok {
		return info
	}
	if req, _ := info.InputSchema["required"].([]any); slices.Contains(req, any(gameIDArg)) {
		return info
	}
	info.InputSchema = maps.Clone(info.InputSchema)
	props = maps.Clone(props)
	delete(props, gameIDArg)
	info.InputSchema["properties"] = props
	return info
}

// toolInfo reads t's input schema from its JSON form: the raw schema
// grue's server writes (and a client may have kept as it came), else the
// structured one marshalled.
func toolInfo(t mcpgo.Tool) (ToolInfo, error) {
	raw := t.RawInputSchema
	if len(raw) == 0 {
		b, err := json.Marshal(t.InputSchema)
		if err != nil {
			return ToolInfo{}, fmt.Errorf("tool %s: %w", t.Name, err)
		}
		raw = b
	}
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil {
		return ToolInfo{}, fmt.Errorf("tool %s: input schema: %w", t.Name, err)
	}
	if schema == nil {
		schema = map[string]any{"type": "object"}
	}
	return toolInfoOf(t, schema), nil
}

// toolInfoOf is t's ToolInfo with the input schema schema.
func toolInfoOf(t mcpgo.Tool, schema map[string]any) ToolInfo {
	ro := t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint
	return ToolInfo{Name: t.Name, Description: t.Description, InputSchema: schema, ReadOnly: ro}
}

// inProcessParams returns the arguments grue's server registered the tool
// name with, when the client calls the server in process.
func (c *Client) inProcessParams(name string) (map[string]param, bool) {
	if c.srv == nil {
		return nil, false
	}
	params, ok := c.srv.params[name]
	return params, ok
}

// Close ends the session: it stops a stdio server, ends an HTTP session,
// and drops an in-process game.
func (c *Client) Close() error {
	if c.srv != nil {
		c.srv.Close()
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.remote == nil {
		return nil
	}
	err := c.remote.Close()
	c.remote = nil
	if c.proc != nil && c.proc.dead != nil {
		return nil // its end was reported already
	}
	return err
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
