package glulx

// The malloc heap, as glulxe's heap.c: a list of blocks in address order
// from start to the end of memory, free neighbours merged as alloc walks.

type heapBlock struct {
	addr, len uint32
	free      bool
}

type heap struct {
	start  uint32 // 0: inactive
	allocs int
	blocks []heapBlock
}

func (h *heap) clear(vm *VM) {
	h.blocks = nil
	if h.start != 0 {
		if vm.changeMemsize(h.start, true) {
			vm.fatal("Unable to revert memory size when deactivating heap.")
		}
	}
	h.start = 0
	h.allocs = 0
}

func (h *heap) alloc(vm *VM, n uint32) uint32 {
	if n == 0 || n&0x80000000 != 0 {
		vm.fatal("Heap allocation length must be positive.")
	}
	i := 0
	for i < len(h.blocks) {
		vm.spend() // a hostile story's many blocks cost budget, not a hang
		b := &h.blocks[i]
		if b.free && b.len >= n {
			break
		}
		if !b.free || i+1 >= len(h.blocks) || !h.blocks[i+1].free {
			i++
			continue
		}
		b.len += h.blocks[i+1].len
		h.blocks = append(h.blocks[:i+1], h.blocks[i+2:]...)
	}
	if i >= len(h.blocks) {
		old := vm.endmem
		ext := uint32(0)
		if h.start != 0 {
			ext = vm.endmem - h.start
		}
		ext = max(ext, n, 256)
		ext = (ext + 0xFF) &^ 0xFF
		if ext == 0 || uint64(vm.endmem)+uint64(ext) > uint64(vm.opts.MaxMemory) {
			return 0
		}
		if vm.changeMemsize(vm.endmem+ext, true) {
			return 0
		}
		if h.start == 0 {
			h.start = old
		}
		if l := len(h.blocks); l > 0 && h.blocks[l-1].free {
			h.blocks[l-1].len += ext
		} else {
			h.blocks = append(h.blocks, heapBlock{addr: old, len: ext, free: true})
		}
		i = len(h.blocks) - 1
	}
	b := &h.blocks[i]
	if !b.free || b.len < n {
		return 0
	}
	if b.len == n {
		b.free = false
	} else {
		nb := heapBlock{addr: b.addr + n, len: b.len - n, free: true}
		b.len = n
		b.free = false
		h.blocks = append(h.blocks, heapBlock{})
		copy(h.blocks[i+2:], h.blocks[i+1:])
		h.blocks[i+1] = nb
	}
	h.allocs++
	return h.blocks[i].addr
}

func (h *heap) free(vm *VM, addr uint32) {
	for i := range h.blocks {
		vm.spend()
		b := &h.blocks[i]
		if b.addr == addr {
			if b.free {
				break
			}
			b.free = true
			h.allocs--
			if h.allocs <= 0 {
				h.clear(vm)
			}
			return
		}
	}
	vm.fatalI("Attempt to free unallocated address from heap.", addr)
}

// summary is the heap in the save format: start, count, then address and
// length of each allocated block; nil when inactive.
func (h *heap) summary() []uint32 {
	if h.start == 0 {
		return nil
	}
	s := []uint32{h.start, uint32(h.allocs)}
	for _, b := range h.blocks {
		if !b.free {
			s = append(s, b.addr, b.len)
		}
	}
	return s
}

// apply sets up the heap from a summary (heap_apply_summary); the heap
// must be inactive and memory already sized.
func (h *heap) apply(vm *VM, s []uint32) bool {
	h.blocks = nil
	h.start, h.allocs = 0, 0
	if len(s) < 2 || (len(s) == 2 && s[0] == 0 && s[1] == 0) {
		return true
	}
	if len(s)%2 != 0 {
		return false
	}
	h.start = s[0]
	h.allocs = int(s[1])
	for j := 2; j+2 < len(s); j += 2 {
		if s[j] >= s[j+2] {
			return false
		}
	}
	last := h.start
	i := 2
	for i < len(s) || last < vm.endmem {
		var b heapBlock
		switch {
		case i >= len(s):
			b = heapBlock{addr: last, len: vm.endmem - last, free: true}
		case last < s[i]:
			b = heapBlock{addr: last, len: s[i] - last, free: true}
		default:
			b = heapBlock{addr: s[i], len: s[i+1]}
			i += 2
		}
		if b.addr+b.len < b.addr || b.addr+b.len > vm.endmem || b.len == 0 {
			return false
		}
		h.blocks = append(h.blocks, b)
		last = b.addr + b.len
	}
	return true
}
