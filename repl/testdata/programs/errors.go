// Wrapping errors of a program's own types with fmt.Errorf's %w, and
// unwrapping them.
package main

import (
	"errors"
	"fmt"
)

type NotFound struct{ Name string }

func (e *NotFound) Error() string { return e.Name + " not found" }

func find(name string) error {
	return fmt.Errorf("find %q: %w", name, &NotFound{name})
}

func main() {
	err := find("lamp")
	fmt.Println(err)
	nf, ok := errors.Unwrap(err).(*NotFound)
	fmt.Println(ok, nf.Name)
	w := fmt.Errorf("%*d %w and %w", 3, 7, err, errors.New("x"))
	fmt.Println(w, errors.Unwrap(w) == nil)
	fmt.Println(fmt.Errorf("100%% %w", err))
	base := errors.New("base")
	fmt.Println(errors.Is(fmt.Errorf("up: %w", base), base), errors.Is(fmt.Errorf("up: %w", fmt.Errorf("down: %w", base)), base))
	var none error
	fmt.Println(fmt.Errorf("nil: %w", none))
}
