package glulx

import (
	"errors"
	"fmt"
	"math"
)

// Run executes until the story waits for input, halts, faults or spends
// its instruction budget. When the VM was waiting, the pending glk call is
// made again first (the host has given its input meanwhile).
func (vm *VM) Run() (err error) {
	if vm.state == Halted {
		return errors.New("glulx: the story has halted")
	}
	vm.budget = vm.opts.Budget
	err = vm.protect(vm.loop)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) && !errors.Is(err, ErrBudget) {
			err = fmt.Errorf("glulx: pc %#x: %w", vm.prevpc, err)
		}
	}
	return err
}

func (vm *VM) glkCall(sel uint32, args []uint32, desttype, destaddr uint32) bool {
	if vm.glk == nil {
		vm.fatal("glk call %#x: no Glk library", sel)
	}
	v, err := vm.glk.Call(sel, args)
	if err != nil {
		switch {
		case vm.opts.Wait != nil && errors.Is(err, vm.opts.Wait):
			vm.pending = &pendingGlk{sel: sel, args: args, desttype: desttype, destaddr: destaddr}
			vm.state = Waiting
			return false
		case vm.opts.Exit != nil && errors.Is(err, vm.opts.Exit):
			vm.state = Halted
			return false
		}
		panic(fault{&Error{PC: vm.prevpc, Msg: fmt.Sprintf("glk call %#x: %v", sel, err)}})
	}
	vm.store(desttype, destaddr, v)
	return true
}

func f32(v uint32) float32 { return math.Float32frombits(v) }
func u32(f float32) uint32 { return math.Float32bits(f) }
func f64(hi, lo uint32) float64 {
	return math.Float64frombits(uint64(hi)<<32 | uint64(lo))
}
func u64(d float64) (hi, lo uint32) {
	b := math.Float64bits(d)
	return uint32(b >> 32), uint32(b)
}

func dIsInf(hi, lo uint32) bool { return (hi == 0x7FF00000 || hi == 0xFFF00000) && lo == 0 }
func dIsNaN(hi, lo uint32) bool {
	return hi&0x7FF00000 == 0x7FF00000 && (hi&0xFFFFF != 0 || lo != 0)
}
func fIsNaN(v uint32) bool { return v&0x7F800000 == 0x7F800000 && v&0x007FFFFF != 0 }
func fIsInf(v uint32) bool { return v == 0x7F800000 || v == 0xFF800000 }

func ftonum(f float64, round bool) uint32 {
	var v int32
	if !math.Signbit(f) {
		if math.IsNaN(f) || math.IsInf(f, 0) || f > 2147483647.0 {
			return 0x7FFFFFFF
		}
	} else if math.IsNaN(f) || math.IsInf(f, 0) || f < -2147483647.0 {
		return 0x80000000
	}
	if round {
		v = int32(math.Round(f))
	} else {
		v = int32(math.Trunc(f))
	}
	return uint32(v)
}

