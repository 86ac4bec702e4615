package repl

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// Wrapping errors. fmt.Errorf wraps the operand of a %w verb when it is an
// error, but compiled code sees a value of a cell's type without its
// methods: fmt.Errorf("open: %w", &MyErr{}) printed %!w(...) and wrapped
// nothing, so errors.Unwrap gave nil. Passed to an interpreted function
// whose parameter is an error, the value becomes one that compiled code
// can call Error on, and what errors.Unwrap gives back is the cell's
// *MyErr to a type assertion (a conversion, error(x), does not do that
// in yaegi v0.16.1). So each %w operand of an fmt.Errorf call whose
// format is a literal goes through one:
//
//	fmt.Errorf("open: %w", func(e error) error { return e }(&MyErr{}))
//
// which changes nothing for an operand that is an error already.

// errorIdentity is the function a %w operand goes through.
const errorIdentity = "func(e error) error { return e }"

// errorfOperands returns text with the %w operands of its fmt.Errorf
// calls passed through errorIdentity, or text itself when it has none.
func errorfOperands(text string) string {
	if !strings.Contains(text, "Errorf") || !strings.Contains(text, "%w") {
		return text
	}
	return rewriteCalls(text, func(u *unitEdit, call *ast.CallExpr) bool {
		if !isPackageCall(call, "fmt", "Errorf") || len(call.Args) < 2 {
			return true
		}
		lit, ok := call.Args[0].(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		format, err := strconv.Unquote(lit.Value)
		if err != nil {
			return true
		}
		for _, i := range wrapVerbs(format) {
			if arg := 1 + i; arg < len(call.Args) && !strings.HasPrefix(u.src(call.Args[arg]), errorIdentity) {
				u.replace(call.Args[arg], errorIdentity+"("+u.src(call.Args[arg])+")")
			}
		}
		return true
	})
}

// wrapVerbs returns the indexes of the operands of format's %w verbs; none
// when the format numbers its operands (%[2]w), which a reader of the
// format alone cannot follow through the * widths that take operands too.
func wrapVerbs(format string) []int {
	var wraps []int
	arg := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.IndexByte("+-# 0", format[i]) >= 0 {
			i++ // flags
		}
		for i < len(format) && (format[i] >= '0' && format[i] <= '9' || format[i] == '.' || format[i] == '*') {
			if format[i] == '*' {
				arg++ // a width or precision given by an operand
			}
			i++
		}
		if i >= len(format) {
			break
		}
		switch format[i] {
		case '%':
			continue
		case '[':
			return nil
		case 'w':
			wraps = append(wraps, arg)
		}
		arg++
	}
	return wraps
}
