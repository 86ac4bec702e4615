package interp

// grue's change to yaegi v0.16.1 (see README.grue.md): a call of a func
// literal's value runs the literal, not reflect's wrapper of it.

import (
	"reflect"
	"runtime"
	"sync"
	"unsafe"
	"weak"
)

// litClosure is what getFunc made a func literal's value of: the
// literal, the clone of the frame it was made in, and the slot of that
// frame that each call restores when it returns (getFunc's o); and,
// weakly, the value's closure (impl), by which litOf knows the value it
// is given is this one and not a later one at a reused address.
type litClosure struct {
	n    *node
	fr   *frame
	f    *frame
	o    reflect.Value
	l, i int
	impl weak.Pointer[byte]
}

// restore does what getFunc's wrapper does when the literal returns.
func (lc *litClosure) restore() {
	lc.f.mutex.Lock()
	getFrame(lc.f, lc.l).data[lc.i] = lc.o
	lc.f.mutex.Unlock()
}

// lits maps the data word of a func literal's value (its reflect.MakeFunc
// closure, one per value made) to its litClosure, weakly: the value's
// closure keeps the litClosure (it calls restore), and an entry goes when
// its litClosure is collected. Upstream called every func literal's value
// through reflect.Value.Call and MakeFunc's wrapper, about three times the
// cost of calling a declared function; grue's REPL calls a method through
// such a value (redefinition).
var lits sync.Map // uintptr -> weak.Pointer[litClosure]

// funcWord is the data word of the func value v: its closure's address,
// which tells apart the values that reflect.MakeFunc makes (whose code
// pointer they all share).
func funcWord(v reflect.Value) unsafe.Pointer {
	e := v.Interface()
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&e))[1]
}

// noteLit records lc as what fct, a func literal's value, was made of.
func noteLit(fct reflect.Value, lc *litClosure) {
	p := funcWord(fct)
	if p == nil {
		return
	}
	lc.impl = weak.Make((*byte)(p))
	key := uintptr(p)
	wp := weak.Make(lc)
	lits.Store(key, wp)
	runtime.AddCleanup(lc, func(k uintptr) { lits.CompareAndDelete(k, wp) }, key)
}

// litOf returns what the func value v was made of, when it is a func
// literal's value that getFunc made; nil otherwise.
func litOf(v reflect.Value) *litClosure {
	if v.Kind() != reflect.Func || v.IsNil() {
		return nil
	}
	p := funcWord(v)
	wp, ok := lits.Load(uintptr(p))
	if !ok {
		return nil
	}
	lc := wp.(weak.Pointer[litClosure]).Value()
	if lc == nil || lc.impl.Value() != (*byte)(p) {
		return nil
	}
	return lc
}
