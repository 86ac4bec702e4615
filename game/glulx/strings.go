package glulx

// Output and strings, as glulxe's string.c: the three I/O systems (null,
// filter, Glk), printing numbers and the three string types (E0 C
// strings, E1 compressed, E2 Unicode), with filter-mode call stubs
// (0x10-0x14) that resume a string after the filter function returns.

const (
	iosysNull   = 0
	iosysFilter = 1
	iosysGlk    = 2
)

func (vm *VM) setIosys(mode, rock uint32) {
	switch mode {
	case iosysFilter:
	case iosysGlk:
		rock = 0
	default:
		mode, rock = 0, 0
	}
	vm.iosysMode, vm.iosysRock = mode, rock
}

func (vm *VM) setTable(addr uint32) {
	if vm.stringtable == addr {
		return
	}
	vm.stringtable = addr
	vm.strCache = nil
	if addr != 0 {
		// glulxe builds its cache (and so reads these words) at once.
		tablelen := vm.r4(addr)
		vm.r4(addr + 8)
		if uint64(addr)+uint64(tablelen) <= uint64(vm.ramstart) {
			vm.buildCache()
		}
	}
}

func (vm *VM) glkPut(c uint32) {
	if vm.glk == nil {
		return
	}
	if err := vm.glk.PutChar(byte(c)); err != nil {
		vm.fatal("glk put_char: %v", err)
	}
}

func (vm *VM) glkPutUni(c uint32) {
	if vm.glk == nil {
		return
	}
	if err := vm.glk.PutUniChar(c); err != nil {
		vm.fatal("glk put_char_uni: %v", err)
	}
}

func (vm *VM) callFilter(c uint32) {
	vm.pushCallstub(0, 0)
	vm.enterFunction(vm.iosysRock, []uint32{c})
}

func (vm *VM) streamChar(c uint32) {
	switch vm.iosysMode {
	case iosysGlk:
		vm.glkPut(c)
	case iosysFilter:
		vm.callFilter(c)
	}
}

func (vm *VM) streamUniChar(c uint32) {
	switch vm.iosysMode {
	case iosysGlk:
		vm.glkPutUni(c)
	case iosysFilter:
		vm.callFilter(c)
	}
}

func (vm *VM) streamNum(val int32, inmiddle bool, charnum uint32) {
	var buf [16]byte
	ix := uint32(0)
	if val == 0 {
		buf[0] = '0'
		ix = 1
	} else {
		iv := uint32(val)
		if val < 0 {
			iv = -iv
		}
		for iv != 0 {
			buf[ix] = byte(iv%10) + '0'
			ix++
			iv /= 10
		}
		if val < 0 {
			buf[ix] = '-'
			ix++
		}
	}
	switch vm.iosysMode {
	case iosysGlk:
		for i := int(ix) - int(charnum); i > 0; i-- {
			vm.glkPut(uint32(buf[i-1]))
		}
	case iosysFilter:
		if !inmiddle {
			vm.pushCallstub(0x11, 0)
			inmiddle = true
		}
		if charnum < ix {
			c := uint32(buf[ix-1-charnum])
			vm.pc = uint32(val)
			vm.pushCallstub(0x12, charnum+1)
			vm.enterFunction(vm.iosysRock, []uint32{c})
			return
		}
	}
	if inmiddle {
		if res, _ := vm.popCallstubString(); res != 0 {
			vm.fatal("String-on-string call stub while printing number.")
		}
	}
}

// streamString prints the string at addr; inmiddle is 0 for a new string,
// else the type of the string being resumed at addr (bit bitnum).
func (vm *VM) streamString(addr uint32, inmiddle uint32, bitnum uint32) {
	if addr == 0 {
		vm.fatal("Called stream_string with null address.")
	}
	substring := inmiddle != 0
	for {
		var typ uint32
		if inmiddle == 0 {
			typ = vm.r1(addr)
			if typ == 0xE2 {
				addr += 4
			} else {
				addr++
			}
			bitnum = 0
		} else {
			typ = inmiddle
		}
		restart := false
		switch {
		case typ == 0xE1:
			if vm.stringtable == 0 {
				vm.fatal("Attempted to print a compressed string with no table set.")
			}
			var done bool
			addr, bitnum, inmiddle, substring, done, restart = vm.decode(addr, bitnum, substring)
			if done {
				return // a filter or function call was entered
			}
		case typ == 0xE0:
			switch vm.iosysMode {
			case iosysGlk:
				for {
					c := vm.r1(addr)
					addr++
					if c == 0 {
						break
					}
					vm.glkPut(c)
					vm.spend()
				}
			case iosysFilter:
				if !substring {
					vm.pushCallstub(0x11, 0)
					substring = true
				}
				c := vm.r1(addr)
				addr++
				if c != 0 {
					vm.pc = addr
					vm.pushCallstub(0x13, 0)
					vm.enterFunction(vm.iosysRock, []uint32{c})
					return
				}
			}
		case typ == 0xE2:
			switch vm.iosysMode {
			case iosysGlk:
				for {
					c := vm.r4(addr)
					addr += 4
					if c == 0 {
						break
					}
					vm.glkPutUni(c)
					vm.spend()
				}
			case iosysFilter:
				if !substring {
					vm.pushCallstub(0x11, 0)
					substring = true
				}
				c := vm.r4(addr)
				addr += 4
				if c != 0 {
					vm.pc = addr
					vm.pushCallstub(0x14, 0)
					vm.enterFunction(vm.iosysRock, []uint32{c})
					return
				}
			}
		case typ >= 0xE0:
			vm.fatal("Attempt to print unknown type of string.")
		default:
			vm.fatal("Attempt to print non-string.")
		}
		if restart {
			continue
		}
		if !substring {
			return
		}
		a, b := vm.popCallstubString()
		if a == 0 {
			return
		}
		addr, bitnum, inmiddle = a, b, 0xE1
	}
}

