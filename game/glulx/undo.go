package glulx

import "encoding/binary"

// saveundo/restoreundo: each state keeps RAM as its difference from the
// story's original memory (zero runs coded as in Quetzal's CMem), the
// stack up to its pointer and the heap summary, so that an Inform 7 game
// with megabytes of RAM keeps a few kilobytes per state.

type undoState struct {
	endmem uint32
	ram    []byte // diffCode of RAM against the original memory
	stack  []byte
	heap   []uint32
}

// origRAM is the original memory from ramstart to the header's end of
// memory (the game file's RAM, then zeros), made once.
func (vm *VM) origRAM() []byte {
	if vm.orig0 == nil {
		o := make([]byte, vm.hdr.EndMem-vm.ramstart)
		copy(o, vm.image[vm.ramstart:vm.hdr.ExtStart])
		vm.orig0 = o
	}
	return vm.orig0
}

// diffRAM codes RAM against the original memory: a nonzero byte is the
// XOR of the two, a zero is followed by the run length minus one of zero
// XORs (at most 256), and trailing zeros are left out. Equal stretches are
// skipped eight bytes at a time.
func (vm *VM) diffRAM() []byte {
	var out []byte
	run := 0
	ram := vm.mem[vm.ramstart:vm.endmem]
	orig := vm.origRAM()
	flush := func() {
		for run > 0 {
			n := min(run, 256)
			out = append(out, 0, byte(n-1))
			run -= n
		}
	}
	i := 0
	for i < len(ram) {
		if i+8 <= len(orig) && binary.LittleEndian.Uint64(ram[i:]) == binary.LittleEndian.Uint64(orig[i:]) {
			run += 8
			i += 8
			continue
		}
		var o byte
		if i < len(orig) {
			o = orig[i]
		}
		if x := ram[i] ^ o; x == 0 {
			run++
		} else {
			flush()
			out = append(out, x)
		}
		i++
	}
	return out
}

// undiffRAM applies a diffRAM code to memory, keeping the protected
// range; false for a code that runs past the end of memory.
func (vm *VM) undiffRAM(code []byte) bool {
	var kept []byte
	ps, pe := max(vm.protectStart, vm.ramstart), min(vm.protectEnd, vm.endmem)
	if ps < pe {
		kept = append(kept, vm.mem[ps:pe]...)
	}
	ram := vm.mem[vm.ramstart:vm.endmem]
	n := copy(ram, vm.origRAM())
	clear(ram[n:])
	ok := true
	p := 0
	for i := 0; i < len(code); i++ {
		c := code[i]
		if c == 0 {
			if i+1 >= len(code) {
				ok = false
				break
			}
			i++
			p += int(code[i]) + 1
			continue
		}
		if p >= len(ram) {
			ok = false
			break
		}
		ram[p] ^= c
		p++
	}
	if p > len(ram) {
		ok = false
	}
	if kept != nil {
		copy(vm.mem[ps:pe], kept)
	}
	return ok
}

func (vm *VM) saveUndo() uint32 {
	if vm.opts.UndoSlots < 0 {
		return 1
	}
	st := undoState{endmem: vm.endmem, ram: vm.diffRAM(), stack: append([]byte(nil), vm.stack[:vm.stackptr]...), heap: vm.heap.summary()}
	if len(vm.undo) >= vm.opts.UndoSlots {
		vm.undo = append(vm.undo[:0], vm.undo[1:]...)
	}
	vm.undo = append(vm.undo, st)
	return 0
}

// restoreUndo restores the last undo state; false when there is none.
func (vm *VM) restoreUndo() bool {
	if len(vm.undo) == 0 {
		return false
	}
	st := vm.undo[len(vm.undo)-1]
	if !vm.applyState(st.endmem, st.ram, st.stack, st.heap) {
		return false
	}
	vm.undo = vm.undo[:len(vm.undo)-1]
	return true
}

// applyState sets memory, stack and heap; the caller pops the call stub.
func (vm *VM) applyState(endmem uint32, ram, stack []byte, heapSum []uint32) bool {
	if len(stack) > len(vm.stack) || len(stack)%4 != 0 || endmem < vm.hdr.EndMem || endmem&0xFF != 0 || endmem > vm.opts.MaxMemory {
		return false
	}
	vm.heap.clear(vm)
	if vm.changeMemsize(endmem, false) {
		return false
	}
	if !vm.undiffRAM(ram) {
		return false
	}
	copy(vm.stack, stack)
	vm.stackptr = uint32(len(stack))
	if heapSum != nil && !vm.heap.apply(vm, heapSum) {
		return false
	}
	return true
}
