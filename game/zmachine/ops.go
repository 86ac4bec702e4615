package zmachine

// dispatch executes the opcode numbered as exec numbers them, its operands
// already in m.ops. Opcodes a version does not have are illegal there.
func (m *Machine) dispatch(in *insn) {
	code := int(in.code)
	v := m.story.version
	o := &m.ops
	switch code {
	// ---- 2OP ----
	case 0x01: // je a b c d ?
		m.needOps(2, "je")
		eq := false
		for i := 1; i < m.nops; i++ {
			if o[0] == o[i] {
				eq = true
			}
		}
		m.br(in, eq)
	case 0x02: // jl
		m.br(in, int16(o[0]) < int16(o[1]))
	case 0x03: // jg
		m.br(in, int16(o[0]) > int16(o[1]))
	case 0x04: // dec_chk (variable) value ?
		x := m.addVar(byte(o[0]), 0xffff)
		m.br(in, int16(x) < int16(o[1]))
	case 0x05: // inc_chk
		x := m.addVar(byte(o[0]), 1)
		m.br(in, int16(x) > int16(o[1]))
	case 0x06: // jin obj1 obj2 ?
		m.br(in, m.parent(o[0]) == o[1])
	case 0x07: // test bitmap flags ?
		m.br(in, o[0]&o[1] == o[1])
	case 0x08: // or
		m.st(in, o[0]|o[1])
	case 0x09: // and
		m.st(in, o[0]&o[1])
	case 0x0a: // test_attr
		m.br(in, m.testAttr(o[0], o[1]))
	case 0x0b: // set_attr
		m.setAttr(o[0], o[1], true)
	case 0x0c: // clear_attr
		m.setAttr(o[0], o[1], false)
	case 0x0d: // store (variable) value
		m.pokeVar(byte(o[0]), o[1])
	case 0x0e: // insert_obj
		m.insertObj(o[0], o[1])
	case 0x0f: // loadw array index
		m.st(in, m.rw(uint32(o[0]+2*o[1])))
	case 0x10: // loadb
		m.st(in, uint16(m.rb(uint32(o[0]+o[1]))))
	case 0x11: // get_prop
		m.st(in, m.getProp(o[0], o[1]))
	case 0x12: // get_prop_addr
		a, _ := m.findProp(o[0], o[1])
		m.st(in, uint16(a))
	case 0x13: // get_next_prop
		m.st(in, m.nextProp(o[0], o[1]))
	case 0x14: // add
		m.st(in, o[0]+o[1])
	case 0x15: // sub
		m.st(in, o[0]-o[1])
	case 0x16: // mul
		m.st(in, uint16(int16(o[0])*int16(o[1])))
	case 0x17: // div
		if o[1] == 0 {
			fail("division by zero")
		}
		m.st(in, uint16(int16(o[0])/int16(o[1])))
	case 0x18: // mod
		if o[1] == 0 {
			fail("division by zero (remainder)")
		}
		m.st(in, uint16(int16(o[0])%int16(o[1])))
	case 0x19: // call_2s
		m.needVersion(4, "call_2s")
		m.callStore(in)
	case 0x1a: // call_2n
		m.needVersion(5, "call_2n")
		m.callDiscard(in)
	case 0x1b: // set_colour
		m.needVersion(5, "set_colour")
	case 0x1c: // throw value frame
		m.needVersion(5, "throw")
		fp := int(o[1])
		if fp < 1 || fp > len(m.frames) {
			fail("throw to frame %d, which does not exist (depth %d)", fp, len(m.frames))
		}
		m.frames = m.frames[:fp]
		m.syncFrame()
		m.ret(o[0])

	// ---- 1OP ----
	case op1 + 0x0: // jz
		m.br(in, o[0] == 0)
	case op1 + 0x1: // get_sibling -> ?
		s := m.sibling(o[0])
		m.st(in, s)
		m.br(in, s != 0)
	case op1 + 0x2: // get_child -> ?
		c := m.child(o[0])
		m.st(in, c)
		m.br(in, c != 0)
	case op1 + 0x3: // get_parent
		m.st(in, m.parent(o[0]))
	case op1 + 0x4: // get_prop_len
		m.st(in, m.propLen(uint32(o[0])))
	case op1 + 0x5: // inc
		m.addVar(byte(o[0]), 1)
	case op1 + 0x6: // dec
		m.addVar(byte(o[0]), 0xffff)
	case op1 + 0x7: // print_addr
		m.printZString(uint32(o[0]))
	case op1 + 0x8: // call_1s
		m.needVersion(4, "call_1s")
		m.callStore(in)
	case op1 + 0x9: // remove_obj
		m.removeObj(o[0])
	case op1 + 0xa: // print_obj
		m.printObj(o[0])
	case op1 + 0xb: // ret
		m.ret(o[0])
	case op1 + 0xc: // jump
		m.pc = uint32(int32(m.pc) + int32(int16(o[0])) - 2)
	case op1 + 0xd: // print_paddr
		m.printZString(m.story.unpackString(o[0]))
	case op1 + 0xe: // load (variable) ->
		m.st(in, m.peekVar(byte(o[0])))
	case op1 + 0xf: // not (v1-4) / call_1n (v5+)
		if v <= 4 {
			m.st(in, ^o[0])
		} else {
			m.callDiscard(in)
		}

	// ---- 0OP ----
	case op0 + 0x0: // rtrue
		m.ret(1)
	case op0 + 0x1: // rfalse
		m.ret(0)
	case op0 + 0x2: // print
		m.pc = m.printZString(m.pc)
	case op0 + 0x3: // print_ret
		m.pc = m.printZString(m.pc)
		m.out.zscii(13)
		m.ret(1)
	case op0 + 0x4: // nop
	case op0 + 0x5: // save (v1-4)
		if v >= 5 {
			m.illegal(code)
		}
		m.askFile(fileSave, 0, 0)
	case op0 + 0x6: // restore (v1-4)
		if v >= 5 {
			m.illegal(code)
		}
		m.askFile(fileRestore, 0, 0)
	case op0 + 0x7: // restart
		m.restart()
	case op0 + 0x8: // ret_popped
		m.ret(m.pop())
	case op0 + 0x9: // pop (v1-4) / catch (v5+)
		if v <= 4 {
			m.pop()
		} else {
			m.st(in, uint16(len(m.frames)))
		}
	case op0 + 0xa: // quit
		m.state = Halted
	case op0 + 0xb: // new_line
		m.out.zscii(13)
	case op0 + 0xc: // show_status: the status line is read on demand
	case op0 + 0xd: // verify
		m.br(in, m.story.Verify())
	case op0 + 0xf: // piracy
		m.needVersion(5, "piracy")
		m.br(in, true)

	// ---- VAR ----
	case opV + 0x00: // call / call_vs
		m.callStore(in)
	case opV + 0x01: // storew array index value
		m.needOps(3, "storew")
		m.ww(uint32(o[0]+2*o[1]), o[2])
	case opV + 0x02: // storeb
		m.needOps(3, "storeb")
		m.wb(uint32(o[0]+o[1]), byte(o[2]))
	case opV + 0x03: // put_prop
		m.needOps(3, "put_prop")
		m.putProp(o[0], o[1], o[2])
	case opV + 0x04: // sread / aread
		m.needOps(1, "read")
		m.beginRead()
	case opV + 0x05: // print_char
		m.out.zscii(o[0])
	case opV + 0x06: // print_num
		m.printNum(int16(o[0]))
	case opV + 0x07: // random
		r := int16(o[0])
		if r <= 0 {
			m.rng.reseed(-int64(r))
			m.st(in, 0)
		} else {
			m.st(in, m.rng.draw(int64(r)))
		}
	case opV + 0x08: // push
		m.push(o[0])
	case opV + 0x09: // pull (variable)
		x := m.pop()
		m.pokeVar(byte(o[0]), x)
	case opV + 0x0a: // split_window
		m.out.splitWindow(int(o[0]))
	case opV + 0x0b: // set_window
		m.out.setWindow(int(o[0]))
	case opV + 0x0c: // call_vs2
		m.needVersion(4, "call_vs2")
		m.callStore(in)
	case opV + 0x0d: // erase_window
		m.needVersion(4, "erase_window")
		m.out.eraseWindow(int16(o[0]))
	case opV + 0x0e: // erase_line
		m.needVersion(4, "erase_line")
		if o[0] == 1 {
			m.out.eraseLine()
		}
	case opV + 0x0f: // set_cursor
		m.needVersion(4, "set_cursor")
		m.out.setCursor(int(int16(o[0])), int(int16(o[1])))
	case opV + 0x10: // get_cursor array
		m.needVersion(4, "get_cursor")
		row, col := m.out.cursor()
		m.ww(uint32(o[0]), uint16(row))
		m.ww(uint32(o[0])+2, uint16(col))
	case opV + 0x11: // set_text_style
		m.needVersion(4, "set_text_style")
		m.out.setStyle(o[0])
	case opV + 0x12: // buffer_mode
		m.needVersion(4, "buffer_mode")
	case opV + 0x13: // output_stream number table
		n := int16(o[0])
		var table uint32
		if n == 3 {
			m.needOps(2, "output_stream 3")
			table = uint32(o[1])
		}
		m.out.selectStream(n, table)
	case opV + 0x14: // input_stream: only the keyboard
	case opV + 0x15: // sound_effect: no sound
	case opV + 0x16: // read_char
		m.needVersion(4, "read_char")
		m.state = WaitKey
		m.in = inputRequest{kind: WaitKey}
	case opV + 0x17: // scan_table x table len form -> ?
		m.needVersion(4, "scan_table")
		m.needOps(3, "scan_table")
		form := uint16(0x82)
		if m.nops > 3 {
			form = o[3]
		}
		a := m.scanTable(o[0], uint32(o[1]), o[2], form)
		m.st(in, uint16(a))
		m.br(in, a != 0)
	case opV + 0x18: // not
		m.needVersion(5, "not")
		m.st(in, ^o[0])
	case opV + 0x19, opV + 0x1a: // call_vn, call_vn2
		m.needVersion(5, "call_vn")
		m.callDiscard(in)
	case opV + 0x1b: // tokenise text parse dictionary flag
		m.needVersion(5, "tokenise")
		m.needOps(2, "tokenise")
		var dict uint32
		var flag bool
		if m.nops > 2 {
			dict = uint32(o[2])
		}
		if m.nops > 3 {
			flag = o[3] != 0
		}
		m.tokenise(uint32(o[0]), uint32(o[1]), dict, flag)
	case opV + 0x1c: // encode_text zscii length from coded
		m.needVersion(5, "encode_text")
		m.needOps(4, "encode_text")
		m.encodeText(uint32(o[0]), int(o[1]), uint32(o[2]), uint32(o[3]))
	case opV + 0x1d: // copy_table first second size
		m.needVersion(5, "copy_table")
		m.needOps(3, "copy_table")
		m.copyTable(uint32(o[0]), uint32(o[1]), int16(o[2]))
	case opV + 0x1e: // print_table text width height skip
		m.needVersion(5, "print_table")
		m.needOps(2, "print_table")
		h, skip := uint16(1), uint16(0)
		if m.nops > 2 {
			h = o[2]
		}
		if m.nops > 3 {
			skip = o[3]
		}
		m.printTable(uint32(o[0]), o[1], h, skip)
	case opV + 0x1f: // check_arg_count n ?
		m.needVersion(5, "check_arg_count")
		m.br(in, uint16(m.fp.argc) >= o[0])

	// ---- EXT ----
	case opEX + 0x00: // save table bytes name -> (result)
		if m.nops >= 2 {
			m.askFile(fileSaveAux, uint32(o[0]), o[1])
		} else {
			m.askFile(fileSave, 0, 0)
		}
	case opEX + 0x01: // restore table bytes name -> (result)
		if m.nops >= 2 {
			m.askFile(fileRestoreAux, uint32(o[0]), o[1])
		} else {
			m.askFile(fileRestore, 0, 0)
		}
	case opEX + 0x02: // log_shift number places
		p := int16(o[1])
		switch {
		case p >= 16 || p <= -16:
			m.st(in, 0)
		case p >= 0:
			m.st(in, o[0]<<uint(p))
		default:
			m.st(in, o[0]>>uint(-p))
		}
	case opEX + 0x03: // art_shift
		p := int16(o[1])
		switch {
		case p >= 16:
			m.st(in, 0)
		case p >= 0:
			m.st(in, o[0]<<uint(p))
		case p <= -16:
			m.st(in, uint16(int16(o[0])>>15))
		default:
			m.st(in, uint16(int16(o[0])>>uint(-p)))
		}
	case opEX + 0x04: // set_font
		m.st(in, m.out.setFont(o[0]))
	case opEX + 0x09: // save_undo
		m.saveUndo()
	case opEX + 0x0a: // restore_undo
		m.restoreUndo()
	case opEX + 0x0b: // print_unicode
		m.out.unicode(rune(o[0]))
	case opEX + 0x0c: // check_unicode
		m.st(in, m.checkUnicode(rune(o[0])))
	case opEX + 0x0d: // set_true_colour
	default:
		m.illegal(code)
	}
}

