package interp

// grue's change to yaegi v0.16.1 (see README.grue.md): control flow that
// upstream got wrong in ordinary Go: a break out of a select inside a
// loop, and the arguments of deferred calls and go statements.

import "reflect"

// exitClause makes the select statement sel what follows last, the last
// statement of one of its clauses, unless last is a branch (break,
// continue, goto, return), which goes where it says. Upstream made every
// clause's last statement go to sel, so break L (L a loop around the
// select), continue and goto at the end of a clause only left the
// select: for { select { case <-done: break loop } } never ended. And
// upstream's break inside a clause's if went to the loop around the
// select, where Go leaves only the select: the select is now the target
// of an unlabeled break in its clauses (cfg.go, sc.loop).
func exitClause(last, sel *node) {
	switch last.kind {
	case breakStmt, continueStmt, gotoStmt, returnStmt:
		return
	}
	last.tnext = sel
}

// heldArg returns v as a deferred call or a go statement keeps its
// argument: a copy when v is a variable of the frame (addressable), which
// the function goes on changing. Go evaluates those arguments at the
// defer or go statement; upstream kept the variable itself, so x := 1;
// defer fmt.Println(x); x = 2 printed 2, a defer in a loop saw the last
// iteration's values, and go f(i) of a compiled f read i as the loop
// changed it (a data race).
func heldArg(v reflect.Value) reflect.Value {
	if !v.IsValid() || !v.CanAddr() {
		return v
	}
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}

// originFrame is the frame that f is a clone of (a func literal's
// closure runs in a clone of the frame it was made in), or f itself:
// recover reads the panic from it. A func literal deferred in a loop
// (defer func() { use(i) }()) ran on the live frame, so it saw the last
// iteration's variables; it now runs as the closure made at the defer
// statement, and recover in it still finds the panic of the function
// that deferred it.
func (f *frame) originFrame() *frame {
	if f.origin != nil {
		return f.origin
	}
	return f
}
