package glulx

// Function calls and call stubs, as glulxe's funcs.c.

// enterFunction builds a call frame for the function at addr with the
// arguments argv (argv[0] first), or runs its accelerated version.
func (vm *VM) enterFunction(addr uint32, argv []uint32) {
	if len(vm.accel) != 0 {
		if e, ok := vm.accel[addr]; ok && e.fn != nil {
			val := e.fn(vm, argv)
			vm.popCallstub(val)
			return
		}
	}
	functype := vm.r1(addr)
	if functype != 0xC0 && functype != 0xC1 {
		if functype >= 0xC0 && functype <= 0xDF {
			vm.fatalI("Call to unknown type of function.", addr)
		}
		vm.fatalI("Call to non-function.", addr)
	}
	addr++
	vm.frameptr = vm.stackptr
	fp := vm.frameptr
	ix := uint32(0)
	locallen := uint32(0)
	for {
		loctype := vm.r1(addr)
		addr++
		locnum := vm.r1(addr)
		addr++
		vm.sw1(fp+8+2*ix, loctype)
		vm.sw1(fp+8+2*ix+1, locnum)
		ix++
		if loctype == 0 {
			if ix&1 != 0 {
				vm.sw1(fp+8+2*ix, 0)
				vm.sw1(fp+8+2*ix+1, 0)
				ix++
			}
			break
		}
		switch loctype {
		case 4:
			locallen = (locallen + 3) &^ 3
		case 2:
			locallen = (locallen + 1) &^ 1
		case 1:
		default:
			vm.fatal("Illegal local type in locals-format list.")
		}
		locallen += loctype * locnum
	}
	locallen = (locallen + 3) &^ 3
	vm.localsbase = fp + 8 + 2*ix
	vm.valstack = vm.localsbase + locallen
	if vm.valstack >= uint32(len(vm.stack)) {
		vm.fatal("Stack overflow in function call.")
	}
	vm.sw4(fp+4, 8+2*ix)
	vm.sw4(fp, 8+2*ix+locallen)
	vm.stackptr = vm.valstack
	vm.pc = addr
	clear(vm.stack[vm.localsbase:vm.valstack])
	argc := uint32(len(argv))
	if functype == 0xC0 {
		if uint64(vm.stackptr)+4*(uint64(argc)+1) >= uint64(len(vm.stack)) {
			vm.fatal("Stack overflow in function arguments.")
		}
		for i := int(argc) - 1; i >= 0; i-- {
			vm.sw4(vm.stackptr, argv[i])
			vm.stackptr += 4
		}
		vm.sw4(vm.stackptr, argc)
		vm.stackptr += 4
		return
	}
	modeaddr := fp + 8
	opaddr := vm.localsbase
	i := uint32(0)
	for i < argc {
		loctype := vm.s1(modeaddr)
		locnum := vm.s1(modeaddr + 1)
		modeaddr += 2
		if loctype == 0 {
			break
		}
		switch loctype {
		case 4:
			opaddr = (opaddr + 3) &^ 3
			for ; i < argc && locnum > 0; locnum-- {
				vm.sw4(opaddr, argv[i])
				opaddr += 4
				i++
			}
		case 2:
			opaddr = (opaddr + 1) &^ 1
			for ; i < argc && locnum > 0; locnum-- {
				vm.sw2(opaddr, argv[i]&0xFFFF)
				opaddr += 2
				i++
			}
		case 1:
			for ; i < argc && locnum > 0; locnum-- {
				vm.sw1(opaddr, argv[i]&0xFF)
				opaddr++
				i++
			}
		}
	}
}

func (vm *VM) leaveFunction() { vm.stackptr = vm.frameptr }

func (vm *VM) pushCallstub(desttype, destaddr uint32) {
	if vm.stackptr+16 > uint32(len(vm.stack)) {
		vm.fatal("Stack overflow in callstub.")
	}
	sp := vm.stackptr
	vm.sw4(sp, desttype)
	vm.sw4(sp+4, destaddr)
	vm.sw4(sp+8, vm.pc)
	vm.sw4(sp+12, vm.frameptr)
	vm.stackptr += 16
}