func (vm *VM) loop() {
	if vm.state == Waiting && vm.pending != nil {
		p := vm.pending
		vm.pending = nil
		vm.state = Running
		if !vm.glkCall(p.sel, p.args, p.desttype, p.destaddr) {
			return
		}
	}
	vm.state = Running
	var val, dt [8]uint32
	for {
		if vm.budget <= 0 {
			panic(fault{fmt.Errorf("%w (pc %#x)", ErrBudget, vm.pc)})
		}
		vm.budget--
		vm.count++
		vm.prevpc = vm.pc
		opcode := vm.r1(vm.pc)
		vm.pc++
		if opcode&0x80 != 0 {
			if opcode&0x40 != 0 {
				opcode = (opcode&0x3F)<<24 | vm.r1(vm.pc)<<16 | vm.r1(vm.pc+1)<<8 | vm.r1(vm.pc+2)
				vm.pc += 3
			} else {
				opcode = (opcode&0x7F)<<8 | vm.r1(vm.pc)
				vm.pc++
			}
		}
		if opcode >= uint32(len(oplists)) || !oplists[opcode].ok {
			vm.fatalI("Encountered unknown opcode.", opcode)
		}
		vm.operands(&oplists[opcode], &val, &dt)
		var jump uint32
		switch opcode {
		case 0x00: // nop
		case 0x10:
			vm.store(dt[2], val[2], val[0]+val[1])
		case 0x11:
			vm.store(dt[2], val[2], val[0]-val[1])
		case 0x12:
			vm.store(dt[2], val[2], val[0]*val[1])
		case 0x13, 0x14: // div, mod
			a, b := int32(val[0]), int32(val[1])
			if b == 0 {
				if opcode == 0x13 {
					vm.fatal("Division by zero.")
				}
				vm.fatal("Division by zero doing remainder.")
			}
			if b == -1 && a == math.MinInt32 {
				if opcode == 0x13 {
					vm.fatal("Division overflow.")
				}
				vm.fatal("Division overflow doing remainder.")
			}
			if opcode == 0x13 {
				vm.store(dt[2], val[2], uint32(a/b))
			} else {
				vm.store(dt[2], val[2], uint32(a%b))
			}
		case 0x15:
			vm.store(dt[1], val[1], -val[0])
		case 0x18:
			vm.store(dt[2], val[2], val[0]&val[1])
		case 0x19:
			vm.store(dt[2], val[2], val[0]|val[1])
		case 0x1A:
			vm.store(dt[2], val[2], val[0]^val[1])
		case 0x1B:
			vm.store(dt[1], val[1], ^val[0])
		case 0x1C:
			v := uint32(0)
			if val[1] < 32 {
				v = val[0] << val[1]
			}
			vm.store(dt[2], val[2], v)
		case 0x1E:
			v := uint32(0)
			if val[1] < 32 {
				v = val[0] >> val[1]
			}
			vm.store(dt[2], val[2], v)
		case 0x1D:
			var v uint32
			if val[1] >= 32 {
				if val[0]&0x80000000 != 0 {
					v = 0xFFFFFFFF
				}
			} else {
				v = uint32(int32(val[0]) >> val[1])
			}
			vm.store(dt[2], val[2], v)
		case 0x20:
			jump = val[0]
			goto perform
		case 0x22:
			if val[0] == 0 {
				jump = val[1]
				goto perform
			}
		case 0x23:
			if val[0] != 0 {
				jump = val[1]
				goto perform
			}
		case 0x24:
			if val[0] == val[1] {
				jump = val[2]
				goto perform
			}
		case 0x25:
			if val[0] != val[1] {
				jump = val[2]
				goto perform
			}
		case 0x26:
			if int32(val[0]) < int32(val[1]) {
				jump = val[2]
				goto perform
			}
		case 0x27:
			if int32(val[0]) >= int32(val[1]) {
				jump = val[2]
				goto perform
			}
		case 0x28:
			if int32(val[0]) > int32(val[1]) {
				jump = val[2]
				goto perform
			}
		case 0x29:
			if int32(val[0]) <= int32(val[1]) {
				jump = val[2]
				goto perform
			}
		case 0x2A:
			if val[0] < val[1] {
				jump = val[2]
				goto perform
			}
		case 0x2B:
			if val[0] >= val[1] {
				jump = val[2]
				goto perform
			}
		case 0x2C:
			if val[0] > val[1] {
				jump = val[2]
				goto perform
			}
		case 0x2D:
			if val[0] <= val[1] {
				jump = val[2]
				goto perform
			}
		case 0x30: // call
			args := vm.popArguments(val[1], 0)
			vm.pushCallstub(dt[2], val[2])
			vm.enterFunction(val[0], args)
		case 0x31: // return
			vm.leaveFunction()
			if vm.stackptr == 0 {
				vm.state = Halted
				return
			}
			vm.popCallstub(val[0])
		case 0x32: // catch
			vm.pushCallstub(dt[0], val[0])
			vm.store(dt[0], val[0], vm.stackptr)
			jump = val[1]
			goto perform
		case 0x33: // throw
			if val[1] > vm.stackptr || val[1] < 16 {
				vm.fatalI("Throw to an invalid catch token.", val[1])
			}
			vm.stackptr = val[1]
			vm.popCallstub(val[0])
		case 0x34: // tailcall
			args := vm.popArguments(val[1], 0)
			vm.leaveFunction()
			vm.enterFunction(val[0], args)
		case 0x40:
			vm.store(dt[1], val[1], val[0])
		case 0x41:
			vm.storeS(dt[1], val[1], val[0])
		case 0x42:
			vm.storeB(dt[1], val[1], val[0])
		case 0x44:
			v := val[0] & 0xFFFF
			if v&0x8000 != 0 {
				v |= 0xFFFF0000
			}
			vm.store(dt[1], val[1], v)
		case 0x45:
			v := val[0] & 0xFF
			if v&0x80 != 0 {
				v |= 0xFFFFFF00
			}
			vm.store(dt[1], val[1], v)
		case 0x48:
			vm.store(dt[2], val[2], vm.r4(val[0]+4*val[1]))
		case 0x49:
			vm.store(dt[2], val[2], vm.r2(val[0]+2*val[1]))
		case 0x4A:
			vm.store(dt[2], val[2], vm.r1(val[0]+val[1]))
		case 0x4B:
			a, bit := bitAddr(val[0], val[1])
			v := uint32(0)
			if vm.r1(a)&(1<<bit) != 0 {
				v = 1
			}
			vm.store(dt[2], val[2], v)
		case 0x4C:
			vm.w4(val[0]+4*val[1], val[2])
		case 0x4D:
			vm.w2(val[0]+2*val[1], val[2])
		case 0x4E:
			vm.w1(val[0]+val[1], val[2])
		case 0x4F:
			a, bit := bitAddr(val[0], val[1])
			v := vm.r1(a)
			if val[2] != 0 {
				v |= 1 << bit
			} else {
				v &^= 1 << bit
			}
			vm.w1(a, v)
		case 0x50:
			vm.store(dt[0], val[0], (vm.stackptr-vm.valstack)/4)
		case 0x51:
			n := int32(val[0])
			if n < 0 || uint32(n) >= (vm.stackptr-vm.valstack)/4 {
				vm.fatal("Stkpeek outside current stack range.")
			}
			vm.store(dt[1], val[1], vm.s4(vm.stackptr-4*(uint32(n)+1)))
		case 0x52:
			if vm.stackptr < vm.valstack+8 {
				vm.fatal("Stack underflow in stkswap.")
			}
			a, b := vm.s4(vm.stackptr-4), vm.s4(vm.stackptr-8)
			vm.sw4(vm.stackptr-4, b)
			vm.sw4(vm.stackptr-8, a)
		case 0x53:
			vm.stkroll(int32(val[0]), int32(val[1]))
		case 0x54:
			n := int32(val[0])
			if n < 0 {
				vm.fatal("Negative operand in stkcopy.")
			}
			if n == 0 {
				break
			}
			if uint64(vm.stackptr) < uint64(vm.valstack)+uint64(n)*4 {
				vm.fatal("Stack underflow in stkcopy.")
			}
			if uint64(vm.stackptr)+uint64(n)*4 > uint64(len(vm.stack)) {
				vm.fatal("Stack overflow in stkcopy.")
			}
			a := vm.stackptr - uint32(n)*4
			for i := uint32(0); i < uint32(n); i++ {
				vm.sw4(vm.stackptr+i*4, vm.s4(a+i*4))
			}
			vm.stackptr += uint32(n) * 4
		case 0x70:
			vm.streamChar(val[0] & 0xFF)
		case 0x73:
			vm.streamUniChar(val[0])
		case 0x71:
			vm.streamNum(int32(val[0]), false, 0)
		case 0x72:
			vm.streamString(val[0], 0, 0)
		case 0x100:
			vm.store(dt[2], val[2], vm.gestalt(val[0], val[1]))
		case 0x101:
			vm.fatalI("user debugtrap encountered.", val[0])
		case 0x102:
			vm.store(dt[0], val[0], vm.endmem)
		case 0x103:
			v := uint32(0)
			if vm.changeMemsize(val[0], false) {
				v = 1
			}
			vm.store(dt[1], val[1], v)
		case 0x104:
			vm.pc = val[0]
		case 0x110:
			n := int32(val[0])
			var v uint32
			switch {
			case n == 0:
				v = vm.rng.next()
			case n >= 1:
				v = vm.rng.next() % uint32(n)
			default:
				v = -(vm.rng.next() % -uint32(n))
			}
			vm.store(dt[1], val[1], v)
		case 0x111:
			vm.rng.setrandom(val[0])
		case 0x120:
			vm.state = Halted
			return
		case 0x121:
			vm.store(dt[0], val[0], vm.verify())
		case 0x122:
			vm.restart()
		case 0x123: // save
			vm.pushCallstub(dt[1], val[1])
			vm.popCallstub(vm.save(val[0]))
		case 0x124: // restore
			if vm.restore(val[0]) {
				vm.popCallstub(0xFFFFFFFF)
			} else {
				vm.store(dt[1], val[1], 1)
			}
		case 0x125:
			vm.pushCallstub(dt[0], val[0])
			vm.popCallstub(vm.saveUndo())
		case 0x126:
			if vm.restoreUndo() {
				vm.popCallstub(0xFFFFFFFF)
			} else {
				vm.store(dt[0], val[0], 1)
			}
		case 0x127:
			a, b := val[0], val[0]+val[1]
			if a == b {
				a, b = 0, 0
			}
			vm.protectStart, vm.protectEnd = a, b
		case 0x128:
			v := uint32(1)
			if len(vm.undo) > 0 {
				v = 0
			}
			vm.store(dt[0], val[0], v)
		case 0x129:
			if len(vm.undo) > 0 {
				vm.undo = vm.undo[:len(vm.undo)-1]
			}
		case 0x130:
			args := vm.popArguments(val[1], 0)
			if !vm.glkCall(val[0], args, dt[2], val[2]) {
				return
			}
		case 0x140:
			vm.store(dt[0], val[0], vm.stringtable)
		case 0x141:
			vm.setTable(val[0])
		case 0x148:
			vm.store(dt[0], val[0], vm.iosysMode)
			vm.store(dt[1], val[1], vm.iosysRock)
		case 0x149:
			vm.setIosys(val[0], val[1])
		case 0x150:
			vm.store(dt[7], val[7], vm.linearSearch(val[0], val[1], val[2], val[3], val[4], val[5], val[6]))
		case 0x151:
			vm.store(dt[7], val[7], vm.binarySearch(val[0], val[1], val[2], val[3], val[4], val[5], val[6]))
		case 0x152:
			vm.store(dt[6], val[6], vm.linkedSearch(val[0], val[1], val[2], val[3], val[4], val[5]))
		case 0x160:
			vm.pushCallstub(dt[1], val[1])
			vm.enterFunction(val[0], nil)
		case 0x161:
			vm.pushCallstub(dt[2], val[2])
			vm.enterFunction(val[0], []uint32{val[1]})
		case 0x162:
			vm.pushCallstub(dt[3], val[3])
			vm.enterFunction(val[0], []uint32{val[1], val[2]})
		case 0x163:
			vm.pushCallstub(dt[4], val[4])
			vm.enterFunction(val[0], []uint32{val[1], val[2], val[3]})
		case 0x170:
			n, a := val[0], val[1]
			if n > 0 {
				vm.checkW(a, n)
				clear(vm.mem[a : a+n])
			}
		case 0x171:
			n, src, dst := val[0], val[1], val[2]
			if n > 0 {
				if src >= vm.endmem || src+n-1 >= vm.endmem || src+n-1 < src {
					vm.fatalI("Memory access out of range", src+n-1)
				}
				vm.checkW(dst, n)
				copy(vm.mem[dst:dst+n], vm.mem[src:src+n])
			}
		case 0x178:
			vm.store(dt[1], val[1], vm.heap.alloc(vm, val[0]))
		case 0x179:
			vm.heap.free(vm, val[0])
		case 0x180:
			vm.accelSetFunc(val[0], val[1])
		case 0x181:
			if val[0] < uint32(len(vm.accelParam)) {
				vm.accelParam[val[0]] = val[1]
			}
		// Floating point.
		case 0x190:
			vm.store(dt[1], val[1], u32(float32(int32(val[0]))))
		case 0x191:
			vm.store(dt[1], val[1], ftonum(float64(f32(val[0])), false))
		case 0x192:
			vm.store(dt[1], val[1], ftonum(float64(f32(val[0])), true))
		case 0x1A0:
			vm.store(dt[2], val[2], u32(f32(val[0])+f32(val[1])))
		case 0x1A1:
			vm.store(dt[2], val[2], u32(f32(val[0])-f32(val[1])))
		case 0x1A2:
			vm.store(dt[2], val[2], u32(f32(val[0])*f32(val[1])))
		case 0x1A3:
			vm.store(dt[2], val[2], u32(f32(val[0])/f32(val[1])))
		case 0x1A4:
			a, b := f32(val[0]), f32(val[1])
			r := f2(math.Mod, a, b)
			q := u32((a - r) / b)
			if q == 0 || q == 0x80000000 {
				q = (val[0] ^ val[1]) & 0x80000000
			}
			vm.store(dt[2], val[2], u32(r))
			vm.store(dt[3], val[3], q)
		case 0x199:
			vm.store(dt[1], val[1], u32(float32(math.Floor(float64(f32(val[0]))))))
		case 0x198:
			v := u32(float32(math.Ceil(float64(f32(val[0])))))
			if v == 0 || v == 0x80000000 {
				v = val[0] & 0x80000000
			}
			vm.store(dt[1], val[1], v)
		case 0x1A8:
			vm.store(dt[1], val[1], u32(float32(math.Sqrt(float64(f32(val[0]))))))
		case 0x1A9:
			vm.store(dt[1], val[1], u32(expf(f32(val[0]))))
		case 0x1AA:
			vm.store(dt[1], val[1], u32(logf(f32(val[0]))))
		case 0x1AB:
			vm.store(dt[2], val[2], u32(powf(f32(val[0]), f32(val[1]))))
		case 0x1B0:
			vm.store(dt[1], val[1], u32(f1(math.Sin, f32(val[0]))))
		case 0x1B1:
			vm.store(dt[1], val[1], u32(f1(math.Cos, f32(val[0]))))
		case 0x1B2:
			vm.store(dt[1], val[1], u32(f1(math.Tan, f32(val[0]))))
		case 0x1B3:
			vm.store(dt[1], val[1], u32(float32(asinC(float64(f32(val[0]))))))
		case 0x1B4:
			vm.store(dt[1], val[1], u32(float32(acosC(float64(f32(val[0]))))))
		case 0x1B5:
			vm.store(dt[1], val[1], u32(f1(math.Atan, f32(val[0]))))
		case 0x1B6:
			vm.store(dt[2], val[2], u32(f2(math.Atan2, f32(val[0]), f32(val[1]))))
		case 0x1C9:
			if fIsInf(val[0]) {
				jump = val[1]
				goto perform
			}
		case 0x1C8:
			if fIsNaN(val[0]) {
				jump = val[1]
				goto perform
			}
		case 0x1C0, 0x1C1:
			var eq bool
			switch {
			case fIsNaN(val[2]):
				eq = false
			case fIsInf(val[0]) && fIsInf(val[1]):
				eq = val[0] == val[1]
			default:
				d := f32(val[1]) - f32(val[0])
				e := float32(math.Abs(float64(f32(val[2]))))
				eq = d <= e && d >= -e
			}
			if eq == (opcode == 0x1C0) {
				jump = val[3]
				goto perform
			}
		case 0x1C2:
			if f32(val[0]) < f32(val[1]) {
				jump = val[2]
				goto perform
			}
		case 0x1C4:
			if f32(val[0]) > f32(val[1]) {
				jump = val[2]
				goto perform
			}
		case 0x1C3:
			if f32(val[0]) <= f32(val[1]) {
				jump = val[2]
				goto perform
			}
		case 0x1C5:
			if f32(val[0]) >= f32(val[1]) {
				jump = val[2]
				goto perform
			}
		// Double precision: a double is (hi, lo) as operands; results
		// store lo first, then hi.
		case 0x200:
			hi, lo := u64(float64(int32(val[0])))
			vm.store(dt[1], val[1], lo)
			vm.store(dt[2], val[2], hi)
		case 0x201:
			vm.store(dt[2], val[2], ftonum(f64(val[0], val[1]), false))
		case 0x202:
			vm.store(dt[2], val[2], ftonum(f64(val[0], val[1]), true))
		case 0x203:
			hi, lo := u64(float64(f32(val[0])))
			vm.store(dt[1], val[1], lo)
			vm.store(dt[2], val[2], hi)
		case 0x204:
			vm.store(dt[2], val[2], u32(float32(f64(val[0], val[1]))))
		case 0x210, 0x211, 0x212, 0x213, 0x214, 0x215, 0x21B, 0x226:
			a, b := f64(val[0], val[1]), f64(val[2], val[3])
			var r float64
			switch opcode {
			case 0x210:
				r = a + b
			case 0x211:
				r = a - b
			case 0x212:
				r = a * b
			case 0x213:
				r = a / b
			case 0x214:
				r = cnan(math.Mod(a, b), a, b)
			case 0x215:
				r = (a - cnan(math.Mod(a, b), a, b)) / b
			case 0x21B:
				r = dpow(a, b)
			case 0x226:
				r = cnan(math.Atan2(a, b), a, b)
			}
			hi, lo := u64(r)
			if opcode == 0x215 && (hi == 0 || hi == 0x80000000) && lo == 0 {
				hi = (val[0] ^ val[2]) & 0x80000000
			}
			vm.store(dt[4], val[4], lo)
			vm.store(dt[5], val[5], hi)
		case 0x208, 0x209, 0x218, 0x219, 0x21A, 0x220, 0x221, 0x222, 0x223, 0x224, 0x225:
			a := f64(val[0], val[1])
			var r float64
			switch opcode {
			case 0x208:
				r = math.Ceil(a)
			case 0x209:
				r = math.Floor(a)
			case 0x218:
				r = math.Sqrt(a)
			case 0x219:
				r = dexp(a)
			case 0x21A:
				r = dlog(a)
			case 0x220:
				r = dsin(a)
			case 0x221:
				r = dcos(a)
			case 0x222:
				r = dtan(a)
			case 0x223:
				r = asinC(a)
			case 0x224:
				r = acosC(a)
			case 0x225:
				r = cnan(math.Atan(a), a)
			}
			hi, lo := u64(r)
			vm.store(dt[2], val[2], lo)
			vm.store(dt[3], val[3], hi)
		case 0x239:
			if dIsInf(val[0], val[1]) {
				jump = val[2]
				goto perform
			}
		case 0x238:
			if dIsNaN(val[0], val[1]) {
				jump = val[2]
				goto perform
			}
		case 0x230, 0x231:
			var eq bool
			switch {
			case dIsNaN(val[4], val[5]):
				eq = false
			case dIsInf(val[0], val[1]) && dIsInf(val[2], val[3]):
				eq = val[0] == val[2]
			default:
				d := f64(val[2], val[3]) - f64(val[0], val[1])
				e := math.Abs(f64(val[4], val[5]))
				eq = d <= e && d >= -e
			}
			if eq == (opcode == 0x230) {
				jump = val[6]
				goto perform
			}
		case 0x232, 0x233, 0x234, 0x235:
			a, b := f64(val[0], val[1]), f64(val[2], val[3])
			var c bool
			switch opcode {
			case 0x232:
				c = a < b
			case 0x233:
				c = a <= b
			case 0x234:
				c = a > b
			case 0x235:
				c = a >= b
			}
			if c {
				jump = val[4]
				goto perform
			}
		default:
			vm.fatalI("Executed unknown opcode.", opcode)
		}
		if vm.state != Running {
			return
		}
		continue
	perform:
		if jump == 0 || jump == 1 {
			vm.leaveFunction()
			if vm.stackptr == 0 {
				vm.state = Halted
				return
			}
			vm.popCallstub(jump)
		} else {
			vm.pc += jump - 2
		}
	}
}

