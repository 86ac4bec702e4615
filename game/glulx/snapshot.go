package glulx

import (
	"bytes"
	"errors"
	"maps"
	"slices"

	"github.com/grue-lab/grue/game/glk"
)

// vmState is the whole state of a VM, RAM kept as its difference from the
// story's original memory (so that a snapshot of an Inform 7 game with
// megabytes of RAM is some kilobytes).
type vmState struct {
	image                                      []byte // the story, to refuse a snapshot of another one
	endmem                                     uint32
	ram                                        []byte
	stack                                      []byte
	pc, prevpc, frameptr, localsbase, valstack uint32
	stringtable, iosysMode, iosysRock          uint32
	protectStart, protectEnd                   uint32
	heapStart                                  uint32
	heapAllocs                                 int
	heapBlocks                                 []heapBlock
	rng                                        rng
	accel                                      map[uint32]accelEntry
	accelParam                                 [9]uint32
	undo                                       []undoState
	state                                      RunState
	pending                                    *pendingGlk
	count                                      uint64
}

func (vm *VM) snapshot() *vmState {
	s := &vmState{
		image: vm.image, endmem: vm.endmem, ram: vm.diffRAM(),
		stack: slices.Clone(vm.stack[:vm.stackptr]),
		pc:    vm.pc, prevpc: vm.prevpc, frameptr: vm.frameptr, localsbase: vm.localsbase, valstack: vm.valstack,
		stringtable: vm.stringtable, iosysMode: vm.iosysMode, iosysRock: vm.iosysRock,
		protectStart: vm.protectStart, protectEnd: vm.protectEnd,
		heapStart: vm.heap.start, heapAllocs: vm.heap.allocs, heapBlocks: slices.Clone(vm.heap.blocks),
		rng: vm.rng, accel: maps.Clone(vm.accel), accelParam: vm.accelParam,
		undo:  slices.Clone(vm.undo), // undo states are never modified, only dropped
		state: vm.state, count: vm.count,
	}
	if vm.pending != nil {
		p := *vm.pending
		p.args = slices.Clone(p.args)
		s.pending = &p
	}
	return s
}

func (vm *VM) restoreSnapshot(s *vmState) error {
	if len(s.image) != len(vm.image) || (&s.image[0] != &vm.image[0] && !bytes.Equal(s.image, vm.image)) {
		return errors.New("glulx: the snapshot is of another story")
	}
	err := vm.protect(func() {
		vm.heap.blocks, vm.heap.start, vm.heap.allocs = nil, 0, 0
		if uint32(cap(vm.mem)) >= s.endmem {
			vm.mem = vm.mem[:s.endmem]
		} else {
			vm.mem = make([]byte, s.endmem)
		}
		vm.endmem = s.endmem
		copy(vm.mem, vm.image[:vm.hdr.ExtStart])
		clear(vm.mem[vm.hdr.ExtStart:])
		savedStart, savedEnd := vm.protectStart, vm.protectEnd
		vm.protectStart, vm.protectEnd = 0, 0 // a snapshot restores all of memory
		ok := vm.undiffRAM(s.ram)
		vm.protectStart, vm.protectEnd = savedStart, savedEnd
		if !ok {
			vm.fatal("snapshot memory does not fit")
		}
	})
	if err != nil {
		return err
	}
	clear(vm.stack)
	copy(vm.stack, s.stack)
	vm.stackptr = uint32(len(s.stack))
	vm.pc, vm.prevpc, vm.frameptr, vm.localsbase, vm.valstack = s.pc, s.prevpc, s.frameptr, s.localsbase, s.valstack
	vm.stringtable, vm.iosysMode, vm.iosysRock = s.stringtable, s.iosysMode, s.iosysRock
	vm.protectStart, vm.protectEnd = s.protectStart, s.protectEnd
	vm.heap = heap{start: s.heapStart, allocs: s.heapAllocs, blocks: slices.Clone(s.heapBlocks)}
	vm.rng, vm.accel, vm.accelParam = s.rng, maps.Clone(s.accel), s.accelParam
	vm.undo = slices.Clone(s.undo)
	vm.state, vm.count = s.state, s.count
	vm.pending = nil
	if s.pending != nil {
		p := *s.pending
		p.args = slices.Clone(p.args)
		vm.pending = &p
	}
	return nil
}

// Snapshot is the whole state of a Machine (VM and Glk), for forks and
// undo in grue.
type Snapshot struct {
	vm      *vmState
	glk     *glk.State
	started bool
}

// Snapshot takes the machine's state.
func (m *Machine) Snapshot() *Snapshot {
	return &Snapshot{vm: m.vm.snapshot(), glk: m.glk.Snapshot(), started: m.started}
}

// Restore puts the machine back in a state Snapshot took of it (or of
// another Machine of the same story). The transcript is kept.
func (m *Machine) Restore(s *Snapshot) error {
	if s == nil || s.vm == nil {
		return errors.New("glulx: Restore: no snapshot")
	}
	if err := m.vm.restoreSnapshot(s.vm); err != nil {
		return err
	}
	if err := m.glk.Restore(s.glk); err != nil {
		return err
	}
	m.started = s.started
	return nil
}

// Size is the snapshot's size in bytes, roughly: what it keeps of memory
// and the stack.
func (s *Snapshot) Size() int {
	n := len(s.vm.ram) + len(s.vm.stack)
	for _, u := range s.vm.undo {
		n += len(u.ram) + len(u.stack)
	}
	return n
}
