package interp

// grue's change to yaegi v0.16.1 (see README.grue.md): panics, in a
// goroutine a program started and inside interpreted functions.

import (
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"unsafe"
)

// goRun runs run, the body of a go statement, recovering a panic that
// would end it: upstream's goroutines let it through, and a panic in a
// goroutine that interpreted code started ended the whole process (a REPL
// session with it), where the interpreter's caller can only report it.
// The panic goes to Options.GoPanic, or, without one, to the
// interpreter's stderr as Go prints it, and the goroutine ends.
// runtime.Goexit still ends the goroutine as it does.
func (interp *Interpreter) goRun(run func()) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		var pc [64]uintptr
		n := runtime.Callers(1, pc[:])
		p := Panic{Value: r, Callers: pc[:n], Stack: debug.Stack()}
		if h := interp.opt.goPanic; h != nil {
			h(p)
			return
		}
		interp.stderrMu.Lock()
		defer interp.stderrMu.Unlock()
		fmt.Fprintf(interp.stderr, "panic: %s [in a goroutine, recovered by the interpreter]\n", panicText(r))
	}()
	run()
}

// panicText is the text Go prints after "panic: " for the value r.
func panicText(r interface{}) string {
	switch v := r.(type) {
	case error:
		return v.Error()
	case fmt.Stringer:
		return v.String()
	case string:
		return v
	}
	return fmt.Sprintf("%v", r)
}

// execID identifies a closure: the address of its funcval, which differs
// for every closure made, where reflect's Pointer gives the code's
// address, which every closure of one function literal shares.
func execID(e bltn) uintptr {
	if e == nil {
		return 0
	}
	return uintptr(*(*unsafe.Pointer)(unsafe.Pointer(&e)))
}

// panicNode returns the node whose exec was running in runCfg when a
// panic came through it: the node that has exec itself, or, failing
// that, upstream's guess by the code's address (originalExecNode). Upstream's
// runCfg did not keep the exec it was running (the loop's variable
// shadowed it), so the traceback named every panic at the first line of
// its function; and the code's address matches the first node of the
// same kind in the function, not the one that panicked.
func panicNode(n *node, exec bltn) *node {
	if exec == nil {
		return nil
	}
	id := execID(exec)
	var found *node
	for root := n; root != nil && found == nil; root = root.anc {
		if root.anc != nil && root.kind != funcDecl && root.kind != funcLit {
			continue
		}
		root.Walk(func(wn *node) bool {
			if found != nil {
				return false
			}
			if wn.exec != nil && execID(wn.exec) == id {
				found = wn
				return false
			}
			return true
		}, nil)
	}
	if found != nil {
		return found
	}
	return originalExecNode(n, exec)
}

// runtimeIndexError returns the run-time error Go's own code panics with
// for index i of a value of length n, so that an index out of range in
// interpreted code says what compiled code says ("runtime error: index
// out of range [3] with length 0"), where reflect's panic says
// "reflect: slice index out of range".
func runtimeIndexError(i, n int) (err interface{}) {
	defer func() { err = recover() }()
	s := make([]struct{}, n)
	_ = s[i]
	return nil
}

// goRuntimeError turns the panic r, raised by reflect at node at, into
// the run-time error that compiled Go raises there, when it is one: an
// index out of range of a slice, an array or a string. Other panics are
// r unchanged.
func goRuntimeError(r interface{}, at *node, f *frame) interface{} {
	msg, ok := r.(string)
	if ok && at != nil && f != nil && at.kind == sliceExpr {
		return sliceError(r, msg, at, f)
	}
	if !ok || at == nil || f == nil || at.kind != indexExpr || len(at.child) != 2 {
		return r
	}
	switch msg {
	case "reflect: slice index out of range", "reflect: array index out of range", "reflect: string index out of range":
	default:
		return r
	}
	out := r
	func() {
		defer func() {
			if recover() != nil {
				out = r
			}
		}()
		x := genValue(at.child[0])(f)
		for x.Kind() == reflect.Ptr || x.Kind() == reflect.Interface {
			x = x.Elem()
		}
		i := genValue(at.child[1])(f)
		var idx int
		switch {
		case i.CanInt():
			idx = int(i.Int())
		case i.CanUint():
			idx = int(i.Uint())
		default:
			return
		}
		if e := runtimeIndexError(idx, x.Len()); e != nil {
			out = e
		}
	}()
	return out
}

// reflectPanicAt reports whether a panic raised at node at may be one
// of reflect's that goRuntimeError rewords, which runCfg then recovers
// to reword (in the frame it was raised in, the first it reaches).
func reflectPanicAt(at *node) bool {
	return at != nil && (at.kind == indexExpr || at.kind == sliceExpr)
}

// sliceError is goRuntimeError for a slice expression at: reflect's
// "reflect.Value.Slice: slice index out of bounds" becomes Go's
// "runtime error: slice bounds out of range [:5] with capacity 3", made
// by slicing a value of the same length and capacity in compiled code.
func sliceError(r interface{}, msg string, at *node, f *frame) (out interface{}) {
	if !strings.HasPrefix(msg, "reflect.Value.Slice") || !strings.HasSuffix(msg, "out of bounds") || len(at.child) < 1 {
		return r
	}
	defer func() {
		if recover() != nil {
			out = r
		}
	}()
	x := genValue(at.child[0])(f)
	for x.Kind() == reflect.Ptr || x.Kind() == reflect.Interface {
		x = x.Elem()
	}
	bounds := make([]int, 0, 3)
	for _, c := range at.child[1:] {
		v := genValue(c)(f)
		switch {
		case v.CanInt():
			bounds = append(bounds, int(v.Int()))
		case v.CanUint():
			bounds = append(bounds, int(v.Uint()))
		default:
			return r
		}
	}
	// low, high and max as written: a slice0 has no low.
	low, high, maxi := 0, x.Len(), -1
	switch {
	case at.action == aSlice0 && len(bounds) == 1:
		high = bounds[0]
	case at.action == aSlice0 && len(bounds) == 2:
		high, maxi = bounds[0], bounds[1]
	case at.action == aSlice && len(bounds) == 1:
		low = bounds[0]
	case at.action == aSlice && len(bounds) == 2:
		low, high = bounds[0], bounds[1]
	case at.action == aSlice && len(bounds) == 3:
		low, high, maxi = bounds[0], bounds[1], bounds[2]
	default:
		return r
	}
	if e := runtimeSliceError(x, low, high, maxi); e != nil {
		return e
	}
	return r
}

// runtimeSliceError returns the run-time error of x[low:high] (or
// x[low:high:max], maxi >= 0) in compiled Go, for x's length and capacity.
func runtimeSliceError(x reflect.Value, low, high, maxi int) (err interface{}) {
	defer func() { err = recover() }()
	if x.Kind() == reflect.String || x.Kind() == reflect.Array && maxi < 0 {
		// Go words both by the length ("[:5] with length 2").
		s := strings.Repeat(" ", x.Len())
		_ = s[low:high]
		return nil
	}
	capacity := x.Len()
	if x.Kind() == reflect.Slice {
		capacity = x.Cap()
	}
	s := make([]struct{}, x.Len(), capacity)
	if maxi >= 0 {
		_ = s[low:high:maxi]
	} else {
		_ = s[low:high]
	}
	return nil
}
