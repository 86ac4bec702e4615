package glulx

import (
	"encoding/binary"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"strings"
)

// Glk is what the VM needs of a Glk library: the glk opcode's dispatch and
// the VM's own output when the I/O system is Glk (iosys 2). The package
// game/glk implements it.
type Glk interface {
	// Call runs the Glk function with dispatch selector sel on the
	// arguments the glk opcode popped, in order.
	Call(sel uint32, args []uint32) (uint32, error)
	// PutChar and PutUniChar print to Glk's current output stream.
	PutChar(c byte) error
	PutUniChar(c uint32) error
}

// Options configure a VM.
type Options struct {
	// Seed is the random seed at start, as glulxe's --rngseed: 0 means
	// glulxe's native generator, which grue seeds from Seed 0 (the same
	// xoshiro128** seeded with 0), so that a run is reproducible.
	Seed uint32
	// Wait and Exit are the Glk library's errors for a call that waits for
	// input and for glk_exit (errors.Is is used).
	Wait, Exit error
	// Budget is the most instructions one Run may execute; 0 means
	// DefaultBudget.
	Budget int
	// MaxMemory bounds main memory (setmemsize and malloc); 0 means
	// DefaultMaxMemory.
	MaxMemory uint32
	// UndoSlots is how many saveundo states are kept; 0 means 8, as
	// glulxe keeps; negative disables undo.
	UndoSlots int
}

// DefaultBudget is the instruction budget of a Run when Options.Budget is 0.
const DefaultBudget = 200_000_000

// MaxStorySize is the largest Glulx story file grue reads (64 MiB; the
// largest Inform 7 games with their Blorb resources are some tens of MiB).
const MaxStorySize = 64 << 20

// DefaultMaxMemory is the bound on main memory when Options.MaxMemory is 0.
const DefaultMaxMemory = 256 << 20

// maxStack bounds the stack size a story header may ask for.
const maxStack = 64 << 20

// RunState says why Run returned.
type RunState int

const (
	// Running: not yet started or between instructions.
	Running RunState = iota
	// Waiting: a glk call waits for input from the host.
	Waiting
	// Halted: the story quit (quit opcode, glk_exit, or return from the
	// top-level function).
	Halted
)

// ErrBudget is returned (wrapped) when a Run exceeds its instruction budget.
var ErrBudget = errors.New("glulx: instruction budget exhausted")

// Header is the Glulx header of a story file.
type Header struct {
	Version                               uint32
	RAMStart, ExtStart, EndMem, StackSize uint32
	StartFunc, StringTable, Checksum      uint32
}

// VM is one running Glulx machine. It is not safe for concurrent use.
type VM struct {
	image []byte // the story's game file: memory 0..extstart comes from it
	hdr   Header
	glk   Glk
	opts  Options

	mem      []byte
	ramstart uint32
	endmem   uint32

	stack      []byte // native (little-endian) words, as glulxe on x86
	stackptr   uint32
	frameptr   uint32
	localsbase uint32
	valstack   uint32
	pc         uint32
	prevpc     uint32

	stringtable uint32
	iosysMode   uint32
	iosysRock   uint32

	protectStart, protectEnd uint32

	heap heap
	rng  rng

	accel      map[uint32]accelEntry
	accelParam [9]uint32

	undo []undoState

	state   RunState
	pending *pendingGlk

	count    uint64
	budget   int
	strCache *strNode
	orig0    []byte // origRAM's cache
}

// pendingGlk is a glk call that waits for input: repeated after the host
// gave the input.
type pendingGlk struct {
	sel      uint32
	args     []uint32
	desttype uint32
	destaddr uint32
}

// fault is a fatal VM error: it unwinds to Run, which returns it.
type fault struct{ err error }

// Error is a fatal error of the VM, naming the PC of the instruction.
type Error struct {
	PC  uint32
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("glulx: pc %#x: %s", e.PC, e.Msg) }

