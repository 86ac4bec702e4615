package glulx

// Operand lists of the opcodes, as glulxe's operand.c: L loads, S stores;
// the width is 4 except for copys (2) and copyb (1).

type oplist struct {
	n     uint8
	size  uint8
	store uint8 // bit i set: operand i is a store
	ok    bool
}

var oplists [0x240]oplist

func defops(form string, size uint8, ops ...uint32) {
	var st uint8
	for i, c := range form {
		if c == 'S' {
			st |= 1 << i
		}
	}
	for _, op := range ops {
		oplists[op] = oplist{n: uint8(len(form)), size: size, store: st, ok: true}
	}
}

func init() {
	defops("", 4, 0x00, 0x52, 0x122, 0x129, 0x120)
	defops("LLS", 4, 0x10, 0x11, 0x12, 0x13, 0x14, 0x18, 0x19, 0x1A, 0x1C, 0x1D, 0x1E,
		0x30, 0x48, 0x49, 0x4A, 0x4B, 0x100, 0x130, 0x161,
		0x1A0, 0x1A1, 0x1A2, 0x1A3, 0x1AB, 0x1B6, 0x201, 0x202, 0x204)
	defops("LS", 4, 0x15, 0x1B, 0x44, 0x45, 0x40, 0x51, 0x110, 0x123, 0x124, 0x103, 0x160, 0x178,
		0x190, 0x191, 0x192, 0x198, 0x199, 0x1A8, 0x1A9, 0x1AA, 0x1B0, 0x1B1, 0x1B2, 0x1B3, 0x1B4, 0x1B5)
	defops("L", 4, 0x20, 0x104, 0x31, 0x54, 0x70, 0x71, 0x72, 0x73, 0x141, 0x111, 0x101, 0x179)
	defops("LL", 4, 0x22, 0x23, 0x33, 0x34, 0x53, 0x149, 0x127, 0x170, 0x180, 0x181, 0x1C8, 0x1C9)
	defops("LLL", 4, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x2D, 0x4C, 0x4D, 0x4E, 0x4F, 0x171,
		0x1C2, 0x1C3, 0x1C4, 0x1C5, 0x238, 0x239)
	defops("SL", 4, 0x32)
	defops("LS", 2, 0x41)
	defops("LS", 1, 0x42)
	defops("S", 4, 0x50, 0x140, 0x121, 0x125, 0x126, 0x128, 0x102)
	defops("SS", 4, 0x148)
	defops("LLLLLLLS", 4, 0x150, 0x151)
	defops("LLLLLLS", 4, 0x152)
	defops("LLLS", 4, 0x162)
	defops("LLLLS", 4, 0x163)
	defops("LLSS", 4, 0x1A4, 0x208, 0x209, 0x218, 0x219, 0x21A, 0x220, 0x221, 0x222, 0x223, 0x224, 0x225)
	defops("LLLL", 4, 0x1C0, 0x1C1)
	defops("LSS", 4, 0x200, 0x203)
	defops("LLLLSS", 4, 0x210, 0x211, 0x212, 0x213, 0x21B, 0x226, 0x214, 0x215)
	defops("LLLLLLL", 4, 0x230, 0x231)
	defops("LLLLL", 4, 0x232, 0x233, 0x234, 0x235)
}

// operands decodes the operands of an instruction at vm.pc.
func (vm *VM) operands(ol *oplist, val, dt *[8]uint32) {
	n := uint32(ol.n)
	modeaddr := vm.pc
	vm.pc += (n + 1) / 2
	var modeval uint32
	for i := uint32(0); i < n; i++ {
		var mode uint32
		if i&1 == 0 {
			modeval = vm.r1(modeaddr)
			mode = modeval & 0x0F
		} else {
			mode = modeval >> 4 & 0x0F
			modeaddr++
		}
		if ol.store&(1<<i) == 0 {
			var v, addr uint32
			switch mode {
			case 8:
				if vm.stackptr < vm.valstack+4 {
					vm.fatal("Stack underflow in operand.")
				}
				vm.stackptr -= 4
				v = vm.s4(vm.stackptr)
				val[i] = v
				continue
			case 0:
				val[i] = 0
				continue
			case 1:
				val[i] = uint32(int32(int8(vm.r1(vm.pc))))
				vm.pc++
				continue
			case 2:
				val[i] = uint32(int32(int16(vm.r2(vm.pc))))
				vm.pc += 2
				continue
			case 3:
				val[i] = vm.r4(vm.pc)
				vm.pc += 4
				continue
			case 15:
				addr = vm.r4(vm.pc) + vm.ramstart
				vm.pc += 4
			case 14:
				addr = vm.r2(vm.pc) + vm.ramstart
				vm.pc += 2
			case 13:
				addr = vm.r1(vm.pc) + vm.ramstart
				vm.pc++
			case 7:
				addr = vm.r4(vm.pc)
				vm.pc += 4
			case 6:
				addr = vm.r2(vm.pc)
				vm.pc += 2
			case 5:
				addr = vm.r1(vm.pc)
				vm.pc++
			case 9, 10, 11:
				switch mode {
				case 11:
					addr = vm.r4(vm.pc)
					vm.pc += 4
				case 10:
					addr = vm.r2(vm.pc)
					vm.pc += 2
				default:
					addr = vm.r1(vm.pc)
					vm.pc++
				}
				addr += vm.localsbase
				vm.checkS(addr, uint32(ol.size))
				switch ol.size {
				case 4:
					val[i] = vm.s4(addr)
				case 2:
					val[i] = vm.s2(addr)
				default:
					val[i] = vm.s1(addr)
				}
				continue
			default:
				vm.fatal("Unknown addressing mode in load operand.")
			}
			switch ol.size {
			case 4:
				val[i] = vm.r4(addr)
			case 2:
				val[i] = vm.r2(addr)
			default:
				val[i] = vm.r1(addr)
			}
			continue
		}
		// Store operand.
		switch mode {
		case 0:
			dt[i], val[i] = 0, 0
		case 8:
			dt[i], val[i] = 3, 0
		case 15:
			dt[i], val[i] = 1, vm.r4(vm.pc)+vm.ramstart
			vm.pc += 4
		case 14:
			dt[i], val[i] = 1, vm.r2(vm.pc)+vm.ramstart
			vm.pc += 2
		case 13:
			dt[i], val[i] = 1, vm.r1(vm.pc)+vm.ramstart
			vm.pc++
		case 7:
			dt[i], val[i] = 1, vm.r4(vm.pc)
			vm.pc += 4
		case 6:
			dt[i], val[i] = 1, vm.r2(vm.pc)
			vm.pc += 2
		case 5:
			dt[i], val[i] = 1, vm.r1(vm.pc)
			vm.pc++
		case 11:
			dt[i], val[i] = 2, vm.r4(vm.pc)
			vm.pc += 4
		case 10:
			dt[i], val[i] = 2, vm.r2(vm.pc)
			vm.pc += 2
		case 9:
			dt[i], val[i] = 2, vm.r1(vm.pc)
			vm.pc++
		case 1, 2, 3:
			vm.fatal("Constant addressing mode in store operand.")
		default:
			vm.fatal("Unknown addressing mode in store operand.")
		}
	}
}
