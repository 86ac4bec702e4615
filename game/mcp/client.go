package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
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
	mu     sync.Mutex
	remote *mcpclient.Client
	proc   *stdioProc // stdio only
	url    string     // HTTP only
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
// [NewHTTPClient] sends it.
const TokenEnv = "GRUE_SERVE_TOKEN"

// NewHTTPClient connects to the streamable HTTP MCP server at url (for grue
// serve --http ADDR: http://ADDR/mcp) and initializes a session. When the
// GRUE_SERVE_TOKEN environment variable is set, every request carries it
// as a bearer token.
func NewHTTPClient(ctx context.Context, url string) (*Client, error) {
	var opts []transport.StreamableHTTPCOption
	if tok := os.Getenv(TokenEnv); tok != "" {
		opts = append(opts, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + tok}))
	}
	c, err := mcpclient.NewStreamableHttpClient(url, opts...)
	if err != nil {
		return nil, fmt.Errorf("MCP client for %s: %w", url, err)
	}
	if err := c.Start(ctx); err != nil {
		return nil, fmt.Errorf("MCP client for %s: %w", url, err)
	}
	if err := initialize(ctx, c); err != nil {
		c.Close()
		return nil, fmt.Errorf("MCP server at %s: %w", url, err)
	}
	return &Client{remote: c, url: url}, nil
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
	cl := mcpclient.NewClient(tr)
	if err := cl.Start(ctx); err != nil {
		tr.Close()
		return fmt.Errorf("starting MCP server %q: %w", p.name(), err)
	}
	if err := initialize(ctx, cl); err != nil {
		err = c.stdioError(err)
		cl.Close()
		return fmt.Errorf("starting MCP server %q: %w", p.name(), err)
	}
	c.remote = cl
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
	return c.startStdio(ctx)
}

func initialize(ctx context.Context, c *mcpclient.Client) error {
	req := mcpgo.InitializeRequest{}
	req.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcpgo.Implementation{Name: "grue", Version: "dev"}
	_, err := c.Initialize(ctx, req)
	return err
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
func (c *Client) CallTool(ctx context.Context, name string, args map[string]any) (ToolResult, error) {
	if c.srv != nil {
		return c.callInProcess(ctx, name, args)
	}
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
	infos, err := c.ToolInfos(ctx)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(infos))
	for i, t := range infos {
		names[i] = t.Name
	}
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
	var tools []mcpgo.Tool
	if c.srv != nil {
		for _, st := range c.srv.mcp.ListTools() {
			tools = append(tools, st.Tool)
		}
	} else {
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
		tools = res.Tools
	}
	infos := make([]ToolInfo, 0, len(tools))
	for _, t := range tools {
		info, err := toolInfo(t)
		if err != nil {
			return nil, err
		}
		infos = append(infos, info)
	}
	sort.Slice(infos, func(i, j int) bool { return infos[i].Name < infos[j].Name })
	return infos, nil
}

// toolInfo reads t's input schema through its JSON form, which covers
// both the structured and the raw schema an mcpgo.Tool may carry.
func toolInfo(t mcpgo.Tool) (ToolInfo, error) {
	b, err := json.Marshal(t)
	if err != nil {
		return ToolInfo{}, fmt.Errorf("tool %s: %w", t.Name, err)
	}
	var wire struct {
		InputSchema map[string]any `json:"inputSchema"`
	}
	if err := json.Unmarshal(b, &wire); err != nil {
		return ToolInfo{}, fmt.Errorf("tool %s: input schema: %w", t.Name, err)
	}
	if wire.InputSchema == nil {
		wire.InputSchema = map[string]any{"type": "object"}
	}
	ro := t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint
	return ToolInfo{Name: t.Name, Description: t.Description, InputSchema: wire.InputSchema, ReadOnly: ro}, nil
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
