package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/go-zeromq/zmq4"
)

// MaxInput bounds the text of one input_reply the session reads.
const MaxInput = 1 << 20

// input is the state of the session's standard input (Stdin): the
// execute request running, whether it allows stdin, and what the front
// end typed that the cell has not read yet.
type input struct {
	mu      sync.Mutex
	allowed bool
	ids     [][]byte        // the request's identities, to route input_request
	parent  json.RawMessage // the request's header
	ctx     context.Context // the cell's: an interrupt ends a wait
	buf     []byte          // read from the front end, not yet by the cell

	replies chan string // input_reply values, from readStdin
}

// Stdin returns the session's standard input, what fmt.Scan and os.Stdin
// read in a cell: during an execute request with allow_stdin, a read with
// nothing typed yet asks the front end, as ipykernel does for input(): an
// input_request (an empty prompt, not a password) on the stdin channel,
// and what its input_reply gives, with a newline, is read. Otherwise
// (allow_stdin false, as nbconvert sends, or between cells) it is at end
// of file. An interrupt ends the wait with an error.
func (k *Kernel) Stdin() io.Reader { return stdinReader{k} }

type stdinReader struct{ k *Kernel }

func (r stdinReader) Read(p []byte) (int, error) {
	in := &r.k.in
	in.mu.Lock()
	if len(in.buf) == 0 {
		if !in.allowed {
			in.mu.Unlock()
			return 0, io.EOF
		}
		ids, parent, ctx := in.ids, in.parent, in.ctx
		in.mu.Unlock()
		value, err := r.k.askInput(ctx, ids, parent)
		if err != nil {
			return 0, err
		}
		in.mu.Lock()
		in.buf = append(in.buf, value...)
		in.buf = append(in.buf, '\n')
	}
	n := copy(p, in.buf)
	in.buf = in.buf[n:]
	in.mu.Unlock()
	return n, nil
}

// askInput sends an input_request for the request of ids and parent and
// waits for the front end's input_reply.
func (k *Kernel) askInput(ctx context.Context, ids [][]byte, parent json.RawMessage) (string, error) {
	// A reply to an earlier request that the cell stopped waiting for
	// is not this one's.
	for drained := false; !drained; {
		select {
		case <-k.in.replies:
		default:
			drained = true
		}
	}
	frames, err := k.signer.frames(k.session, ids, "input_request", parent, map[string]any{"prompt": "", "password": false})
	if err == nil {
		k.stdinMu.Lock()
		err = k.stdin.Send(zmq4.NewMsgFrom(frames...))
		k.stdinMu.Unlock()
	}
	if err != nil {
		return "", fmt.Errorf("asking the front end for input: %w", err)
	}
	select {
	case v := <-k.in.replies:
		return v, nil
	case <-ctx.Done():
		return "", fmt.Errorf("waiting for input: %w", ctx.Err())
	case <-k.done:
		return "", errors.New("waiting for input: the kernel is shutting down")
	}
}

// readStdin takes the front end's input_reply messages off the stdin
// channel for the cell waiting for input.
func (k *Kernel) readStdin() {
	for {
		raw, err := k.stdin.Recv()
		if err != nil {
			return
		}
		m, err := k.signer.parse(raw.Frames)
		if err != nil {
			k.logf("message refused: %v", err)
			continue
		}
		if m.header.MsgType != "input_reply" {
			k.logf("%s on the stdin channel refused: it takes input_reply", m.header.MsgType)
			continue
		}
		var c struct {
			Value string `json:"value"`
		}
		if err := json.Unmarshal(m.content, &c); err != nil {
			k.logf("input_reply refused: %v", err)
			continue
		}
		if len(c.Value) > MaxInput {
			k.logf("input_reply refused: %d bytes of input, past the limit of %d", len(c.Value), MaxInput)
			continue
		}
		select {
		case k.in.replies <- c.Value:
		default:
			k.logf("input_reply refused: no cell is waiting for input")
		}
	}
}

// allowInput sets what Stdin reads for the execute request m: the front
// end, when allow is true, until the returned func is called.
func (k *Kernel) allowInput(ctx context.Context, m *message, allow bool) (done func()) {
	k.in.mu.Lock()
	k.in.allowed, k.in.ids, k.in.parent, k.in.ctx, k.in.buf = allow, m.ids, m.parent, ctx, nil
	k.in.mu.Unlock()
	return func() {
		k.in.mu.Lock()
		k.in.allowed, k.in.ids, k.in.parent, k.in.ctx, k.in.buf = false, nil, nil, nil, nil
		k.in.mu.Unlock()
	}
}
