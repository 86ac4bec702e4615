package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// DefaultMaxLine is the default cap on one stdio message, in bytes.
const DefaultMaxLine = 4 << 20

// WithMaxLine caps one stdio message (one line of JSON-RPC) at n bytes
// (default [DefaultMaxLine]); a longer line is skipped, without being
// held in memory, and answered with an error.
func WithMaxLine(n int) ServerOption { return func(c *serverConfig) { c.maxLine = n } }

// ServeStdio serves one MCP session over in and out (newline-delimited
// JSON-RPC) until in ends or ctx is cancelled. Messages are handled one
// at a time, in the order they came, by mcp-go's protocol handler, so
// pipelined calls are answered in order; a line longer than the cap (see
// [WithMaxLine]) is refused without being read into memory; a last
// message without a newline is handled too; and a legacy request other
// than initialize or ping before initialize is refused. A request of
// protocol 2026-07-28 (no initialize, server/discover, its version in
// _meta) is served as it comes; either era plays the process's one game.
//
// mcp-go's own stdio server runs tool calls on a pool of workers (so they
// finish and are answered out of order), reads lines without a limit and
// drops a last line without a newline: this loop replaces only its
// reading and dispatching, and hands every message to
// [server.MCPServer.HandleMessage].
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer, errLog io.Writer) error {
	sess := &stdioSession{notes: make(chan mcpgo.JSONRPCNotification, 16)}
	mcp := s.mcpServer()
	if err := mcp.RegisterSession(ctx, sess); err != nil {
		return fmt.Errorf("grue serve: %w", err)
	}
	defer mcp.UnregisterSession(context.WithoutCancel(ctx), sess.SessionID())
	ctx, cancel := context.WithCancel(mcp.WithContext(ctx, sess))
	defer cancel()
	w := &syncWriter{w: out}
	go func() { // server notifications, written between replies
		for {
			select {
			case <-ctx.Done():
				return
			case n := <-sess.notes:
				w.writeJSON(n)
			}
		}
	}()
	lines := make(chan stdioLine)
	go readLines(ctx, in, s.cfg.maxLine, lines)
	for {
		var l stdioLine
		select {
		case <-ctx.Done():
			return nil
		case l = <-lines:
		}
		if l.err != nil {
			if errors.Is(l.err, io.EOF) {
				return nil
			}
			return fmt.Errorf("grue serve: reading stdin: %w", l.err)
		}
		if err := s.handleLine(ctx, sess, l, w); err != nil {
			if errLog != nil {
				newLogger(errLog).Printf("writing a reply: %v", err)
			}
			return fmt.Errorf("grue serve: writing stdout: %w", err)
		}
	}
}

// handleLine answers one stdio message.
func (s *Server) handleLine(ctx context.Context, sess *stdioSession, l stdioLine, w *syncWriter) error {
	if l.tooLong {
		return w.writeJSON(rpcError(nil, mcpgo.INVALID_REQUEST,
			fmt.Sprintf("message longer than the limit of %d bytes: skipped", s.cfg.maxLine)))
	}
	var head struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Meta map[string]any `json:"_meta"`
		} `json:"params"`
	}
	if err := json.Unmarshal(l.data, &head); err != nil {
		var arr []json.RawMessage
		if json.Unmarshal(l.data, &arr) != nil { // not JSON at all
			return w.writeJSON(rpcError(nil, mcpgo.PARSE_ERROR, "Parse error"))
		}
	}
	isRequest := len(head.ID) > 0 && string(head.ID) != "null"
	// A request of protocol 2026-07-28 or later carries its version in
	// _meta and needs no initialize: stdio stays one game per process.
	version, _ := head.Params.Meta[mcpgo.MetaKeyProtocolVersion].(string)
	if isRequest && !sess.Initialized() && !mcpgo.IsModernProtocol(version) &&
		head.Method != string(mcpgo.MethodInitialize) && head.Method != string(mcpgo.MethodPing) {
		return w.writeJSON(rpcError(head.ID, mcpgo.INVALID_REQUEST,
			fmt.Sprintf("%s before initialize: send initialize first", head.Method)))
	}
	if resp := s.mcpServer().HandleMessage(ctx, l.data); resp != nil {
		return w.writeJSON(resp)
	}
	return nil
}

// rpcError is a JSON-RPC error reply to the request id (null when the
// request could not be read).
func rpcError(id json.RawMessage, code int, msg string) any {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	return struct {
		JSONRPC string                    `json:"jsonrpc"`
		ID      json.RawMessage           `json:"id"`
		Error   mcpgo.JSONRPCErrorDetails `json:"error"`
	}{mcpgo.JSONRPC_VERSION, id, mcpgo.NewJSONRPCErrorDetails(code, msg, nil)}
}

// stdioLine is one message read from stdin, or the error that ended it.
type stdioLine struct {
	data    []byte
	tooLong bool
	err     error
}

// readLines sends the lines of in to lines, each at most limit bytes (a
// longer one is discarded as it is read, and sent as tooLong), the last
// one even without a newline, then the error that ended in (io.EOF at
// its end).
func readLines(ctx context.Context, in io.Reader, limit int, lines chan<- stdioLine) {
	r := bufio.NewReaderSize(in, 64<<10)
	send := func(l stdioLine) bool {
		select {
		case lines <- l:
			return true
		case <-ctx.Done():
			return false
		}
	}
	var buf []byte
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong && len(buf)+len(chunk) > limit+1 { // +1: the newline
			tooLong, buf = true, nil
		}
		if !tooLong {
			buf = append(buf, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if len(bytesTrim(buf)) > 0 || tooLong {
			if !send(stdioLine{data: bytesTrim(buf), tooLong: tooLong}) {
				return
			}
		}
		buf, tooLong = nil, false
		if err != nil {
			send(stdioLine{err: err})
			return
		}
	}
}

// bytesTrim drops the line end and surrounding blanks.
func bytesTrim(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r' || b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

// stdioSession is the one MCP session of a stdio connection.
type stdioSession struct {
	notes       chan mcpgo.JSONRPCNotification
	initialized atomic.Bool
}

func (s *stdioSession) SessionID() string { return "stdio" }
func (s *stdioSession) NotificationChannel() chan<- mcpgo.JSONRPCNotification {
	return s.notes
}
func (s *stdioSession) Initialize()       { s.initialized.Store(true) }
func (s *stdioSession) Initialized() bool { return s.initialized.Load() }

// syncWriter writes whole JSON lines, one at a time.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *syncWriter) writeJSON(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	_, err = w.w.Write(append(b, '\n'))
	return err
}
