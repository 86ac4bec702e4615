package zmachine_test

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/game/zmachine"
	"github.com/grue-lab/grue/internal/testgames"
)

// blorbExtras are resources a real Blorb file carries around its game:
// a cover picture's index, an odd-length author chunk (padded) and the
// iFiction metadata.
var (
	blorbBefore = []testgames.Chunk{{Type: "Fspc", Data: []byte{0, 0, 0, 1}}, {Type: "AUTH", Data: []byte("Ann")}}
	blorbAfter  = []testgames.Chunk{{Type: "IFmd", Data: []byte("<ifindex><story><bibliographic><title>T</title></bibliographic></story></ifindex>")}}
)

// A story packaged in a Blorb file loads as the story itself, whatever
// else the file holds, and plays the same.
func TestLoadBlorb(t *testing.T) {
	for _, name := range []string{"opcodes3.z3", "opcodes5.z5", "opcodes8.z8"} {
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", "stories", name))
			if err != nil {
				t.Fatal(err)
			}
			want, err := zmachine.Load(raw)
			if err != nil {
				t.Fatal(err)
			}
			wantText := startText(t, want)
			among := testgames.Blorb(raw, "ZCOD", blorbBefore, blorbAfter)
			for _, c := range []struct {
				what string
				file []byte
			}{
				{"alone", testgames.Blorb(raw, "ZCOD", nil, nil)},
				{"among resources", among},
				{"without a resource index", blorbOf(testgames.Chunk{Type: "PNG ", Data: []byte{1, 2, 3}}, testgames.Chunk{Type: "ZCOD", Data: raw})},
				// Cut short after the game, or with a FORM that claims
				// more than the file holds: what is lost is not the game.
				{"cut after the game", among[:len(among)-10]},
				{"with stray bytes after the game", blorbStray(raw)},
			} {
				got, err := zmachine.Load(c.file)
				if err != nil {
					t.Fatalf("%s: %v", c.what, err)
				}
				if got.Size() != want.Size() || got.Release() != want.Release() || got.Serial() != want.Serial() ||
					got.Checksum() != want.Checksum() || !got.Verify() {
					t.Errorf("%s: loaded size %d release %d serial %s checksum %#x (verifies %v), want %d %d %s %#x",
						c.what, got.Size(), got.Release(), got.Serial(), got.Checksum(), got.Verify(),
						want.Size(), want.Release(), want.Serial(), want.Checksum())
				}
				if text := startText(t, got); text != wantText {
					t.Errorf("%s: started with\n%s\nwant\n%s", c.what, text, wantText)
				}
			}
		})
	}
}

// startText runs a new machine of story to its first input request.
func startText(t *testing.T, story *zmachine.Story) string {
	t.Helper()
	m, err := zmachine.New(story, zmachine.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	text, err := m.Start()
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// A file that is not a Z-machine story, or a broken Blorb file, is refused
// with an error that says what it is or what is wrong and where.
func TestLoadBlorbRefused(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "stories", "opcodes5.z5"))
	if err != nil {
		t.Fatal(err)
	}
	good := testgames.Blorb(raw, "ZCOD", blorbBefore, blorbAfter)
	// zcod is the offset of the story chunk's header in good.
	zcod := bytes.Index(good, []byte("ZCOD"))
	mod := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	for _, c := range []struct {
		what string
		data []byte
		want string
	}{
		{"a Glulx story", append([]byte("Glul\x00\x03\x01\x03"), make([]byte, 300)...), "a Glulx game, not a Z-machine one"},
		{"a Glulx game in a Blorb file", testgames.Blorb([]byte("Glul\x00\x03\x01\x03"), "GLUL", nil, nil), "a Glulx game, not a Z-machine one"},
		{"a TADS 3 game in a Blorb file", testgames.Blorb([]byte("T3-image"), "TAD3", nil, nil), "the game is a TADS 3 one (chunk TAD3)"},
		{"a Quetzal save", testgames.Form("IFZS", testgames.Chunk{Type: "IFhd", Data: make([]byte, 13)}), "a Quetzal saved game, not a story file"},
		{"cut in the game's chunk", good[:zcod+100], `chunk "ZCOD" at offset`},
		{"a chunk past the end", mod(func(b []byte) []byte {
			binary.BigEndian.PutUint32(b[zcod+4:], 1<<30)
			return b
		}), `chunk "ZCOD" at offset`},
		{"an index pointing between chunks", mod(func(b []byte) []byte {
			binary.BigEndian.PutUint32(b[12+8+4+8:], uint32(zcod+2))
			return b
		}), "where no chunk starts"},
		{"an index pointing at a picture", mod(func(b []byte) []byte {
			binary.BigEndian.PutUint32(b[12+8+4+8:], uint32(bytes.Index(b, []byte("AUTH"))))
			return b
		}), `names chunk "AUTH"`},
		{"an index too short for its entries", mod(func(b []byte) []byte {
			binary.BigEndian.PutUint32(b[12+8:], 1000)
			return b
		}), "1000 entries do not fit"},
		{"pictures and no game", blorbOf(testgames.Chunk{Type: "PNG ", Data: []byte{1}}), "holds no game"},
		{"stray bytes before the game", blorbStrayFirst(raw), "5 stray bytes at offset"},
	} {
		_, err := zmachine.Load(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Load error %v, want one containing %q", c.what, err, c.want)
		}
	}
}

// blorbOf is a Blorb file of the chunks cs and no resource index, as
// some tools write them.
func blorbOf(cs ...testgames.Chunk) []byte { return testgames.Form("IFRS", cs...) }

// blorbStray is a Blorb file whose FORM ends with 5 bytes that cannot
// hold a chunk header, after the game.
func blorbStray(story []byte) []byte {
	b := append(blorbOf(testgames.Chunk{Type: "ZCOD", Data: story}), 1, 2, 3, 4, 5)
	binary.BigEndian.PutUint32(b[4:], uint32(len(b)-8))
	return b
}

// blorbStrayFirst is a Blorb file with 5 bytes where its first chunk
// should be: nothing after them can be read.
func blorbStrayFirst(story []byte) []byte {
	b := append([]byte("FORM\x00\x00\x00\x09IFRS"), 1, 2, 3, 4, 5)
	return append(b, blorbOf(testgames.Chunk{Type: "ZCOD", Data: story})[12:]...)
}
