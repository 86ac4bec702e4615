package zmachine

import "fmt"

// Error is a run-time error of the Z-machine: the story did something the
// Standard forbids (an illegal opcode, a division by zero, a write outside
// dynamic memory, a stack overflow) or ran past its instruction budget. PC is
// the address of the instruction that failed.
type Error struct {
	PC  uint32
	Msg string
}

func (e *Error) Error() string {
	return fmt.Sprintf("zmachine: PC 0x%05x: %s", e.PC, e.Msg)
}

// fault is the panic value the interpreter raises internally to abandon an
// instruction; run turns it into an *Error. It never escapes the package.
type fault struct{ msg string }

// fail abandons the current instruction with an error message.
func fail(format string, args ...any) {
	panic(fault{fmt.Sprintf(format, args...)})
}