// decode runs a compressed string from addr/bitnum. It returns the new
// position; done when a function (filter or embedded) was entered and
// printing must stop; restart when the outer loop must go on with a
// string of type inmiddle (0 for a new string at addr).
func (vm *VM) decode(addr, bitnum uint32, substring bool) (uint32, uint32, uint32, bool, bool, bool) {
	root := vm.r4(vm.stringtable + 8)
	node := root
	b := vm.r1(addr) >> bitnum
	for {
		vm.spend()
		nodetype := vm.r1(node)
		node++
		switch nodetype {
		case 0x00:
			if b&1 != 0 {
				node = vm.r4(node + 4)
			} else {
				node = vm.r4(node)
			}
			if bitnum == 7 {
				bitnum = 0
				addr++
				b = vm.r1(addr)
			} else {
				bitnum++
				b >>= 1
			}
		case 0x01:
			return addr, bitnum, 0, substring, false, false
		case 0x02, 0x04:
			var c uint32
			if nodetype == 0x02 {
				c = vm.r1(node)
			} else {
				c = vm.r4(node)
			}
			switch vm.iosysMode {
			case iosysGlk:
				if nodetype == 0x02 {
					vm.glkPut(c)
				} else {
					vm.glkPutUni(c)
				}
			case iosysFilter:
				if !substring {
					vm.pushCallstub(0x11, 0)
					substring = true
				}
				vm.pc = addr
				vm.pushCallstub(0x10, bitnum)
				vm.enterFunction(vm.iosysRock, []uint32{c})
				return addr, bitnum, 0, substring, true, false
			}
			node = root
		case 0x03, 0x05:
			switch vm.iosysMode {
			case iosysGlk:
				if nodetype == 0x03 {
					for ; ; node++ {
						c := vm.r1(node)
						if c == 0 {
							break
						}
						vm.glkPut(c)
					}
				} else {
					for ; ; node += 4 {
						c := vm.r4(node)
						if c == 0 {
							break
						}
						vm.glkPutUni(c)
					}
				}
				node = root
			case iosysFilter:
				if !substring {
					vm.pushCallstub(0x11, 0)
					substring = true
				}
				vm.pc = addr
				vm.pushCallstub(0x10, bitnum)
				typ := uint32(0xE0)
				if nodetype == 0x05 {
					typ = 0xE2
				}
				return node, 0, typ, substring, false, true
			default:
				node = root
			}
		case 0x08, 0x09, 0x0A, 0x0B:
			oaddr := vm.r4(node)
			if nodetype == 0x09 || nodetype == 0x0B {
				oaddr = vm.r4(oaddr)
			}
			otype := vm.r1(oaddr)
			if !substring {
				vm.pushCallstub(0x11, 0)
				substring = true
			}
			switch {
			case otype >= 0xE0:
				vm.pc = addr
				vm.pushCallstub(0x10, bitnum)
				return oaddr, 0, 0, substring, false, true
			case otype >= 0xC0:
				var args []uint32
				if nodetype == 0x0A || nodetype == 0x0B {
					args = vm.popArguments(vm.r4(node+4), node+8)
				}
				vm.pc = addr
				vm.pushCallstub(0x10, bitnum)
				vm.enterFunction(oaddr, args)
				return addr, bitnum, 0, substring, true, false
			default:
				vm.fatal("Unknown object while decoding string indirect reference.")
			}
		default:
			vm.fatal("Unknown entity in string decoding.")
		}
	}
}

// buildCache would precompute the decoding tree of a table in ROM; the
// walk above reads the same immutable nodes, so it gives the same output.
// The check glulxe's buildcache makes (recursion depth) is kept.
type strNode struct{}

func (vm *VM) buildCache() {
	visits := 0
	var walk func(node uint32, depth int)
	walk = func(node uint32, depth int) {
		if depth >= 48 {
			vm.fatal("Apparent infinite recursion in buildcache")
		}
		if visits++; visits > 1<<22 {
			vm.fatal("string decoding table too large")
		}
		if vm.r1(node) == 0 {
			walk(vm.r4(node+1), depth+1)
			walk(vm.r4(node+5), depth+1)
		}
	}
	walk(vm.r4(vm.stringtable+8), 0)
	vm.strCache = &strNode{}
}
