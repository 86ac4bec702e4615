package interp

// grue's change to yaegi v0.16.1 (see README.grue.md): range over an
// integer (Go 1.22), of any integer type.

import "reflect"

// rangeIntType returns the type of the iteration variable of a range
// over o, when o is an integer: int for an untyped constant (range 10),
// o's own type otherwise (range int64(3), range n of type Count uint8).
// It returns nil when o is not an integer. Upstream's yaegi predates
// range over integers.
func rangeIntType(sc *scope, o *node) *itype {
	if o.typ == nil {
		return nil
	}
	if !isInt(o.typ.TypeOf()) {
		return nil
	}
	if o.typ.untyped {
		return sc.getType("int")
	}
	return o.typ
}

// rangeInt is the range over an integer n: the key (child 0) takes 0 to
// n-1, in the frame's slot of the key, with the bound and a count of its
// own in the two slots before it, so that the body's assignments to the
// key do not change the iterations, as in Go.
func rangeInt(n *node) {
	index0 := n.child[0].findex // the key
	count := index0 - 1
	bound := index0 - 2
	fnext := getExec(n.fnext)
	tnext := getExec(n.tnext)
	o := n.child[1]
	t := n.child[0].typ.TypeOf()
	if t == nil {
		t = o.typ.TypeOf()
	}
	value := genValueAs(o, t)
	blank := n.child[0].ident == "_"

	if isUint(t) {
		n.exec = func(f *frame) bltn {
			c := f.data[count]
			i := c.Uint()
			if i >= f.data[bound].Uint() {
				return fnext
			}
			c.SetUint(i + 1)
			if !blank {
				f.data[index0].SetUint(i)
			}
			return tnext
		}
	} else {
		n.exec = func(f *frame) bltn {
			c := f.data[count]
			i := c.Int()
			if i >= f.data[bound].Int() {
				return fnext
			}
			c.SetInt(i + 1)
			if !blank {
				f.data[index0].SetInt(i)
			}
			return tnext
		}
	}

	next := n.exec
	n.child[0].exec = func(f *frame) bltn {
		f.data[bound] = reflect.New(t).Elem()
		f.data[bound].Set(value(f))
		f.data[count] = reflect.New(t).Elem()
		return next
	}
}