func (vm *VM) restoreFrame() {
	vm.valstack = vm.frameptr + vm.s4(vm.frameptr)
	vm.localsbase = vm.frameptr + vm.s4(vm.frameptr+4)
}

func (vm *VM) popCallstub(ret uint32) {
	if vm.stackptr < 16 {
		vm.fatal("Stack underflow in callstub.")
	}
	vm.stackptr -= 16
	sp := vm.stackptr
	vm.frameptr = vm.s4(sp + 12)
	vm.pc = vm.s4(sp + 8)
	destaddr := vm.s4(sp + 4)
	desttype := vm.s4(sp)
	vm.restoreFrame()
	switch desttype {
	case 0x11:
		vm.fatal("String-terminator call stub at end of function call.")
	case 0x10:
		vm.streamString(vm.pc, 0xE1, destaddr)
	case 0x12:
		vm.streamNum(int32(vm.pc), true, destaddr)
	case 0x13:
		vm.streamString(vm.pc, 0xE0, destaddr)
	case 0x14:
		vm.streamString(vm.pc, 0xE2, destaddr)
	default:
		vm.store(desttype, destaddr, ret)
	}
}

// popCallstubString pops a string stub: 0 for a terminator, else the
// address at which to resume, with the bit number.
func (vm *VM) popCallstubString() (uint32, uint32) {
	if vm.stackptr < 16 {
		vm.fatal("Stack underflow in callstub.")
	}
	vm.stackptr -= 16
	sp := vm.stackptr
	vm.pc = vm.s4(sp + 8)
	destaddr := vm.s4(sp + 4)
	desttype := vm.s4(sp)
	switch desttype {
	case 0x11:
		return 0, 0
	case 0x10:
		return vm.pc, destaddr
	}
	vm.fatal("Function-terminator call stub at end of string.")
	return 0, 0
}

// popArguments pops count arguments (the first popped is the last), or
// reads them from memory at addr when addr is not 0.
func (vm *VM) popArguments(count, addr uint32) []uint32 {
	if count&0x80000000 != 0 {
		vm.fatal("Argument count is negative")
	}
	if count == 0 {
		return nil
	}
	if addr == 0 && uint64(vm.stackptr) < uint64(vm.valstack)+4*uint64(count) {
		vm.fatal("Stack underflow in arguments.")
	}
	if addr != 0 && uint64(count)*4 > uint64(vm.endmem) {
		vm.fatalI("Memory access out of range", addr)
	}
	args := make([]uint32, count)
	if addr == 0 {
		vm.stackptr -= 4 * count
		for i := range count {
			args[i] = vm.s4(vm.stackptr + 4*(count-1-i))
		}
		return args
	}
	for i := range count {
		args[i] = vm.r4(addr)
		addr += 4
	}
	return args
}

// store stores a result (store_operand).
func (vm *VM) store(desttype, addr, v uint32) {
	switch desttype {
	case 0:
	case 1:
		vm.w4(addr, v)
	case 2:
		vm.checkS(addr+vm.localsbase, 4)
		vm.sw4(addr+vm.localsbase, v)
	case 3:
		vm.push(v)
	default:
		vm.fatal("Unknown destination type in store operand.")
	}
}

func (vm *VM) storeS(desttype, addr, v uint32) {
	v &= 0xFFFF
	switch desttype {
	case 0:
	case 1:
		vm.w2(addr, v)
	case 2:
		vm.checkS(addr+vm.localsbase, 2)
		vm.sw2(addr+vm.localsbase, v)
	case 3:
		vm.push(v)
	default:
		vm.fatal("Unknown destination type in store operand.")
	}
}

func (vm *VM) storeB(desttype, addr, v uint32) {
	v &= 0xFF
	switch desttype {
	case 0:
	case 1:
		vm.w1(addr, v)
	case 2:
		vm.sw1(addr+vm.localsbase, v)
	case 3:
		vm.push(v)
	default:
		vm.fatal("Unknown destination type in store operand.")
	}
}
