package zmachine

// The object table (Standard §12): a tree of objects, each with attributes
// and a property list.

import "fmt"

// objAddr returns the address of object o's entry.
func (m *Machine) objAddr(o uint16) uint32 {
	var a uint32
	if m.story.version <= 3 {
		a = m.story.objects + 31*2 + uint32(o-1)*9
	} else {
		a = m.story.objects + 63*2 + uint32(o-1)*14
	}
	if o == 0 || int(a)+14 > len(m.static) {
		fail("illegal object %d (the object table cannot hold it)", o)
	}
	return a
}

// link reads one of an object's tree links: 0 parent, 1 sibling, 2 child.
// Object 0 (nothing) has no links.
func (m *Machine) link(o uint16, which uint32) uint16 {
	if o == 0 {
		return 0
	}
	a := m.objAddr(o)
	if m.story.version <= 3 {
		return uint16(m.rb(a + 4 + which))
	}
	return m.rw(a + 6 + 2*which)
}

func (m *Machine) parent(o uint16) uint16  { return m.link(o, 0) }
func (m *Machine) sibling(o uint16) uint16 { return m.link(o, 1) }
func (m *Machine) child(o uint16) uint16   { return m.link(o, 2) }

// setLink sets one of an object's tree links: 0 parent, 1 sibling, 2 child.
func (m *Machine) setLink(o uint16, which int, v uint16) {
	a := m.objAddr(o)
	if m.story.version <= 3 {
		m.wb(a+4+uint32(which), byte(v))
		return
	}
	m.ww(a+6+2*uint32(which), v)
}

func (m *Machine) maxAttr() uint16 {
	if m.story.version <= 3 {
		return 31
	}
	return 47
}

func (m *Machine) testAttr(o, attr uint16) bool {
	if o == 0 || attr > m.maxAttr() {
		return false
	}
	return m.rb(m.objAddr(o)+uint32(attr/8))&(0x80>>(attr%8)) != 0
}

func (m *Machine) setAttr(o, attr uint16, on bool) {
	if o == 0 || attr > m.maxAttr() {
		return
	}
	a := m.objAddr(o) + uint32(attr/8)
	b := m.rb(a)
	if on {
		b |= 0x80 >> (attr % 8)
	} else {
		b &^= 0x80 >> (attr % 8)
	}
	m.wb(a, b)
}

// removeObj detaches o from its parent.
func (m *Machine) removeObj(o uint16) {
	if o == 0 {
		return
	}
	p := m.parent(o)
	if p == 0 {
		return
	}
	sib := m.sibling(o)
	if c := m.child(p); c == o {
		m.setLink(p, 2, sib)
	} else {
		for n := 0; c != 0; n++ {
			if n > 65535 {
				fail("object tree loop among the children of object %d", p)
			}
			m.left--
			next := m.sibling(c)
			if next == o {
				m.setLink(c, 1, sib)
				break
			}
			c = next
		}
	}
	m.setLink(o, 0, 0)
	m.setLink(o, 1, 0)
}

// insertObj makes o the first child of d.
func (m *Machine) insertObj(o, d uint16) {
	if o == 0 || d == 0 {
		return
	}
	m.removeObj(o)
	m.setLink(o, 0, d)
	m.setLink(o, 1, m.child(d))
	m.setLink(d, 2, o)
}

// propTable returns the address of o's property table.
func (m *Machine) propTable(o uint16) uint32 {
	a := m.objAddr(o)
	if m.story.version <= 3 {
		return uint32(m.rw(a + 7))
	}
	return uint32(m.rw(a + 12))
}

// firstProp returns the address of the size byte of o's first property.
func (m *Machine) firstProp(o uint16) uint32 {
	t := m.propTable(o)
	return t + 1 + 2*uint32(m.rb(t))
}

// propInfo reads the size byte(s) at a: the property number, the data
// length and the address of the data.
func (m *Machine) propInfo(a uint32) (num uint16, length uint32, data uint32) {
	b := m.rb(a)
	if m.story.version <= 3 {
		return uint16(b & 0x1f), uint32(b>>5) + 1, a + 1
	}
	if b&0x80 != 0 {
		l := uint32(m.rb(a+1) & 0x3f)
		if l == 0 {
			l = 64
		}
		return uint16(b & 0x3f), l, a + 2
	}
	if b&0x40 != 0 {
		return uint16(b & 0x3f), 2, a + 1
	}
	return uint16(b & 0x3f), 1, a + 1
}

