package zmachine_test

import (
	"os"
	"strings"
	"testing"

	"github.com/grue-lab/grue/game/zmachine"
	"github.com/grue-lab/grue/internal/testgames"
)

// The IFIDs of real story files, as IFDB lists them: Zork I's legacy IFID
// (release 119, an Infocom serial: no checksum), and the IFIDs two corpus games carry
// in their "UUID://" markers (one a UUID, one in the legacy form).
func TestIFIDOfStories(t *testing.T) {
	for name, want := range map[string]string{
		"zork1.z3":           "ZCODE-119-880429",
		"corpus/lily.z5":     "476E73E6-4AA4-4956-B9E6-61A2065F75A4",
		"corpus/piracy_2.z5": "ZCODE-1-080926-E535",
	} {
		if got := loadGame(t, name).IFID(); got != want {
			t.Errorf("%s: IFID %q, want %q", name, got, want)
		}
	}
}

// The Treaty of Babel's rule for a story without a marker, and which
// markers count: Zork I's bytes with another serial code, and a marker
// written over the last bytes of its strings.
func TestIFIDRule(t *testing.T) {
	data, err := os.ReadFile(testgames.Path(t, "zork1.z3"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, serial, marker, want string
	}{
		{"a modern serial gets the checksum", "061111", "", "ZCODE-119-061111-BF44"},
		{"an Infocom serial beginning 8 does not", "840726", "", "ZCODE-119-840726"},
		{"one beginning 9 does", "930101", "", "ZCODE-119-930101-BF44"},
		{"000000 does not", "000000", "", "ZCODE-119-000000"},
		{"a serial of letters does not", "ABCDEF", "", "ZCODE-119-ABCDEF"},
		{"odd characters are dashes", "06 1.1", "", "ZCODE-119-06-1-1-BF44"},
		{"a marker gives the IFID", "061111", "UUID://0B1A2C3D-AAAA-4BBB-8CCC-000000000001//", "0B1A2C3D-AAAA-4BBB-8CCC-000000000001"},
		{"a vintage story's marker does not count", "030101", "UUID://0B1A2C3D-AAAA-4BBB-8CCC-000000000001//", "ZCODE-119-030101-BF44"},
		{"an unterminated marker does not", "061111", "UUID://0B1A2C3D", "ZCODE-119-061111-BF44"},
		{"nor one too long for an IFID", "061111", "UUID://" + strings.Repeat("A", 64) + "//", "ZCODE-119-061111-BF44"},
		{"nor one of other bytes", "061111", "UUID://<script>\x00//", "ZCODE-119-061111-BF44"},
	} {
		story := append([]byte(nil), data...)
		copy(story[0x12:0x18], c.serial)
		copy(story[len(story)-128:], c.marker)
		s, err := zmachine.Load(story)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := s.IFID(); got != c.want {
			t.Errorf("%s: IFID %q, want %q", c.name, got, c.want)
		}
	}
}
