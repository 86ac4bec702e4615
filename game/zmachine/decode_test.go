package zmachine_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/grue-lab/grue/game/zmachine"
)

// TestCodeInDynamicMemoryRunsAsWritten runs a routine in dynamic memory,
// rewrites one of its instructions with storeb and runs it again: the
// second call must run the new instruction, as code in dynamic memory is
// never served from the decoded-instruction cache.
func TestCodeInDynamicMemoryRunsAsWritten(t *testing.T) {
	data := asmStory([]byte{
		0xf9, 0x3f, 0x00, 0x80, // call_vn 0x80 (the routine at 0x200)
		0xe2, 0x17, 0x02, 0x00, 0x03, 'B', // storeb 0x200 3 'B': the routine's operand
		0xf9, 0x3f, 0x00, 0x80, // call_vn 0x80
		0xba, // quit
	})
	copy(data[0x200:], []byte{
		0x00,            // no locals
		0xe5, 0x7f, 'A', // print_char 'A'
		0xb0, // rtrue
	})
	out, m, err := run(t, data, zmachine.Options{})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	if out != "AB" {
		t.Errorf("printed %q; want %q (the rewritten instruction must run)", out, "AB")
	}
	if !m.Halted() {
		t.Errorf("state %v; want halted", m.State())
	}
}

// TestMachinesShareCodeCache plays the same random script on four machines
// of one Story at once (the decoded-instruction cache is the Story's, filled
// by whichever machine first runs an instruction) and checks that each
// prints what a machine playing alone prints. Run with -race.
func TestMachinesShareCodeCache(t *testing.T) {
	path := "corpus/spot.z5"
	play := func(story *zmachine.Story, lines []string) string {
		m, err := zmachine.New(story, zmachine.Options{Seed: 3})
		if err != nil {
			t.Error(err)
			return ""
		}
		var b strings.Builder
		out, err := m.Start()
		b.WriteString(out)
		for _, l := range lines {
			if err != nil || m.Halted() {
				break
			}
			out, err = m.Step(l)
			b.WriteString(out)
		}
		if err != nil {
			t.Errorf("play: %v", err)
		}
		return b.String()
	}
	alone := loadGame(t, path)
	lines := randomScript(t, alone, 3, 80)
	want := play(alone, lines)
	shared := loadGame(t, path)
	got := make([]string, 4)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = play(shared, lines) })
	}
	wg.Wait()
	for i, g := range got {
		if g != want {
			t.Errorf("machine %d of the shared story printed another transcript (%d bytes, alone %d)", i, len(g), len(want))
		}
	}
}
