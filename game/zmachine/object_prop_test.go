package zmachine

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFindPropStopsBelow checks the property search on a list out of the
// descending order the Standard asks for (§12.4): like Frotz's, it stops
// at the first property numbered below the one it looks for, so a
// property listed after a lower one is not found; on a list in order,
// present properties are found and absent ones are not.
func TestFindPropStopsBelow(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "stories", "opcodes5.z5"))
	if err != nil {
		t.Fatal(err)
	}
	story, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(story, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// A property table of object 1 at the end of dynamic memory: no
	// short name, then properties 12, 9 and 5 (in order) or 5 then 9
	// (out of order), each one byte long, then the end.
	table := uint32(len(m.dyn)) - 16
	put := func(props ...byte) {
		a := table
		m.dyn[a] = 0
		a++
		for _, p := range props {
			m.dyn[a], m.dyn[a+1] = p, 0x40+p // size byte: length 1, number p
			a += 2
		}
		m.dyn[a] = 0
		pa := m.objAddr(1) + 12
		m.dyn[pa], m.dyn[pa+1] = byte(table>>8), byte(table)
	}
	put(12, 9, 5)
	for p, want := range map[uint16]bool{12: true, 9: true, 5: true, 13: false, 10: false, 6: false, 1: false} {
		data, _ := m.findProp(1, p)
		if got := data != 0; got != want {
			t.Errorf("in order: property %d found %v; want %v", p, got, want)
		} else if got && m.dyn[data] != 0x40+byte(p) {
			t.Errorf("in order: property %d's data is %#x", p, m.dyn[data])
		}
	}
	put(5, 9)
	if data, _ := m.findProp(1, 5); data == 0 {
		t.Error("out of order: the first property, 5, is not found")
	}
	if data, _ := m.findProp(1, 9); data != 0 {
		t.Error("out of order: property 9, after 5, is found; Frotz stops at 5")
	}
}