// Glulxe is the line glulxe prints in the story's window for this error
// ("Glulxe fatal error: ..."), which grue prints there too.
func (e *Error) Glulxe() string { return "Glulxe fatal error: " + e.Msg + "\n" }

func (vm *VM) fatal(format string, a ...any) {
	panic(fault{&Error{PC: vm.prevpc, Msg: fmt.Sprintf(format, a...)}})
}

// fatalI is glulxe's fatal_error_i: the message and a value, which glulxe
// prints in hexadecimal in parentheses.
func (vm *VM) fatalI(msg string, v uint32) {
	panic(fault{&Error{PC: vm.prevpc, Msg: fmt.Sprintf("%s (%X)", msg, v)}})
}

// ParseHeader checks a .ulx image's header.
func ParseHeader(image []byte) (Header, error) {
	var h Header
	if len(image) < 36 {
		return h, errors.New("glulx: file too short for a Glulx header")
	}
	if string(image[:4]) != "Glul" {
		return h, errors.New("glulx: not a Glulx story file (no \"Glul\" magic)")
	}
	r := func(i int) uint32 { return binary.BigEndian.Uint32(image[i:]) }
	h = Header{Version: r(4), RAMStart: r(8), ExtStart: r(12), EndMem: r(16), StackSize: r(20), StartFunc: r(24), StringTable: r(28), Checksum: r(32)}
	if h.Version < 0x20000 || h.Version > 0x301FF {
		return h, fmt.Errorf("glulx: Glulx version %d.%d.%d is not supported (2.0 to 3.1.x)", h.Version>>16, (h.Version>>8)&0xFF, h.Version&0xFF)
	}
	if h.RAMStart < 0x100 || h.ExtStart < h.RAMStart || h.EndMem < h.ExtStart {
		return h, errors.New("glulx: the segment boundaries in the header are in an impossible order")
	}
	if h.StackSize < 0x100 {
		return h, errors.New("glulx: the stack size in the header is too small")
	}
	if h.StackSize > maxStack {
		return h, fmt.Errorf("glulx: the header's stack size %d is beyond grue's bound %d", h.StackSize, maxStack)
	}
	if uint32(len(image)) < h.ExtStart {
		return h, fmt.Errorf("glulx: the game file ended unexpectedly (%d bytes, header says %d)", len(image), h.ExtStart)
	}
	return h, nil
}

// New makes a VM for a Glulx image (the .ulx bytes; see StoryBytes for
// Blorb files). The VM does not modify image.
func New(image []byte, g Glk, opts Options) (*VM, error) {
	h, err := ParseHeader(image)
	if err != nil {
		return nil, err
	}
	if opts.MaxMemory == 0 {
		opts.MaxMemory = DefaultMaxMemory
	}
	if h.EndMem > opts.MaxMemory {
		return nil, fmt.Errorf("glulx: the story asks for %d bytes of memory, beyond the bound %d", h.EndMem, opts.MaxMemory)
	}
	if opts.Budget == 0 {
		opts.Budget = DefaultBudget
	}
	if opts.UndoSlots == 0 {
		opts.UndoSlots = 8
	}
	vm := &VM{image: image, hdr: h, glk: g, opts: opts, ramstart: h.RAMStart}
	vm.stack = make([]byte, h.StackSize)
	vm.rng.seed(opts.Seed)
	if err := vm.protect(func() { vm.restart() }); err != nil {
		return nil, err
	}
	return vm, nil
}

// Header returns the story's header.
func (vm *VM) Header() Header { return vm.hdr }

// State says whether the VM runs, waits for input or has halted.
func (vm *VM) State() RunState { return vm.state }

// PC is the address of the instruction being (or last) executed.
func (vm *VM) PC() uint32 { return vm.prevpc }

// Count is the number of instructions executed so far.
func (vm *VM) Count() uint64 { return vm.count }

