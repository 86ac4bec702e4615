package interp

// grue's change to yaegi v0.16.1 (see README.grue.md at the root of this
// copy): an interpreted value kept in an interface{} (var x any = v,
// []any{v}, map[string]any{"k": v}, an any field) is held in a
// valueInterface, and compiled code that received one saw the wrapper:
// encoding/json wrote {} and fmt printed its pointers. A valueInterface
// now formats and marshals as the value it holds, wherever compiled code
// meets it, and gives that value to code that asks (grue's REPL display).

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// InterpValue returns the value that v holds, unwrapped.
func (v valueInterface) InterpValue() reflect.Value { return valueInterfaceValue(v.value) }

// Format formats the value that v holds with the verb and flags fmt gives.
func (v valueInterface) Format(f fmt.State, verb rune) {
	x := v.InterpValue()
	if !x.IsValid() || !x.CanInterface() {
		fmt.Fprintf(f, fmt.FormatString(f, verb), nil)
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), x.Interface())
}

// MarshalJSON writes the value that v holds as encoding/json writes it.
func (v valueInterface) MarshalJSON() ([]byte, error) {
	x := v.InterpValue()
	if !x.IsValid() || !x.CanInterface() {
		return []byte("null"), nil
	}
	return json.Marshal(x.Interface())
}