// findProp returns the data address and length of property p of o, or 0.
// A property list is in descending order of property number (Standard
// §12.4), so the search stops at the first number not above p, as
// Frotz's does: an object without p costs part of its list, not all.
func (m *Machine) findProp(o, p uint16) (uint32, uint32) {
	if o == 0 {
		return 0, 0
	}
	a := m.firstProp(o)
	n := 0
	if m.story.version >= 4 {
		// propInfo written out for a list in dynamic memory, where
		// property lists are in practice.
		d := m.dyn
		for ; n < 256 && a+1 < uint32(len(d)); n++ {
			b := d[a]
			num, l, data := uint16(b&0x3f), uint32(1), a+1
			if b&0x80 != 0 {
				if l, data = uint32(d[a+1]&0x3f), a+2; l == 0 {
					l = 64
				}
			} else if b&0x40 != 0 {
				l = 2
			}
			if num <= p {
				if num == p && num != 0 {
					return data, l
				}
				return 0, 0
			}
			a = data + l
		}
	}
	for ; n < 256; n++ {
		num, l, data := m.propInfo(a)
		if num <= p {
			if num == p && num != 0 {
				return data, l
			}
			return 0, 0
		}
		a = data + l
	}
	fail("property list of object %d does not end", o)
	return 0, 0
}

func (m *Machine) getProp(o, p uint16) uint16 {
	data, l := m.findProp(o, p)
	if data == 0 {
		if p == 0 || p > 63 || (m.story.version <= 3 && p > 31) {
			fail("get_prop: no default for property %d", p)
		}
		return m.rw(m.story.objects + 2*uint32(p-1))
	}
	if l == 1 {
		return uint16(m.rb(data))
	}
	return m.rw(data)
}

func (m *Machine) putProp(o, p, v uint16) {
	data, l := m.findProp(o, p)
	if data == 0 {
		fail("put_prop: object %d has no property %d", o, p)
	}
	if l == 1 {
		m.wb(data, byte(v))
		return
	}
	m.ww(data, v)
}

// propLen returns the data length of the property whose data is at a.
func (m *Machine) propLen(a uint32) uint16 {
	if a == 0 {
		return 0
	}
	b := m.rb(a - 1)
	if m.story.version <= 3 {
		return uint16(b>>5) + 1
	}
	if b&0x80 != 0 {
		l := uint16(b & 0x3f)
		if l == 0 {
			l = 64
		}
		return l
	}
	if b&0x40 != 0 {
		return 2
	}
	return 1
}

func (m *Machine) nextProp(o, p uint16) uint16 {
	if o == 0 {
		return 0
	}
	a := m.firstProp(o)
	if p == 0 {
		num, _, _ := m.propInfo(a)
		return num
	}
	for n := 0; n < 256; n++ {
		num, l, data := m.propInfo(a)
		if num == 0 {
			break
		}
		if num == p {
			next, _, _ := m.propInfo(data + l)
			return next
		}
		a = data + l
	}
	fail("get_next_prop: object %d has no property %d", o, p)
	return 0
}

// printObj prints the short name of o. An object whose name is empty (no
// text at all, or the encoded empty string 0x94a5) prints as "object#N", as
// Frotz prints it.
func (m *Machine) printObj(o uint16) {
	if o == 0 {
		return
	}
	t := m.propTable(o)
	if m.rb(t) == 0 || m.rw(t+1) == 0x94a5 {
		m.out.text(fmt.Sprintf("object#%d", int16(o)))
		return
	}
	m.printZString(t + 1)
}

// Object returns the tree links of object o (1-based) and whether o is a
// valid object number for this story's table as far as it can be checked.
func (m *Machine) Object(o uint16) (parent, sibling, child uint16) {
	defer func() { recover() }()
	return m.parent(o), m.sibling(o), m.child(o)
}

// Attribute reports whether object o has attribute a.
func (m *Machine) Attribute(o, a uint16) (set bool) {
	defer func() { recover() }()
	return m.testAttr(o, a)
}

// ObjectName returns the short name of object o.
func (m *Machine) ObjectName(o uint16) (name string) {
	defer func() { recover() }()
	return m.capture(func() { m.printObj(o) })
}