func (m *Machine) needVersion(v int, name string) {
	if m.story.version < v {
		fail("%s is not an opcode of version %d", name, m.story.version)
	}
}

func (m *Machine) illegal(code int) {
	switch {
	case code >= opEX:
		fail("illegal opcode EXT:%d", code-opEX)
	case code >= opV:
		fail("illegal opcode VAR:%d", code-opV)
	case code >= op0:
		fail("illegal opcode 0OP:%d", code-op0)
	case code >= op1:
		fail("illegal opcode 1OP:%d", code-op1)
	default:
		fail("illegal opcode 2OP:%d", code)
	}
}

func (m *Machine) printNum(n int16) {
	var buf [8]byte
	i := len(buf)
	x := int32(n)
	neg := x < 0
	if neg {
		x = -x
	}
	for {
		i--
		buf[i] = byte('0' + x%10)
		x /= 10
		if x == 0 {
			break
		}
	}
	if neg {
		i--
		buf[i] = '-'
	}
	for _, c := range buf[i:] {
		m.out.zscii(uint16(c))
	}
}

func (m *Machine) scanTable(x uint16, table uint32, n uint16, form uint16) uint32 {
	m.charge(int(n))
	size := uint32(form & 0x7f)
	if size == 0 {
		fail("scan_table with a field length of 0")
	}
	for i := uint16(0); i < n; i++ {
		if form&0x80 != 0 {
			if m.rw(table) == x {
				return table
			}
		} else if uint16(m.rb(table)) == x {
			return table
		}
		table += size
	}
	return 0
}