// spend charges one unit of the instruction budget for work inside an
// instruction (a search step, a heap block, a character of a string), so
// that no instruction of a hostile story runs unbounded.
func (vm *VM) spend() {
	if vm.budget--; vm.budget < 0 {
		panic(fault{fmt.Errorf("%w (pc %#x)", ErrBudget, vm.prevpc)})
	}
}

func bitAddr(a, n uint32) (uint32, uint32) {
	s := int32(n)
	bit := n & 7
	if s >= 0 {
		a += uint32(s >> 3)
	} else {
		a -= 1 + uint32((-1-s)>>3)
	}
	return a, bit
}

func (vm *VM) stkroll(n, shift int32) {
	if n < 0 {
		vm.fatal("Negative operand in stkroll.")
	}
	if uint64(vm.stackptr) < uint64(vm.valstack)+uint64(n)*4 {
		vm.fatal("Stack underflow in stkroll.")
	}
	if n == 0 {
		return
	}
	var s int32
	if shift > 0 {
		s = n - shift%n
	} else {
		s = int32(uint32(-shift) % uint32(n))
	}
	if s == 0 {
		return
	}
	if uint64(vm.stackptr)+uint64(s)*4 > uint64(len(vm.stack)) {
		vm.fatal("Stack overflow in stkroll.")
	}
	a := vm.stackptr - uint32(n)*4
	for i := uint32(0); i < uint32(s); i++ {
		vm.sw4(vm.stackptr+i*4, vm.s4(a+i*4))
	}
	for i := uint32(0); i < uint32(n); i++ {
		vm.sw4(a+i*4, vm.s4(a+(uint32(s)+i)*4))
	}
}

func (vm *VM) verify() uint32 {
	img := vm.image
	n := uint32(len(img))
	if n < 256 || n&0xFF != 0 {
		return 1
	}
	var sum uint32
	for i := uint32(0); i < n/4; i++ {
		v := uint32(img[4*i])<<24 | uint32(img[4*i+1])<<16 | uint32(img[4*i+2])<<8 | uint32(img[4*i+3])
		if i == 3 && v != n {
			return 1
		}
		if i == 8 {
			continue
		}
		sum += v
	}
	if sum != vm.hdr.Checksum {
		return 1
	}
	return 0
}

func (vm *VM) gestalt(sel, arg uint32) uint32 {
	switch sel {
	case 0:
		return 0x00030103
	case 1:
		return 0x00000601
	case 2:
		return 1
	case 3:
		if vm.opts.UndoSlots > 0 {
			return 1
		}
		return 0
	case 4:
		if arg <= 2 {
			return 1
		}
		return 0
	case 5, 6, 7:
		return 1
	case 8:
		return vm.heap.start
	case 9:
		return 1
	case 10:
		if accelFuncs(arg) != nil {
			return 1
		}
		return 0
	case 11, 12, 13:
		return 1
	}
	return 0
}