// protect runs f, turning a fault (or any runtime panic) into an error.
func (vm *VM) protect(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if fl, ok := r.(fault); ok {
				err = fl.err
				return
			}
			if re, ok := r.(runtime.Error); ok && strings.Contains(re.Error(), "out of range") {
				err = &Error{PC: vm.prevpc, Msg: boundsMsg(re.Error(), len(vm.mem), len(vm.stack))}
				return
			}
			err = &Error{PC: vm.prevpc, Msg: fmt.Sprintf("internal error: %v", r)}
		}
	}()
	f()
	return nil
}

var boundsRE = regexp.MustCompile(`\[(\d+)\] with length (\d+)`)

// boundsMsg is glulxe's message for a read out of range, from Go's bounds
// fault: the address when the fault names it (a byte read), else the
// fault's own words.
func boundsMsg(fault string, memLen, stackLen int) string {
	if m := boundsRE.FindStringSubmatch(fault); m != nil {
		i, _ := strconv.ParseUint(m[1], 10, 32)
		if n, _ := strconv.Atoi(m[2]); n == stackLen && n != memLen {
			return fmt.Sprintf("Stack access out of range (%X)", i)
		} else if n == memLen {
			return fmt.Sprintf("Memory access out of range (%X)", i)
		}
	}
	return "Memory access out of range (" + fault + ")"
}

// restart puts the machine in its starting state (vm_restart).
func (vm *VM) restart() {
	vm.heap.clear(vm)
	vm.changeMemsize(vm.hdr.EndMem, false)
	for i := uint32(0); i < vm.hdr.ExtStart; i++ {
		if i >= vm.protectStart && i < vm.protectEnd {
			continue
		}
		vm.mem[i] = vm.image[i]
	}
	clear(vm.mem[vm.hdr.ExtStart:])
	vm.stackptr, vm.frameptr, vm.pc, vm.prevpc = 0, 0, 0, 0
	vm.setIosys(0, 0)
	vm.setTable(vm.hdr.StringTable)
	vm.valstack, vm.localsbase = 0, 0
	vm.enterFunction(vm.hdr.StartFunc, nil)
}

// changeMemsize resizes main memory; true for failure (as glulxe's 1).
func (vm *VM) changeMemsize(n uint32, internal bool) bool {
	if n == vm.endmem && vm.mem != nil {
		return false
	}
	if !internal && vm.heap.start != 0 {
		vm.fatal("Cannot resize Glulx memory space while heap is active.")
	}
	if n < vm.hdr.EndMem {
		vm.fatal("Cannot resize Glulx memory space smaller than it started.")
	}
	if n&0xFF != 0 {
		vm.fatal("Can only resize Glulx memory space to a 256-byte boundary.")
	}
	if n > vm.opts.MaxMemory {
		return true
	}
	if uint32(cap(vm.mem)) >= n {
		old := uint32(len(vm.mem))
		vm.mem = vm.mem[:n]
		if n > old {
			clear(vm.mem[old:])
		}
	} else {
		m := make([]byte, n)
		copy(m, vm.mem)
		vm.mem = m
	}
	vm.endmem = n
	return false
}

// Memory access. Reads index the memory slice directly: an address
// beyond the end is Go's bounds fault, which protect turns into the VM's
// "access out of range" error with the PC (glulxe's VERIFY_MEMORY_ACCESS
// check, without its cost on every read). Writes check for ROM too.

func (vm *VM) oob(a uint32) {
	vm.fatalI("Memory access out of range", a)
}

func (vm *VM) r1(a uint32) uint32 { return uint32(vm.mem[a]) }

func (vm *VM) r2(a uint32) uint32 { return uint32(binary.BigEndian.Uint16(vm.mem[a:])) }

func (vm *VM) r4(a uint32) uint32 { return binary.BigEndian.Uint32(vm.mem[a:]) }

func (vm *VM) badWrite(a, n uint32) {
	if a < vm.ramstart {
		vm.fatalI("Memory write to read-only address", a)
	}
	vm.oob(a)
}

func (vm *VM) checkW(a, n uint32) {
	if a < vm.ramstart || uint64(a)+uint64(n) > uint64(len(vm.mem)) {
		vm.badWrite(a, n)
	}
}

