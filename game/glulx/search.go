package glulx

// The search opcodes, as glulxe's search.c.

const (
	serKeyIndirect       = 1
	serZeroKeyTerminates = 2
	serReturnIndex       = 4
)

func (vm *VM) fetchKey(key, keysize, options uint32) (kb [4]byte) {
	if options&serKeyIndirect != 0 {
		if keysize <= 4 {
			for i := range keysize {
				kb[i] = byte(vm.r1(key + i))
			}
		}
		return
	}
	switch keysize {
	case 4:
		kb = [4]byte{byte(key >> 24), byte(key >> 16), byte(key >> 8), byte(key)}
	case 2:
		kb[0], kb[1] = byte(key>>8), byte(key)
	case 1:
		kb[0] = byte(key)
	default:
		vm.fatal("Direct search key must hold one, two, or four bytes.")
	}
	return
}

// keyCmp compares the key at addr with the search key: -1, 0 or 1.
func (vm *VM) keyCmp(addr, key, keysize uint32, kb *[4]byte) int {
	for i := range keysize {
		b := vm.r1(addr + i)
		var b2 uint32
		if keysize <= 4 {
			b2 = uint32(kb[i])
		} else {
			b2 = vm.r1(key + i)
		}
		if b < b2 {
			return -1
		}
		if b > b2 {
			return 1
		}
	}
	return 0
}

func (vm *VM) zeroKey(addr, keysize uint32) bool {
	for i := range keysize {
		if vm.r1(addr+i) != 0 {
			return false
		}
	}
	return true
}

func (vm *VM) linearSearch(key, keysize, start, structsize, numstructs, keyoffset, options uint32) uint32 {
	kb := vm.fetchKey(key, keysize, options)
	for count := uint32(0); count < numstructs; count++ {
		vm.spend()
		if vm.keyCmp(start+keyoffset, key, keysize, &kb) == 0 {
			if options&serReturnIndex != 0 {
				return count
			}
			return start
		}
		if options&serZeroKeyTerminates != 0 && vm.zeroKey(start+keyoffset, keysize) {
			break
		}
		start += structsize
	}
	if options&serReturnIndex != 0 {
		return 0xFFFFFFFF
	}
	return 0
}

func (vm *VM) binarySearch(key, keysize, start, structsize, numstructs, keyoffset, options uint32) uint32 {
	kb := vm.fetchKey(key, keysize, options)
	bot, top := uint32(0), numstructs
	for bot < top {
		v := (top + bot) / 2 // wraps as glulxe's does
		addr := start + v*structsize
		switch vm.keyCmp(addr+keyoffset, key, keysize, &kb) {
		case 0:
			if options&serReturnIndex != 0 {
				return v
			}
			return addr
		case -1:
			bot = v + 1
		default:
			top = v
		}
	}
	if options&serReturnIndex != 0 {
		return 0xFFFFFFFF
	}
	return 0
}

func (vm *VM) linkedSearch(key, keysize, start, keyoffset, nextoffset, options uint32) uint32 {
	kb := vm.fetchKey(key, keysize, options)
	for start != 0 {
		vm.spend()
		if vm.keyCmp(start+keyoffset, key, keysize, &kb) == 0 {
			return start
		}
		if options&serZeroKeyTerminates != 0 && vm.zeroKey(start+keyoffset, keysize) {
			break
		}
		start = vm.r4(start + nextoffset)
	}
	return 0
}
