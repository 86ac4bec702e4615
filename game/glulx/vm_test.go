package glulx

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// image builds a tiny story: the header, and code at 0x40 (the start
// function, a C1 function with no locals).
func image(code ...byte) []byte {
	img := make([]byte, 0x200)
	copy(img, "Glul")
	for i, v := range []uint32{0x00030102, 0x100, 0x200, 0x200, 0x1000, 0x40, 0, 0} {
		binary.BigEndian.PutUint32(img[4+4*i:], v)
	}
	copy(img[0x40:], []byte{0xC1, 0, 0})
	copy(img[0x43:], code)
	return img
}

func run(t *testing.T, img []byte, budget int) error {
	t.Helper()
	vm, err := New(img, nil, Options{Budget: budget})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return vm.Run()
}

func TestUnknownOpcodeNamesPC(t *testing.T) {
	err := run(t, image(0x00, 0x7F), 100) // nop, then opcode 0x7F
	if err == nil || !strings.Contains(err.Error(), "pc 0x44") || !strings.Contains(err.Error(), "unknown opcode") {
		t.Fatalf("err = %v, want an unknown opcode at pc 0x44", err)
	}
}

func TestBudgetStopsALoop(t *testing.T) {
	// jump -1: the offset counts from the end of the 3-byte instruction,
	// less 2, so this is a jump to itself.
	err := run(t, image(0x20, 0x01, 0xFF), 1000)
	if !errors.Is(err, ErrBudget) {
		t.Fatalf("err = %v, want ErrBudget", err)
	}
}

func TestMemoryOutOfRangeIsAnError(t *testing.T) {
	// aload 0xFFFFFF00 0 -> discard: a read far beyond memory.
	err := run(t, image(0x48, 0x03, 0x00, 0xFF, 0xFF, 0xFF, 0x00), 100)
	if err == nil || !strings.Contains(err.Error(), "out of range") || !strings.Contains(err.Error(), "pc 0x43") {
		t.Fatalf("err = %v, want an out-of-range read at pc 0x43", err)
	}
	// astore to ROM.
	err = run(t, image(0x4C, 0x11, 0x01, 0x10, 0x00, 0x05), 100)
	if err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("err = %v, want a write to read-only memory", err)
	}
}

func TestStackUnderflowIsAnError(t *testing.T) {
	err := run(t, image(0x40, 0x08), 100) // copy pop -> discard, on an empty stack
	if err == nil || !strings.Contains(err.Error(), "Stack underflow") {
		t.Fatalf("err = %v, want a stack underflow", err)
	}
}

func TestHeaderChecks(t *testing.T) {
	for name, mod := range map[string]func([]byte){
		"magic":     func(b []byte) { b[0] = 'X' },
		"order":     func(b []byte) { binary.BigEndian.PutUint32(b[8:], 0x300) },
		"stack":     func(b []byte) { binary.BigEndian.PutUint32(b[20:], 0x10) },
		"huge mem":  func(b []byte) { binary.BigEndian.PutUint32(b[16:], 0xFFFFFF00) },
		"truncated": func(b []byte) { binary.BigEndian.PutUint32(b[12:], 0x10000) },
	} {
		img := image()
		mod(img)
		if _, err := New(img, nil, Options{}); err == nil {
			t.Errorf("%s: New accepted a bad header", name)
		}
	}
}

func TestRNGAsGlulxe(t *testing.T) {
	// The first numbers of glulxe's xoshiro128** seeded with 1 (its
	// osdepend.c, compiled and run).
	var r rng
	r.seed(1)
	for i, want := range []uint32{0x443636e7, 0x4ce753de, 0xd9a8ad4a, 0x2550aade} {
		if got := r.next(); got != want {
			t.Fatalf("number %d = %#x, want %#x", i, got, want)
		}
	}
}

// FuzzNew feeds arbitrary images to the loader and runs them a little:
// every failure is an error, never a panic.
func FuzzNew(f *testing.F) {
	f.Add(image(0x00, 0x7F))
	f.Add(image(0x20, 0x01, 0x02))
	f.Add(image(0x30, 0x03, 0x00, 0x00, 0x00, 0x40, 0x00))
	f.Fuzz(func(t *testing.T, data []byte) {
		vm, err := New(data, nil, Options{Budget: 2000, MaxMemory: 1 << 20})
		if err != nil {
			return
		}
		_ = vm.Run()
	})
}

// TestFaultAsGlulxe runs stories that fault on grue and on glulxe: both
// print the same "Glulxe fatal error" line in the story's window.
func TestFaultAsGlulxe(t *testing.T) {
	bin := glulxeBinInternal(t)
	for name, img := range map[string][]byte{
		"unknown opcode": image(0x00, 0x7F),
		"read past end":  image(0x4A, 0x03, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00), // aloadb 0x1000 0 -> discard
		"write to ROM":   image(0x4C, 0x11, 0x01, 0x10, 0x00, 0x05),
		"non-function":   image(0x30, 0x03, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00), // call 0x80 0 -> discard
	} {
		t.Run(name, func(t *testing.T) {
			want := runGlulxeImage(t, bin, img)
			m, err := newMachineFromImage(img)
			if err != nil {
				t.Fatal(err)
			}
			got, err := m.Start()
			if err == nil {
				t.Fatal("no fault")
			}
			if got != want {
				t.Errorf("grue printed %q, glulxe %q (grue's error: %v)", got, want, err)
			}
			if !m.Halted() {
				t.Error("the machine runs on after a fault")
			}
		})
	}
}

// TestMallocLoopIsBounded: a story that allocates forever stops at the
// memory bound or the budget, with an error or a failed malloc, never a
// hang.
func TestMallocLoopIsBounded(t *testing.T) {
	// loop: malloc 1 -> discard; jump loop
	img := image(0x81, 0x78, 0x01, 0x01, 0x20, 0x01, 0xFB)
	vm, err := New(img, nil, Options{Budget: 200000, MaxMemory: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if err := vm.Run(); !errors.Is(err, ErrBudget) {
		t.Fatalf("err = %v, want ErrBudget", err)
	}
	if vm.MemSize() > 1<<20 {
		t.Fatalf("memory grew to %d, past its bound", vm.MemSize())
	}
}