func (vm *VM) w1(a, v uint32) {
	vm.checkW(a, 1)
	vm.mem[a] = byte(v)
}

func (vm *VM) w2(a, v uint32) {
	vm.checkW(a, 2)
	vm.mem[a] = byte(v >> 8)
	vm.mem[a+1] = byte(v)
}

func (vm *VM) w4(a, v uint32) {
	vm.checkW(a, 4)
	binary.BigEndian.PutUint32(vm.mem[a:], v)
}

// Stack access (native little-endian words, as glulxe on x86 keeps them):
// direct indexing, as memory reads; checkS checks the alignment of a
// local variable's address, which the story gives.

func (vm *VM) badStack(p, n uint32) {
	if p&(n-1) != 0 && uint64(p)+uint64(n) <= uint64(len(vm.stack)) {
		vm.fatalI(fmt.Sprintf("Unaligned stack access (%d)", n), p)
	}
	vm.fatalI("Stack access out of range", p)
}

func (vm *VM) checkS(p, n uint32) {
	if uint64(p)+uint64(n) > uint64(len(vm.stack)) || p&(n-1) != 0 {
		vm.badStack(p, n)
	}
}

func (vm *VM) s1(p uint32) uint32 { return uint32(vm.stack[p]) }

func (vm *VM) s2(p uint32) uint32 { return uint32(binary.LittleEndian.Uint16(vm.stack[p:])) }

func (vm *VM) s4(p uint32) uint32 { return binary.LittleEndian.Uint32(vm.stack[p:]) }

func (vm *VM) sw1(p, v uint32) { vm.stack[p] = byte(v) }

func (vm *VM) sw2(p, v uint32) { binary.LittleEndian.PutUint16(vm.stack[p:], uint16(v)) }

func (vm *VM) sw4(p, v uint32) { binary.LittleEndian.PutUint32(vm.stack[p:], v) }

func (vm *VM) push(v uint32) {
	if vm.stackptr+4 > uint32(len(vm.stack)) {
		vm.fatal("Stack overflow in store operand.")
	}
	vm.sw4(vm.stackptr, v)
	vm.stackptr += 4
}

func (vm *VM) pop() uint32 {
	if vm.stackptr < vm.valstack+4 {
		vm.fatal("Stack underflow in operand.")
	}
	vm.stackptr -= 4
	return vm.s4(vm.stackptr)
}

// The Memory interface that the Glk library uses.

// Load8 reads a byte of main memory.
func (vm *VM) Load8(a uint32) (b byte, err error) {
	err = vm.protect(func() { b = byte(vm.r1(a)) })
	return
}

// Store8 writes a byte of main memory.
func (vm *VM) Store8(a uint32, v byte) error {
	return vm.protect(func() { vm.w1(a, uint32(v)) })
}

// Load32 reads a big-endian word of main memory.
func (vm *VM) Load32(a uint32) (v uint32, err error) {
	err = vm.protect(func() { v = vm.r4(a) })
	return
}

// Store32 writes a big-endian word of main memory.
func (vm *VM) Store32(a, v uint32) error {
	return vm.protect(func() { vm.w4(a, v) })
}

// Push pushes a word on the VM's stack (a Glk reference argument 0xFFFFFFFF written).
func (vm *VM) Push(v uint32) error { return vm.protect(func() { vm.push(v) }) }

// Pop pops a word off the VM's stack (a Glk reference argument 0xFFFFFFFF read).
func (vm *VM) Pop() (v uint32, err error) {
	err = vm.protect(func() { v = vm.pop() })
	return
}

// MemSize is the current size of main memory.
func (vm *VM) MemSize() uint32 { return vm.endmem }

// RAM returns main memory from ramstart to the end (not a copy: callers must not modify it).
func (vm *VM) RAM() []byte { return vm.mem[vm.ramstart:] }

// Mem returns main memory (not a copy: callers must not modify it).
func (vm *VM) Mem() []byte { return vm.mem }
