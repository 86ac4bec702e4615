package kernel

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"sync"
	"time"
)

// ProtocolVersion is the version of the Jupyter messaging protocol the
// kernel speaks.
const ProtocolVersion = "5.3"

// delimiter separates a message's routing identities from its frames.
var delimiter = []byte("<IDS|MSG>")

// header is a message's header.
type header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// message is one Jupyter message, as it travels: the identities of the
// peer it came from (shell, control), its header, its parent's header as
// it was (the raw JSON, given back unchanged), metadata and content.
type message struct {
	ids      [][]byte
	header   header
	parent   json.RawMessage
	metadata json.RawMessage
	content  json.RawMessage
}

// signer signs and checks messages with the connection's key
// (HMAC-SHA256); with no key, messages are neither signed nor checked,
// as the protocol says. It refuses a signature it has seen before (a
// replayed message), remembering the last maxSeen.
type signer struct {
	key []byte

	mu   sync.Mutex
	seen map[string]bool
	fifo []string
}

const maxSeen = 1 << 14

func newSigner(key string) *signer {
	return &signer{key: []byte(key), seen: map[string]bool{}}
}

func (s *signer) mac(frames ...[]byte) []byte {
	var h hash.Hash = hmac.New(sha256.New, s.key)
	for _, f := range frames {
		h.Write(f)
	}
	return h.Sum(nil)
}

// sign returns the hex signature of a message's four frames.
func (s *signer) sign(frames ...[]byte) []byte {
	if len(s.key) == 0 {
		return []byte{}
	}
	return []byte(hex.EncodeToString(s.mac(frames...)))
}

// errSignature is a message whose signature is wrong, missing or
// replayed: the kernel drops it.
var errSignature = errors.New("bad message signature")

// check verifies sig over the frames, in constant time, and refuses a
// signature seen before.
func (s *signer) check(sig []byte, frames ...[]byte) error {
	if len(s.key) == 0 {
		return nil
	}
	got := make([]byte, hex.DecodedLen(len(sig)))
	n, err := hex.Decode(got, sig)
	if err != nil || !hmac.Equal(got[:n], s.mac(frames...)) {
		return errSignature
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := string(sig)
	if s.seen[k] {
		return fmt.Errorf("%w: replayed", errSignature)
	}
	s.seen[k] = true
	s.fifo = append(s.fifo, k)
	if len(s.fifo) > maxSeen {
		delete(s.seen, s.fifo[0])
		s.fifo = s.fifo[1:]
	}
	return nil
}

// maxFrame bounds each of a message's JSON frames: a cell's code, an
// output. Larger messages are refused.
const maxFrame = 64 << 20

// parse reads a message from its frames, checking its signature.
func (s *signer) parse(frames [][]byte) (*message, error) {
	i := 0
	for i < len(frames) && !bytes.Equal(frames[i], delimiter) {
		i++
	}
	if i == len(frames) || len(frames) < i+6 {
		return nil, fmt.Errorf("malformed message: %d frames, no delimiter or too few after it", len(frames))
	}
	sig, hdr, parent, meta, content := frames[i+1], frames[i+2], frames[i+3], frames[i+4], frames[i+5]
	for _, f := range [][]byte{hdr, parent, meta, content} {
		if len(f) > maxFrame {
			return nil, fmt.Errorf("message frame of %d bytes, past the limit of %d", len(f), maxFrame)
		}
	}
	if err := s.check(sig, hdr, parent, meta, content); err != nil {
		return nil, err
	}
	m := &message{ids: frames[:i], parent: hdr, metadata: meta, content: content}
	if err := json.Unmarshal(hdr, &m.header); err != nil {
		return nil, fmt.Errorf("message header: %w", err)
	}
	if m.header.MsgType == "" {
		return nil, errors.New("message header without msg_type")
	}
	return m, nil
}

// newID returns a fresh message or session id.
func newID() string { return rand.Text() }

// frames encodes a message of type msgType with content, in reply to (or
// caused by) parent, for the identities ids.
func (s *signer) frames(session string, ids [][]byte, msgType string, parent json.RawMessage, content any) ([][]byte, error) {
	h, err := json.Marshal(header{
		MsgID: newID(), Session: session, Username: "grue",
		Date:    time.Now().UTC().Format(time.RFC3339Nano),
		MsgType: msgType, Version: ProtocolVersion,
	})
	if err != nil {
		return nil, err
	}
	if parent == nil {
		parent = json.RawMessage("{}")
	}
	c, err := json.Marshal(content)
	if err != nil {
		return nil, fmt.Errorf("%s content: %w", msgType, err)
	}
	meta := []byte("{}")
	out := make([][]byte, 0, len(ids)+6)
	out = append(out, ids...)
	out = append(out, delimiter, s.sign(h, parent, meta, c), h, parent, meta, c)
	return out, nil
}
