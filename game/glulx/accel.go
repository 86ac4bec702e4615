package glulx

// Accelerated functions (accelfunc/accelparam), as glulxe's accel.c: the
// Inform veneer routines, run natively with the same results and the same
// error messages.

type accelFunc func(vm *VM, argv []uint32) uint32

type accelEntry struct {
	index uint32
	fn    accelFunc
}

const (
	apClassesTable = iota
	apIndivPropStart
	apClassMetaclass
	apObjectMetaclass
	apRoutineMetaclass
	apStringMetaclass
	apSelf
	apNumAttrBytes
	apCpvStart
)

func accelFuncs(index uint32) accelFunc {
	switch index {
	case 1:
		return (*VM).zRegion
	case 2:
		return func(vm *VM, a []uint32) uint32 { return vm.cpTab(a, false) }
	case 3:
		return func(vm *VM, a []uint32) uint32 { return vm.raPr(a, false) }
	case 4:
		return func(vm *VM, a []uint32) uint32 { return vm.rlPr(a, false) }
	case 5:
		return func(vm *VM, a []uint32) uint32 { return vm.ocCl(a, false) }
	case 6:
		return func(vm *VM, a []uint32) uint32 { return vm.rvPr(a, false) }
	case 7:
		return func(vm *VM, a []uint32) uint32 { return vm.opPr(a, false) }
	case 8:
		return func(vm *VM, a []uint32) uint32 { return vm.cpTab(a, true) }
	case 9:
		return func(vm *VM, a []uint32) uint32 { return vm.raPr(a, true) }
	case 10:
		return func(vm *VM, a []uint32) uint32 { return vm.rlPr(a, true) }
	case 11:
		return func(vm *VM, a []uint32) uint32 { return vm.ocCl(a, true) }
	case 12:
		return func(vm *VM, a []uint32) uint32 { return vm.rvPr(a, true) }
	case 13:
		return func(vm *VM, a []uint32) uint32 { return vm.opPr(a, true) }
	}
	return nil
}

func (vm *VM) accelSetFunc(index, addr uint32) {
	ft := vm.r1(addr)
	if ft != 0xC0 && ft != 0xC1 {
		vm.fatalI("Attempt to accelerate non-function.", addr)
	}
	fn := accelFuncs(index)
	if vm.accel == nil {
		if fn == nil {
			return
		}
		vm.accel = map[uint32]accelEntry{}
	}
	if _, ok := vm.accel[addr]; !ok && fn == nil {
		return
	}
	vm.accel[addr] = accelEntry{index: index, fn: fn}
}

func arg(a []uint32, i int) uint32 {
	if len(a) > i {
		return a[i]
	}
	return 0
}

func (vm *VM) accelError(msg string) {
	if vm.iosysMode == iosysGlk {
		vm.glkPut('\n')
		for i := 0; i < len(msg); i++ {
			vm.glkPut(uint32(msg[i]))
		}
		vm.glkPut('\n')
	}
}

func (vm *VM) objInClass(obj uint32) bool {
	return vm.r4(obj+13+vm.accelParam[apNumAttrBytes]) == vm.accelParam[apClassMetaclass]
}

func (vm *VM) getProp(obj, id uint32, nw bool) uint32 {
	cla := uint32(0)
	if id&0xFFFF0000 != 0 {
		cla = vm.r4(vm.accelParam[apClassesTable] + (id&0xFFFF)*4)
		if vm.ocCl([]uint32{obj, cla}, nw) == 0 {
			return 0
		}
		id >>= 16
		obj = cla
	}
	prop := vm.cpTab([]uint32{obj, id}, nw)
	if prop == 0 {
		return 0
	}
	ips := vm.accelParam[apIndivPropStart]
	if vm.objInClass(obj) && cla == 0 {
		if id < ips || id >= ips+8 {
			return 0
		}
	}
	if vm.r4(vm.accelParam[apSelf]) != obj {
		if vm.r1(prop+9)&1 != 0 {
			return 0
		}
	}
	return prop
}

