// Package kernel runs a notebook session (package repl) as a Jupyter
// kernel: the Jupyter messaging protocol, version 5.3, over ZeroMQ
// (github.com/go-zeromq/zmq4, pure Go), on the ports of a connection file
// that Jupyter writes. `grue kernel CONNECTION_FILE` runs it with grue's
// workbench; `grue kernel install` writes the kernelspec that makes
// Jupyter start it (see Install).
//
// The session is the terminal REPL's: cells are evaluated by
// repl.Session.Eval, completion is Session.Completions, inspection
// :doc, is_complete Session.Complete. What a cell prints goes out as
// stream messages; the value of its last expression as an execute_result
// and what :table and :plot show as display_data, each with its
// text/plain twin and its richer forms (text/html, text/markdown,
// image/png, image/svg+xml; see repl.Bundle). An interrupt_request on the
// control channel, or SIGINT (Interrupt), cancels the running cell's
// context, as Ctrl-C does in the terminal. A cell that fails aborts the
// execute requests queued behind it (stop_on_error); a cell that reads
// its standard input asks the front end on the stdin channel when its
// request allows it (Kernel.Stdin); a kernel whose client died exits
// (WatchParent).
//
// Every message is checked against the connection's key (HMAC-SHA256,
// compared in constant time); one whose signature is wrong, or was seen
// before, is dropped and logged.
package kernel

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/go-zeromq/zmq4"

	"github.com/grue-lab/grue/repl"
)

// Connection is what a Jupyter connection file says: where to bind each
// channel and the key that signs messages.
type Connection struct {
	Transport       string `json:"transport"`
	IP              string `json:"ip"`
	ShellPort       int    `json:"shell_port"`
	IOPubPort       int    `json:"iopub_port"`
	StdinPort       int    `json:"stdin_port"`
	ControlPort     int    `json:"control_port"`
	HBPort          int    `json:"hb_port"`
	Key             string `json:"key"`
	SignatureScheme string `json:"signature_scheme"`
	KernelName      string `json:"kernel_name"`
}

// maxConnectionFile bounds the connection file read.
const maxConnectionFile = 1 << 16

