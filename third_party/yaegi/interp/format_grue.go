package interp

// grue's change to yaegi v0.16.1 (see README.grue.md): fmt's verbs on the
// wrappers of interpreted values.
//
// To print an interpreted value by its String or Error method, yaegi
// hands fmt a wrapper (fmt's _Stringer, interp's _error) whose method
// calls the interpreted one. fmt calls String and Error only for %v, %s,
// %q, %x and %X; for any other verb it printed the wrapper's own fields:
// fmt.Printf("%d", North), North of an iota type with a String method,
// printed {0 5358240} where Go prints 0. The wrappers here have a Format
// method that gives fmt the method's text for those verbs and the value
// itself for the others.

import (
	"fmt"
	"reflect"
)

// formatHeld formats for fmt.Formatter: text() (the String or Error
// method's result) for the verbs that fmt would call it for, held (the
// interpreted value) for the others.
func formatHeld(f fmt.State, verb rune, held interface{}, text func() string) {
	switch verb {
	case 'v', 's', 'q', 'x', 'X':
		if !(verb == 'v' && f.Flag('#')) && text != nil {
			fmt.Fprintf(f, fmt.FormatString(f, verb), text())
			return
		}
	}
	if vi, ok := held.(valueInterface); ok {
		vi.Format(f, verb)
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), held)
}

// _stringer is fmt.Stringer's wrapper with fmt's verbs (see formatHeld);
// fixErrors makes it the first choice over fmt's _Stringer.
type _stringer struct {
	IValue  interface{}
	WString func() string
}

func (w _stringer) String() string                { return w.WString() }
func (w _stringer) Format(f fmt.State, verb rune) { formatHeld(f, verb, w.IValue, w.WString) }
func (w _error) Format(f fmt.State, verb rune)    { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorUIA) Format(f fmt.State, verb rune) { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorMIA) Format(f fmt.State, verb rune) { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorUI) Format(f fmt.State, verb rune)  { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorUA) Format(f fmt.State, verb rune)  { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorMI) Format(f fmt.State, verb rune)  { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorMA) Format(f fmt.State, verb rune)  { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorIA) Format(f fmt.State, verb rune)  { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorU) Format(f fmt.State, verb rune)   { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorM) Format(f fmt.State, verb rune)   { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorI) Format(f fmt.State, verb rune)   { formatHeld(f, verb, w.IValue, w.WError) }
func (w _errorA) Format(f fmt.State, verb rune)   { formatHeld(f, verb, w.IValue, w.WError) }

// useStringer makes _stringer the wrapper that fmt.Stringer's values get.
func useStringer(interp *Interpreter) {
	if w, ok := interp.binPkg["fmt"]["_Stringer"]; ok {
		interp.mapTypes[w] = append([]reflect.Type{reflect.TypeOf(_stringer{})}, interp.mapTypes[w]...)
	}
}