func (vm *VM) zRegion(argv []uint32) uint32 {
	if len(argv) < 1 {
		return 0
	}
	addr := argv[0]
	if addr < 36 || addr >= vm.endmem {
		return 0
	}
	tb := vm.r1(addr)
	switch {
	case tb >= 0xE0:
		return 3
	case tb >= 0xC0:
		return 2
	case tb >= 0x70 && tb <= 0x7F && addr >= vm.ramstart:
		return 1
	}
	return 0
}

func (vm *VM) cpTab(argv []uint32, nw bool) uint32 {
	obj, id := arg(argv, 0), arg(argv, 1)
	if vm.zRegion([]uint32{obj}) != 1 {
		vm.accelError("[** Programming error: tried to find the \".\" of (something) **]")
		return 0
	}
	var otab uint32
	if nw {
		otab = vm.r4(obj + 4*(3+vm.accelParam[apNumAttrBytes]/4))
	} else {
		otab = vm.r4(obj + 16)
	}
	if otab == 0 {
		return 0
	}
	max := vm.r4(otab)
	return vm.binarySearch(id, 2, otab+4, 10, max, 0, 0)
}

func (vm *VM) raPr(argv []uint32, nw bool) uint32 {
	prop := vm.getProp(arg(argv, 0), arg(argv, 1), nw)
	if prop == 0 {
		return 0
	}
	return vm.r4(prop + 4)
}

func (vm *VM) rlPr(argv []uint32, nw bool) uint32 {
	prop := vm.getProp(arg(argv, 0), arg(argv, 1), nw)
	if prop == 0 {
		return 0
	}
	return 4 * vm.r2(prop+2)
}

func (vm *VM) ocCl(argv []uint32, nw bool) uint32 {
	obj, cla := arg(argv, 0), arg(argv, 1)
	p := &vm.accelParam
	switch vm.zRegion([]uint32{obj}) {
	case 3:
		return b2u(cla == p[apStringMetaclass])
	case 2:
		return b2u(cla == p[apRoutineMetaclass])
	case 1:
	default:
		return 0
	}
	meta := obj == p[apClassMetaclass] || obj == p[apStringMetaclass] || obj == p[apRoutineMetaclass] || obj == p[apObjectMetaclass]
	if cla == p[apClassMetaclass] {
		return b2u(vm.objInClass(obj) || meta)
	}
	if cla == p[apObjectMetaclass] {
		return b2u(!vm.objInClass(obj) && !meta)
	}
	if cla == p[apStringMetaclass] || cla == p[apRoutineMetaclass] {
		return 0
	}
	if !vm.objInClass(cla) {
		vm.accelError("[** Programming error: tried to apply 'ofclass' with non-class **]")
		return 0
	}
	prop := vm.getProp(obj, 2, nw)
	if prop == 0 {
		return 0
	}
	inlist := vm.r4(prop + 4)
	if inlist == 0 {
		return 0
	}
	n := vm.r2(prop + 2)
	for j := uint32(0); j < n; j++ {
		if vm.r4(inlist+4*j) == cla {
			return 1
		}
	}
	return 0
}

func (vm *VM) rvPr(argv []uint32, nw bool) uint32 {
	id := arg(argv, 1)
	addr := vm.raPr(argv, nw)
	if addr == 0 {
		if id > 0 && id < vm.accelParam[apIndivPropStart] {
			return vm.r4(vm.accelParam[apCpvStart] + 4*id)
		}
		vm.accelError("[** Programming error: tried to read (something) **]")
		return 0
	}
	return vm.r4(addr)
}

func (vm *VM) opPr(argv []uint32, nw bool) uint32 {
	obj, id := arg(argv, 0), arg(argv, 1)
	ips := vm.accelParam[apIndivPropStart]
	switch vm.zRegion([]uint32{obj}) {
	case 3:
		return b2u(id == ips+6 || id == ips+7)
	case 2:
		return b2u(id == ips+5)
	case 1:
	default:
		return 0
	}
	if id >= ips && id < ips+8 && vm.objInClass(obj) {
		return 1
	}
	return b2u(vm.raPr(argv, nw) != 0)
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}