func (m *Machine) copyTable(first, second uint32, size int16) {
	if size < 0 {
		m.charge(-int(size))
	} else {
		m.charge(int(size))
	}
	if second == 0 {
		n := int(size)
		if n < 0 {
			n = -n
		}
		for i := 0; i < n; i++ {
			m.wb(first+uint32(i), 0)
		}
		return
	}
	if size < 0 {
		for i := 0; i < int(-size); i++ {
			m.wb(second+uint32(i), m.rb(first+uint32(i)))
		}
		return
	}
	n := uint32(size)
	if first < second && second < first+n {
		for i := n; i > 0; i-- {
			m.wb(second+i-1, m.rb(first+i-1))
		}
		return
	}
	for i := uint32(0); i < n; i++ {
		m.wb(second+i, m.rb(first+i))
	}
}

func (m *Machine) printTable(text uint32, width, height, skip uint16) {
	m.charge(int(width) * int(height))
	row, col := m.out.row, m.out.col
	for r := uint16(0); r < height; r++ {
		if r > 0 {
			if m.out.window == 1 {
				m.out.row, m.out.col = row+int(r), col
			} else {
				m.out.zscii(13)
			}
		}
		for c := uint16(0); c < width; c++ {
			m.out.zscii(uint16(m.rb(text)))
			text++
		}
		text += uint32(skip)
	}
}

// checkUnicode implements check_unicode as Frotz answers it: bit 0 "can
// print", bit 1 "can read". Printable ASCII can be both; delete, escape
// and Return can be typed; everything else above ASCII is printed (as
// UTF-8) but not accepted as a key.
func (m *Machine) checkUnicode(r rune) uint16 {
	switch {
	case r == 8 || r == 13 || r == 27:
		return 2
	case r < 0x20:
		return 0
	case r <= 0x7e:
		return 3
	}
	return 1
}

func (m *Machine) restart() {
	if m.out.dfrotz {
		m.out.lower = m.out.lower[:0]
		m.out.keyRow = m.out.keyRow[:0]
	}
	m.reset()
	m.rng.init(m.rng.seed)
	m.state = running
}
