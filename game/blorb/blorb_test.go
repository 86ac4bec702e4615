package blorb_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/grue-lab/grue/game/blorb"
	"github.com/grue-lab/grue/internal/testgames"
)

func TestParseExec(t *testing.T) {
	story := []byte("Glul0123456789")
	data := testgames.Blorb(story, "GLUL", nil, []testgames.Chunk{{Type: "TEXT", Data: []byte("hello")}})
	f, err := blorb.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	typ, exec, ok := f.Exec()
	if !ok || typ != "GLUL" || string(exec) != string(story) {
		t.Fatalf("Exec = %q %q %v", typ, exec, ok)
	}
	if _, _, ok := f.DataResource(7); ok {
		t.Error("a Data resource the index does not list was found")
	}
}

func TestNoGameAndTruncated(t *testing.T) {
	only := testgames.Form("IFRS", testgames.Chunk{Type: "TEXT", Data: []byte("x")})
	chunks, err := blorb.Chunks(only)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := blorb.Exec(only, chunks); !errors.Is(err, blorb.ErrNoGame) {
		t.Errorf("Exec of a file without a game: %v, want ErrNoGame", err)
	}
	data := testgames.Blorb([]byte("Glul0123456789"), "GLUL", nil, nil)
	if _, err := blorb.Parse(data[:len(data)-6]); err == nil || !strings.Contains(err.Error(), "past the end") {
		t.Errorf("a cut file: %v, want a chunk that runs past the end", err)
	}
	if _, err := blorb.Parse([]byte("FORM")); err == nil {
		t.Error("a four-byte file was parsed")
	}
}

// FuzzParse feeds arbitrary bytes to the Blorb reader: every failure is
// an error, never a panic, and what it returns lies inside the file.
func FuzzParse(f *testing.F) {
	f.Add(testgames.Blorb([]byte("Glul0123456789"), "GLUL", nil, nil))
	f.Add(testgames.Form("IFRS", testgames.Chunk{Type: "RIdx", Data: []byte{0, 0, 0, 9}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		bf, err := blorb.Parse(data)
		if err != nil {
			return
		}
		if _, exec, ok := bf.Exec(); ok && len(exec) > len(data) {
			t.Fatalf("the game's %d bytes are more than the file's %d", len(exec), len(data))
		}
		for i := uint32(0); i < 4; i++ {
			bf.DataResource(i)
		}
	})
}
