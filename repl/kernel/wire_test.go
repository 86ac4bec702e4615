package kernel

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSignatures: a message signed with the key is read; one signed
// with another key, unsigned, or sent a second time is refused.
func TestSignatures(t *testing.T) {
	s := newSigner("secret")
	frames, err := s.frames("sess", [][]byte{[]byte("peer")}, "kernel_info_request", nil, map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.parse(frames)
	if err != nil {
		t.Fatalf("a message signed with the key is refused: %v", err)
	}
	if m.header.MsgType != "kernel_info_request" || string(m.ids[0]) != "peer" {
		t.Errorf("parsed %+v", m)
	}
	if _, err := s.parse(frames); !errors.Is(err, errSignature) {
		t.Errorf("a replayed message is read: %v", err)
	}

	other := newSigner("not the key")
	forged, _ := other.frames("sess", nil, "execute_request", nil, map[string]any{"code": "1"})
	if _, err := s.parse(forged); !errors.Is(err, errSignature) {
		t.Errorf("a message signed with another key is read: %v", err)
	}
	unsigned, _ := newSigner("").frames("sess", nil, "execute_request", nil, map[string]any{"code": "1"})
	if _, err := s.parse(unsigned); !errors.Is(err, errSignature) {
		t.Errorf("an unsigned message is read: %v", err)
	}
	if _, err := s.parse([][]byte{[]byte("no delimiter")}); err == nil {
		t.Error("a malformed message is read")
	}
}

// TestReadConnection: the defaults, and a file that names what grue
// cannot do is refused saying why.
func TestReadConnection(t *testing.T) {
	dir := t.TempDir()
	write := func(body string) string {
		p := filepath.Join(dir, "c.json")
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ports := `"shell_port": 1, "iopub_port": 2, "stdin_port": 3, "control_port": 4, "hb_port": 5`
	c, err := ReadConnection(write(`{` + ports + `, "key": "k"}`))
	if err != nil {
		t.Fatal(err)
	}
	if c.IP != "127.0.0.1" || c.Transport != "tcp" || c.endpoint(c.ShellPort) != "tcp://127.0.0.1:1" {
		t.Errorf("defaults: %+v", c)
	}
	for _, tc := range []struct{ body, want string }{
		{`{` + ports + `, "signature_scheme": "hmac-md5"}`, "hmac-sha256 only"},
		{`{` + ports + `, "transport": "udp"}`, "transport"},
		{`{"shell_port": 1}`, "iopub_port 0 is not a port"},
		{`not json`, "connection file"},
	} {
		if _, err := ReadConnection(write(tc.body)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error saying %q", tc.body, err, tc.want)
		}
	}
}

// TestWordAt finds the dotted name under the cursor, for inspect.
func TestWordAt(t *testing.T) {
	code := "x := strings.Split(s, sep)"
	if got := wordAt(code, strings.Index(code, "Split")+2); got != "strings.Split" {
		t.Errorf("wordAt = %q", got)
	}
	if got := wordAt(code, runeOffset(code, 100)); got != "" {
		t.Errorf("past the end: %q", got)
	}
}
