package glk

import "testing"

// BenchmarkCallPutCharStream is the glk opcode's commonest call in an
// Inform story (put_char_stream to the main window).
func BenchmarkCallPutCharStream(b *testing.B) {
	m := newMem(0x1000)
	g := New(m, Options{})
	win, _ := g.Call(0x23, []uint32{0, 0, 0, wintypeTextBuffer, 0})
	str, _ := g.Call(0x2C, []uint32{win})
	args := []uint32{str, 'x'}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := g.Call(0x81, args); err != nil {
			b.Fatal(err)
		}
		if i%1000 == 0 {
			g.TakeOutput()
		}
	}
}

// BenchmarkSnapshotRestore is the cost of Glk's share of a fork or an
// undo: a story's usual objects (main and status windows, a few streams
// and file refs), a screen of untaken text.
func BenchmarkSnapshotRestore(b *testing.B) {
	m := newMem(0x1000)
	g := New(m, Options{GameFile: make([]byte, 1<<20)})
	win, _ := g.Call(0x23, []uint32{0, 0, 0, wintypeTextBuffer, 0})
	g.Call(0x23, []uint32{win, winmethodAbove | winmethodFixed, 1, wintypeTextGrid, 0})
	for i := 0; i < 5; i++ {
		g.Call(0x43, []uint32{0x100, 0x100, filemodeWrite, 0})
	}
	for i := 0; i < 2000; i++ {
		g.PutChar('x')
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := g.Restore(g.Snapshot()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCallPutBuffer is a call through the prototypes: put_buffer
// of ten characters to the current stream.
func BenchmarkCallPutBuffer(b *testing.B) {
	m := newMem(0x1000)
	g := New(m, Options{})
	win, _ := g.Call(0x23, []uint32{0, 0, 0, wintypeTextBuffer, 0})
	g.Call(0x2F, []uint32{win})
	copy(m.b[0x100:], "0123456789")
	args := []uint32{0x100, 10}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := g.Call(0x84, args); err != nil {
			b.Fatal(err)
		}
		if i%1000 == 0 {
			g.TakeOutput()
		}
	}
}