// ReadConnection reads and checks a connection file: transport tcp (the
// default) or ipc, signature scheme hmac-sha256 (the default), every port
// given; ip defaults to 127.0.0.1.
func ReadConnection(path string) (Connection, error) {
	f, err := os.Open(path)
	if err != nil {
		return Connection{}, fmt.Errorf("connection file: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConnectionFile+1))
	if err != nil {
		return Connection{}, fmt.Errorf("connection file: %w", err)
	}
	if len(data) > maxConnectionFile {
		return Connection{}, fmt.Errorf("connection file %s: larger than %d bytes", path, maxConnectionFile)
	}
	var c Connection
	if err := json.Unmarshal(data, &c); err != nil {
		return Connection{}, fmt.Errorf("connection file %s: %w", path, err)
	}
	if c.Transport == "" {
		c.Transport = "tcp"
	}
	if c.IP == "" {
		c.IP = "127.0.0.1"
	}
	if c.SignatureScheme == "" {
		c.SignatureScheme = "hmac-sha256"
	}
	switch {
	case c.Transport != "tcp" && c.Transport != "ipc":
		return Connection{}, fmt.Errorf("connection file %s: transport %q (want tcp or ipc)", path, c.Transport)
	case c.SignatureScheme != "hmac-sha256":
		return Connection{}, fmt.Errorf("connection file %s: signature scheme %q (grue signs with hmac-sha256 only)", path, c.SignatureScheme)
	}
	for _, p := range []struct {
		name string
		port int
	}{{"shell_port", c.ShellPort}, {"iopub_port", c.IOPubPort}, {"stdin_port", c.StdinPort}, {"control_port", c.ControlPort}, {"hb_port", c.HBPort}} {
		if p.port <= 0 || p.port > 65535 {
			return Connection{}, fmt.Errorf("connection file %s: %s %d is not a port", path, p.name, p.port)
		}
	}
	return c, nil
}

// endpoint is the ZeroMQ address of a channel's port.
func (c Connection) endpoint(port int) string {
	if c.Transport == "ipc" {
		return fmt.Sprintf("ipc://%s-%d", c.IP, port)
	}
	return "tcp://" + net.JoinHostPort(c.IP, strconv.Itoa(port))
}

// Options configure a kernel.
type Options struct {
	// Start starts the kernel's session, whose output goes to stdout
	// and stderr (the kernel's stream messages) and whose standard input
	// is stdin (Kernel.Stdin: the front end's, for a request that allows
	// it).
	Start func(stdout, stderr io.Writer, stdin io.Reader) (*repl.Session, error)
	// Close ends the session at shutdown; nil calls Session.Close.
	Close func() error
	// Version is the implementation's version in kernel_info.
	Version string
	// Log receives the kernel's own messages (refused messages, errors
	// sending); nil is os.Stderr.
	Log io.Writer
}

// Kernel is a running kernel: its sockets, its session, the cell it runs.
type Kernel struct {
	conn    Connection
	opts    Options
	signer  *signer
	session string // the kernel's session id, in every header it sends
	sess    *repl.Session
	banner  string // kernel_info's: who the session is

	shell, control, stdin, iopub, hb zmq4.Socket

	pubMu  sync.Mutex
	parent json.RawMessage // header of the request being handled, for outputs
	silent bool            // the running execute_request is silent

	cellMu sync.Mutex
	cancel context.CancelFunc // cancels the running cell; nil when none

	count int // execution_count of the last cell stored in history

	in      input      // the session's standard input (Stdin)
	stdinMu sync.Mutex // sending on the stdin channel

	done     chan struct{}
	doneOnce sync.Once
}

// Run binds the channels of conn, starts the session and serves until a
// shutdown_request (with or without restart: a restart is the client
// starting a new kernel) or ctx ends. Interrupt, from another goroutine
// (a SIGINT handler), interrupts the running cell.
func Run(ctx context.Context, conn Connection, opts Options, ready func(*Kernel)) error {
	if opts.Log == nil {
		opts.Log = os.Stderr
	}
	k := &Kernel{conn: conn, opts: opts, signer: newSigner(conn.Key), session: newID(), done: make(chan struct{})}
	k.in.replies = make(chan string, 1)
	sess, err := opts.Start(streamWriter{k, "stdout"}, streamWriter{k, "stderr"}, k.Stdin())
	if err != nil {
		return fmt.Errorf("kernel: %w", err)
	}
	k.sess = sess
	k.banner = strings.TrimSpace("grue " + opts.Version + " — " + sess.Banner())
	defer func() {
		if k.opts.Close != nil {
			k.opts.Close()
		} else {
			sess.Close()
		}
	}()
	sess.SetDisplay(k.display)
	sess.AddMagic(repl.Magic{Name: "clear", Help: "clear the cell's output so far (in Jupyter)", Run: func(ctx context.Context, s *repl.Session, args string) error {
		k.publish("clear_output", map[string]any{"wait": args == "--wait"})
		return nil
	}})

	ctx, stop := context.WithCancel(ctx)
	defer stop()
	k.shell = zmq4.NewRouter(ctx)
	k.control = zmq4.NewRouter(ctx)
	k.stdin = zmq4.NewRouter(ctx)
	k.iopub = zmq4.NewPub(ctx)
	k.hb = zmq4.NewRep(ctx)
	socks := []struct {
		s    zmq4.Socket
		port int
		name string
	}{{k.shell, conn.ShellPort, "shell"}, {k.control, conn.ControlPort, "control"}, {k.stdin, conn.StdinPort, "stdin"}, {k.iopub, conn.IOPubPort, "iopub"}, {k.hb, conn.HBPort, "heartbeat"}}
	for _, s := range socks {
		defer s.s.Close()
	}
	for _, s := range socks {
		if err := s.s.Listen(conn.endpoint(s.port)); err != nil {
			return fmt.Errorf("kernel: %s channel: %w", s.name, err)
		}
	}
	if ready != nil {
		ready(k)
	}
	go k.heartbeat()
	go k.readStdin()
	go k.serve(ctx, k.control, true)
	go k.serve(ctx, k.shell, false)
	k.publishTo(nil, "status", map[string]any{"execution_state": "starting"})
	select {
	case <-ctx.Done():
	case <-k.done:
	}
	k.Interrupt()
	return nil
}

// Interrupt cancels the running cell's context, as Ctrl-C does in the
// terminal; it does nothing between cells.
func (k *Kernel) Interrupt() {
	k.cellMu.Lock()
	defer k.cellMu.Unlock()
	if k.cancel != nil {
		k.cancel()
	}
}

func (k *Kernel) logf(format string, args ...any) {
	fmt.Fprintf(k.opts.Log, "grue kernel: "+format+"\n", args...)
}

// heartbeat echoes every ping.
func (k *Kernel) heartbeat() {
	for {
		m, err := k.hb.Recv()
		if err != nil {
			return
		}
		if err := k.hb.Send(m); err != nil {
			return
		}
	}
}

// serve reads requests from a shell or control socket and handles them in
// turn. The shell's execute requests run one at a time; control has its
// own goroutine, so that an interrupt reaches a running cell. A reader
// takes the requests off the socket as they come, so that those sent
// while a cell runs are queued here: when the cell fails and its request
// asked stop_on_error (the default), the execute requests then queued
// are aborted (abortQueued), as ipykernel aborts them.
func (k *Kernel) serve(ctx context.Context, sock zmq4.Socket, control bool) {
	queue := make(chan *message, MaxQueued)
	go k.read(ctx, sock, queue)
	for m := range queue {
		if k.handle(ctx, sock, m, control) {
			k.abortQueued(ctx, sock, queue, control)
		}
	}
}

// MaxQueued bounds the requests read off a channel and waiting for the
// one running to finish; past it, they wait in the socket (and are not
// aborted by stop_on_error).
const MaxQueued = 256

// read parses and checks the requests arriving on sock into queue, and
// closes it when the socket ends.
func (k *Kernel) read(ctx context.Context, sock zmq4.Socket, queue chan<- *message) {
	defer close(queue)
	for {
		raw, err := sock.Recv()
		if err != nil {
			select {
			case <-k.done:
			default:
				if ctx.Err() != nil {
					return
				}
				k.logf("reading: %v", err)
				k.stopServing()
			}
			return
		}
		m, err := k.signer.parse(raw.Frames)
		if err != nil {
			k.logf("message refused: %v", err)
			continue
		}
		select {
		case queue <- m:
		case <-k.done:
			return
		case <-ctx.Done():
			return
		}
	}
}

// abortQueued answers every execute request waiting in queue with status
// "aborted", after a cell that failed with stop_on_error: the messaging
// protocol's rule ("aborts the execution queue if an exception is
// encountered"), as ipykernel's _abort_queues applies it (with its
// default stop_on_error_timeout of 0: the requests already waiting, not
// those sent later). Other requests waiting are handled as usual.
func (k *Kernel) abortQueued(ctx context.Context, sock zmq4.Socket, queue <-chan *message, control bool) {
	for {
		select {
		case m, ok := <-queue:
			if !ok {
				return
			}
			if m.header.MsgType != "execute_request" {
				k.handle(ctx, sock, m, control)
				continue
			}
			k.publishTo(m.parent, "status", map[string]any{"execution_state": "busy"})
			k.reply(sock, m, "execute_reply", map[string]any{"status": "aborted"})
			k.publishTo(m.parent, "status", map[string]any{"execution_state": "idle"})
		default:
			return
		}
	}
}

func (k *Kernel) stopServing() { k.doneOnce.Do(func() { close(k.done) }) }

// reply sends a reply of type msgType to request m on sock.
func (k *Kernel) reply(sock zmq4.Socket, m *message, msgType string, content any) {
	frames, err := k.signer.frames(k.session, m.ids, msgType, m.parent, content)
	if err == nil {
		err = sock.Send(zmq4.NewMsgFrom(frames...))
	}
	if err != nil {
		k.logf("sending %s: %v", msgType, err)
	}
}

// publish sends an iopub message caused by the request being handled.
func (k *Kernel) publish(msgType string, content any) {
	k.pubMu.Lock()
	parent := k.parent
	k.pubMu.Unlock()
	k.publishTo(parent, msgType, content)
}

func (k *Kernel) publishTo(parent json.RawMessage, msgType string, content any) {
	topic := []byte("kernel." + k.session + "." + msgType)
	frames, err := k.signer.frames(k.session, [][]byte{topic}, msgType, parent, content)
	if err != nil {
		k.logf("sending %s: %v", msgType, err)
		return
	}
	k.pubMu.Lock()
	defer k.pubMu.Unlock()
	if err := k.iopub.Send(zmq4.NewMsgFrom(frames...)); err != nil {
		k.logf("sending %s: %v", msgType, err)
	}
}

// handle answers one request, between a busy and an idle status. It
// reports whether the execute requests queued behind it are to be
// aborted (a cell failed with stop_on_error).
func (k *Kernel) handle(ctx context.Context, sock zmq4.Socket, m *message, control bool) (abort bool) {
	if !control {
		k.pubMu.Lock()
		k.parent = m.parent
		k.pubMu.Unlock()
	}
	k.publishTo(m.parent, "status", map[string]any{"execution_state": "busy"})
	defer k.publishTo(m.parent, "status", map[string]any{"execution_state": "idle"})
	defer func() {
		if r := recover(); r != nil {
			k.logf("handling %s failed, a bug of grue's: %v", m.header.MsgType, r)
		}
	}()
	if control && !controlTypes[m.header.MsgType] {
		// The session runs one cell at a time, on the shell channel.
		k.logf("%s on the control channel refused: send it on shell", m.header.MsgType)
		return
	}
	switch m.header.MsgType {
	case "kernel_info_request":
		k.reply(sock, m, "kernel_info_reply", k.kernelInfo())
	case "execute_request":
		abort = k.execute(ctx, sock, m)
	case "complete_request":
		k.complete(sock, m)
	case "inspect_request":
		k.inspect(ctx, sock, m)
	case "is_complete_request":
		k.isComplete(sock, m)
	case "history_request":
		k.reply(sock, m, "history_reply", map[string]any{"status": "ok", "history": []any{}})
	case "comm_info_request":
		k.reply(sock, m, "comm_info_reply", map[string]any{"status": "ok", "comms": map[string]any{}})
	case "comm_open":
		// No comm targets: the protocol's answer is to close it.
		var c struct {
			CommID string `json:"comm_id"`
		}
		json.Unmarshal(m.content, &c)
		k.publishTo(m.parent, "comm_close", map[string]any{"comm_id": c.CommID, "data": map[string]any{}})
	case "comm_msg", "comm_close":
	case "interrupt_request":
		k.Interrupt()
		k.reply(sock, m, "interrupt_reply", map[string]any{"status": "ok"})
	case "shutdown_request":
		var c struct {
			Restart bool `json:"restart"`
		}
		json.Unmarshal(m.content, &c)
		k.Interrupt()
		k.reply(sock, m, "shutdown_reply", map[string]any{"status": "ok", "restart": c.Restart})
		k.stopServing()
	default:
		k.logf("unknown message type %q", m.header.MsgType)
	}
	return abort
}

// controlTypes are the requests the control channel takes: those that do
// not touch the session, which may be running a cell.
var controlTypes = map[string]bool{
	"kernel_info_request": true, "interrupt_request": true, "shutdown_request": true, "comm_info_request": true,
}

func (k *Kernel) kernelInfo() map[string]any {
	return map[string]any{
		"status":                 "ok",
		"protocol_version":       ProtocolVersion,
		"implementation":         "grue",
		"implementation_version": k.opts.Version,
		"language_info": map[string]any{
			"name":            "go",
			"version":         strings.TrimPrefix(runtime.Version(), "go"),
			"mimetype":        "text/x-go",
			"file_extension":  ".go",
			"pygments_lexer":  "go",
			"codemirror_mode": "go",
		},
		"banner":     k.banner,
		"help_links": []any{},
		"debugger":   false,
	}
}

// execute runs an execute_request's code as a cell. It reports whether
// the execute requests queued behind it are to be aborted: the cell
// failed, and the request is not silent and did not turn stop_on_error
// off (it is on by default, as the messaging protocol says).
func (k *Kernel) execute(ctx context.Context, sock zmq4.Socket, m *message) (abort bool) {
	var c struct {
		Code            string            `json:"code"`
		Silent          bool              `json:"silent"`
		StoreHistory    *bool             `json:"store_history"`
		UserExpressions map[string]string `json:"user_expressions"`
		StopOnError     *bool             `json:"stop_on_error"`
		AllowStdin      bool              `json:"allow_stdin"`
	}
	if err := json.Unmarshal(m.content, &c); err != nil {
		k.reply(sock, m, "execute_reply", errorContent(k.count, "error", "execute_request: "+err.Error(), nil))
		return false
	}
	store := !c.Silent && (c.StoreHistory == nil || *c.StoreHistory)
	if store {
		k.count++
	}
	if !c.Silent {
		k.publish("execute_input", map[string]any{"code": c.Code, "execution_count": k.count})
	}
	k.pubMu.Lock()
	k.silent = c.Silent
	k.pubMu.Unlock()
	defer func() {
		k.pubMu.Lock()
		k.silent = false
		k.pubMu.Unlock()
	}()

	cellCtx, cancel := context.WithCancel(ctx)
	k.cellMu.Lock()
	k.cancel = cancel
	k.cellMu.Unlock()
	inputDone := k.allowInput(cellCtx, m, c.AllowStdin)
	_, err := k.sess.Eval(cellCtx, c.Code)
	inputDone()
	k.cellMu.Lock()
	k.cancel = nil
	k.cellMu.Unlock()
	cancel()

	if errors.Is(err, repl.ErrQuit) {
		k.streamText("stdout", ":quit leaves the terminal REPL; in a notebook, shut the kernel down from its menu\n")
		err = nil
	}
	if err != nil {
		ename, trace := "error", []string{err.Error()}
		var re *repl.Error
		if errors.As(err, &re) {
			ename = string(re.Kind)
			for _, f := range re.Trace {
				trace = append(trace, "    "+f)
			}
		}
		content := errorContent(k.count, ename, err.Error(), trace)
		if !c.Silent {
			k.publish("error", map[string]any{"ename": ename, "evalue": err.Error(), "traceback": trace})
		}
		k.reply(sock, m, "execute_reply", content)
		return !c.Silent && (c.StopOnError == nil || *c.StopOnError)
	}
	k.reply(sock, m, "execute_reply", map[string]any{
		"status": "ok", "execution_count": k.count, "payload": []any{},
		"user_expressions": k.userExpressions(ctx, c.UserExpressions),
	})
	return false
}

func errorContent(count int, ename, evalue string, trace []string) map[string]any {
	if trace == nil {
		trace = []string{evalue}
	}
	return map[string]any{"status": "error", "execution_count": count, "ename": ename, "evalue": evalue, "traceback": trace}
}

// userExpressions evaluates an execute_request's user_expressions after
// its code, each shown as fmt prints it.
func (k *Kernel) userExpressions(ctx context.Context, exprs map[string]string) map[string]any {
	out := map[string]any{}
	for name, expr := range exprs {
		vals, err := k.sess.EvalValues(ctx, expr)
		if err != nil {
			out[name] = map[string]any{"status": "error", "ename": "error", "evalue": err.Error(), "traceback": []string{err.Error()}}
			continue
		}
		var parts []string
		for _, v := range vals {
			if v.IsValid() && v.CanInterface() {
				parts = append(parts, fmt.Sprint(v.Interface()))
			} else {
				parts = append(parts, "nil")
			}
		}
		out[name] = map[string]any{"status": "ok", "data": map[string]any{"text/plain": strings.Join(parts, " ")}, "metadata": map[string]any{}}
	}
	return out
}

// display sends a bundle the session shows: the cell's value as an
// execute_result, anything else as display_data.
func (k *Kernel) display(b repl.Bundle, value bool) {
	k.pubMu.Lock()
	silent := k.silent
	k.pubMu.Unlock()
	if silent {
		return
	}
	data := map[string]any{}
	for mime, v := range b {
		if strings.HasPrefix(mime, "text/") || strings.HasSuffix(mime, "+xml") || strings.HasSuffix(mime, "json") {
			data[mime] = string(v)
		} else {
			data[mime] = base64.StdEncoding.EncodeToString(v)
		}
	}
	if value {
		k.publish("execute_result", map[string]any{"execution_count": k.count, "data": data, "metadata": map[string]any{}})
		return
	}
	k.publish("display_data", map[string]any{"data": data, "metadata": map[string]any{}, "transient": map[string]any{}})
}

// streamText sends text as a stream message, unless the running cell is
// silent.
func (k *Kernel) streamText(name, text string) {
	k.pubMu.Lock()
	silent := k.silent
	k.pubMu.Unlock()
	if silent || text == "" {
		return
	}
	k.publish("stream", map[string]any{"name": name, "text": text})
}

// streamWriter is the session's stdout or stderr: each write a stream
// message.
type streamWriter struct {
	k    *Kernel
	name string
}

func (w streamWriter) Write(p []byte) (int, error) {
	w.k.streamText(w.name, string(p))
	return len(p), nil
}

// runeOffset converts cursor_pos, in Unicode code points (protocol 5.2
// and later), to a byte offset in code, clamped to it.
func runeOffset(code string, pos int) int {
	if pos <= 0 {
		return 0
	}
	n := 0
	for i := range code {
		if n == pos {
			return i
		}
		n++
	}
	return len(code)
}

// complete answers with the REPL's completions of the word before the
// cursor.
func (k *Kernel) complete(sock zmq4.Socket, m *message) {
	var c struct {
		Code      string `json:"code"`
		CursorPos int    `json:"cursor_pos"`
	}
	json.Unmarshal(m.content, &c)
	off := runeOffset(c.Code, c.CursorPos)
	lineStart := strings.LastIndexByte(c.Code[:off], '\n') + 1
	lineEnd := len(c.Code)
	if i := strings.IndexByte(c.Code[off:], '\n'); i >= 0 {
		lineEnd = off + i
	}
	cands, prefix := k.sess.Completions(c.Code[lineStart:lineEnd], off-lineStart)
	if cands == nil {
		cands = []string{}
	}
	cursor := utf8.RuneCountInString(c.Code[:off])
	k.reply(sock, m, "complete_reply", map[string]any{
		"status": "ok", "matches": cands,
		"cursor_start": cursor - utf8.RuneCountInString(prefix), "cursor_end": cursor,
		"metadata": map[string]any{},
	})
}

// inspect answers with what :doc says of the name under the cursor.
func (k *Kernel) inspect(ctx context.Context, sock zmq4.Socket, m *message) {
	var c struct {
		Code      string `json:"code"`
		CursorPos int    `json:"cursor_pos"`
	}
	json.Unmarshal(m.content, &c)
	name := wordAt(c.Code, runeOffset(c.Code, c.CursorPos))
	reply := map[string]any{"status": "ok", "found": false, "data": map[string]any{}, "metadata": map[string]any{}}
	if name != "" {
		if text, err := k.sess.DocText(ctx, name); err == nil && strings.TrimSpace(text) != "" {
			reply["found"] = true
			reply["data"] = map[string]any{"text/plain": text}
		}
	}
	k.reply(sock, m, "inspect_reply", reply)
}

// wordAt is the dotted name (strings.Split, g.Step) around byte offset
// off of code.
func wordAt(code string, off int) string {
	isWord := func(r rune) bool {
		return r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > utf8.RuneSelf
	}
	start, end := off, off
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(code[:start])
		if !isWord(r) {
			break
		}
		start -= size
	}
	for end < len(code) {
		r, size := utf8.DecodeRuneInString(code[end:])
		if !isWord(r) {
			break
		}
		end += size
	}
	return strings.Trim(code[start:end], ".")
}

// isComplete tells jupyter console whether the code typed so far is a
// whole cell.
func (k *Kernel) isComplete(sock zmq4.Socket, m *message) {
	var c struct {
		Code string `json:"code"`
	}
	json.Unmarshal(m.content, &c)
	if k.sess.Complete(c.Code) {
		k.reply(sock, m, "is_complete_reply", map[string]any{"status": "complete"})
		return
	}
	k.reply(sock, m, "is_complete_reply", map[string]any{"status": "incomplete", "indent": ""})
}
