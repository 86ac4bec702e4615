package glulx

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

// orig is the original memory byte at a (zero beyond the game file).
func (vm *VM) orig(a uint32) byte {
	if a < vm.hdr.ExtStart {
		return vm.image[a]
	}
	return 0
}

// diffRAM codes RAM against the original memory: a nonzero byte is the
// XOR of the two, a zero is followed by the run length minus one of zero
// XORs (at most 256), and trailing zeros are left out.
func (vm *VM) diffRAM() []byte {
	var out []byte
	run := 0
	for a := vm.ramstart; a < vm.endmem; a++ {
		x := vm.mem[a] ^ vm.orig(a)
		if x == 0 {
			run++
			continue
		}
		for run > 0 {
			n := min(run, 256)
			out = append(out, 0, byte(n-1))
			run -= n
		}
		out = append(out, x)
	}
	return out
}

// undiffRAM applies a diffRAM code to memory, keeping the protected range.
func (vm *VM) undiffRAM(code []byte) bool {
	i := 0
	run := 0
	for a := vm.ramstart; a < vm.endmem; a++ {
		ch := vm.orig(a)
		switch {
		case i >= len(code):
		case run > 0:
			run--
		default:
			c := code[i]
			i++
			if c == 0 {
				if i >= len(code) {
					return false
				}
				run = int(code[i])
				i++
			} else {
				ch ^= c
			}
		}
		if a >= vm.protectStart && a < vm.protectEnd {
			continue
		}
		vm.mem[a] = ch
	}
	return i >= len(code)
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
