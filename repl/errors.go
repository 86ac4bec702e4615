package repl

import (
	"errors"
	"fmt"
	"go/parser"
	"go/scanner"
	"go/token"

	"strconv"
	"strings"

	"github.com/grue-lab/grue/internal/lazyregexp"
)

// ErrQuit is returned by Eval for :quit.
var ErrQuit = errors.New("quit")

// The sentinels that an *Error of each kind matches with [errors.Is]:
// errors.Is(err, repl.ErrInterrupted) tells a cell that Ctrl-C (or its
// context) stopped from one that failed.
var (
	// ErrInterrupted matches an Error of Kind KindInterrupted.
	ErrInterrupted = errors.New("interrupted")
	// ErrPanic matches an Error of Kind KindPanic.
	ErrPanic = errors.New("panic")
)

// Kind says what sort of failure an Error is.
type Kind string

// The kinds of Error.
const (
	// KindError is a compile error, or a (T, error) call of the cell
	// that returned an error.
	KindError Kind = "error"
	// KindPanic is a panic in the cell, or in a function it called.
	KindPanic Kind = "panic"
	// KindInterrupted is a cell stopped by its context ending (Ctrl-C).
	KindInterrupted Kind = "interrupted"
)

// Error is a cell's failure: an error from the Go compiler side of the
// interpreter, a panic, or an interruption, with the line it refers to.
type Error struct {
	// Kind says what failed: KindError, KindPanic or KindInterrupted.
	Kind Kind `json:"kind"`
	// File is where the failing code came from: "" for the cell being
	// evaluated, "cell N" for an earlier cell (a function defined there),
	// or a file name (:load, grue run).
	File string `json:"file,omitempty"`
	// Line is the line in File, from 1; 0 when unknown.
	Line int `json:"line,omitempty"`
	// Col is the column in Line, from 1, of a type error; 0 when unknown.
	Col int `json:"col,omitempty"`
	// Msg says what went wrong, with yaegi's known gaps explained.
	Msg string `json:"msg"`
	// Trace lists a panic's frames, innermost first: "main.f (cell 3, line 2)".
	Trace []string `json:"trace,omitempty"`
	// Err is the underlying error, when there is one.
	Err error `json:"-"`

	compile bool // from compiling: nothing ran
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Kind == KindPanic {
		b.WriteString("panic: ")
	}
	if where := e.where(); where != "" {
		b.WriteString(where + ": ")
	}
	b.WriteString(e.Msg)
	for _, t := range e.Trace {
		if strings.HasPrefix(t, "…") {
			b.WriteString("\n\t" + t) // a count of frames foldTrace left out
			continue
		}
		b.WriteString("\n\tat " + t)
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is the sentinel of e's kind: ErrInterrupted
// or ErrPanic.
func (e *Error) Is(target error) bool {
	switch e.Kind {
	case KindInterrupted:
		return target == ErrInterrupted
	case KindPanic:
		return target == ErrPanic
	}
	return false
}

// where names e's position: "line 3", "cell 2, line 3", "x.go:3".
func (e *Error) where() string {
	switch {
	case e.Line == 0:
		return e.File
	case e.Col > 0 && e.File == "":
		return fmt.Sprintf("line %d:%d", e.Line, e.Col)
	case e.Col > 0 && strings.HasPrefix(e.File, "cell "):
		return fmt.Sprintf("%s, line %d:%d", e.File, e.Line, e.Col)
	case e.Col > 0:
		return fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Col)
	case e.File == "":
		return fmt.Sprintf("line %d", e.Line)
	case strings.HasPrefix(e.File, "cell "):
		return fmt.Sprintf("%s, line %d", e.File, e.Line)
	}
	return fmt.Sprintf("%s:%d", e.File, e.Line)
}

// source maps the interpreter's positions back to what the user wrote.
// yaegi compiles every unit as its file "_.go"; the REPL puts each unit
// one line below its place in its cell or file, after the line of wrapper
// code that makes it Go (see evalUnit), so a position's line is offset
// more than the user's.
type source struct {
	label  string                 // the file of Error.File: "" for the cell being evaluated, else a file name
	offset int                    // lines of wrapper before the user's first line
	isPkg  func(name string) bool // whether name is an imported package
	known  func(name string) bool // whether the session defines name
	// funcAt tells where the function called name ("f", "T.M") was
	// declared ("cell 3, line 2", "x.go:7"); "" when unknown.
	funcAt func(name string) string
}

// posPrefix matches the position yaegi puts before a message: "3:5: ",
// or "_.go:3:5: " in a parser's message.
var posPrefix = lazyregexp.New(`^(?:\S+?:)?(\d+):(\d+): `)

// compileError turns an error of the interpreter's parser or compiler into
// an Error at the line it refers to.
func (src source) compileError(err error, u unit) *Error {
	e := &Error{Kind: KindError, File: src.label, Err: err}
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		e.Line = list[0].Pos.Line - src.offset
		e.Msg = list[0].Msg
		if len(list) > 1 {
			e.Msg += fmt.Sprintf(" (and %d more errors)", len(list)-1)
		}
	} else {
		e.Msg = err.Error()
		if m := posPrefix.FindStringSubmatch(e.Msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			e.Line = line - src.offset
			e.Msg = e.Msg[len(m[0]):]
		}
	}
	if e.Line < 0 {
		e.Line = 0
	}
	e.Msg = explainGap(e.Msg, u, src)
	return e
}

// panicFrame matches the line yaegi writes to its stderr for each frame of
// a panic as it unwinds: "2:2: panic: main.mid(...)".
var panicFrame = lazyregexp.New(`^(?:\S+?:)?(\d+):(\d+): panic: (\S*)\(\.\.\.\)\n?$`)

// trace turns the frames yaegi reported as a panic unwound into Trace
// lines, innermost first. yaegi's frames name the function; their
// positions are the first statement of the function, not the line that
// panicked or called on, and carry no file. So the trace names functions
// and where they were declared ("main.f (cell 3, line 2)"), and leaves out
// the cell's own code, whose line the Error gives (that of the top-level
// statement that panicked).
func (src source) trace(frames []string) []string {
	var trace []string
	for _, f := range frames {
		m := panicFrame.FindStringSubmatch(f)
		if m == nil {
			continue
		}
		name := m[3]
		short := strings.TrimPrefix(name, "main.")
		if name == "main" || strings.HasPrefix(name, "main.func") || short == name {
			continue // the cell's own statements, a func literal, the runtime
		}
		where := ""
		if src.funcAt != nil {
			where = framePlace(src.funcAt(strings.TrimSuffix(short, ".func")), m[1], src.offset)
		}
		if where == "" {
			trace = append(trace, name)
			continue
		}
		trace = append(trace, fmt.Sprintf("%s (%s)", name, where))
	}
	return foldTrace(trace)
}

// declPlace matches where a function was declared: "cell 3, line 2",
// "x.go:7".
var declPlace = lazyregexp.New(`^(cell \d+, line |.+:)(\d+)$`)

// framePlace is where a frame of a function declared at decl ran: the
// line that the interpreter's frame names (line, offset lines below the
// user's), when it is at or after the declaration's, else decl.
func framePlace(decl, line string, offset int) string {
	m := declPlace.FindStringSubmatch(decl)
	if m == nil {
		return decl
	}
	at, err1 := strconv.Atoi(line)
	from, err2 := strconv.Atoi(m[2])
	if err1 != nil || err2 != nil || at-offset < from {
		return decl
	}
	return fmt.Sprintf("%s%d", m[1], at-offset)
}

// Most frames a trace keeps, and the runs of one frame it shows in full.
const (
	maxTrace  = 50
	maxRepeat = 3
)

// foldTrace shortens a deep trace, as Python's traceback does: a frame
// repeated more than maxRepeat times in a row (a recursion) is shown
// maxRepeat times and then counted, and past maxTrace lines the rest is
// counted too.
func foldTrace(trace []string) []string {
	var out []string
	for i := 0; i < len(trace); {
		j := i
		for j < len(trace) && trace[j] == trace[i] {
			j++
		}
		run := j - i
		for k := 0; k < min(run, maxRepeat); k++ {
			out = append(out, trace[i])
		}
		if run > maxRepeat {
			out = append(out, fmt.Sprintf("… the frame above %d more times", run-maxRepeat))
		}
		i = j
	}
	if len(out) > maxTrace {
		out = append(out[:maxTrace], fmt.Sprintf("… %d more frames", len(out)-maxTrace))
	}
	return out
}

// Messages for yaegi v0.16.1's known gaps, in the words of what to write
// instead.
const (
	gapRange = "yaegi (the Go interpreter behind the REPL, v0.16.1) cannot range over a function itself, " +
		"and the REPL rewrites such a loop only when it knows the operand's type (a session variable, a variable " +
		"or parameter declared with its type, maps.Keys(m) of a typed m): give the operand a typed variable first " +
		"(var it iter.Seq[string] = f(); for s := range it { ... })"
	gapMinMax = "yaegi v0.16.1 has no built-in %[1]s (Go 1.21): compare by hand (if b > a { a = b }), " +
		"or use math.Min/math.Max for float64"
	gapClear = "yaegi v0.16.1 has no built-in clear (Go 1.21): for a map, for k := range m { delete(m, k) }; " +
		"for a slice, s = s[:0] or set each element"
	gapGeneric = "%[1]s.%[2]s cannot be called here: either %[1]s has no %[2]s, or it is generic, and yaegi v0.16.1 " +
		"cannot call generic functions of compiled packages (the session brings its own slices and maps, not others'): " +
		"write the loop yourself, or use sort.Slice, sort.Strings and friends"
	gapUndefinedInDecl = "a name used in this declaration is undefined (yaegi reports it as %q)"
	gapImport          = "cannot import %q: scripts can import the standard library and grue's own packages (:help imports)"
)

var (
	undefinedSelector = lazyregexp.New(`^undefined selector:? ([A-Za-z_]\w*)\.([A-Za-z_]\w*)$`)
	importNotFound    = lazyregexp.New(`^import "([^"]+)" error: unable to find source related to`)
)

// explainGap rewrites a message of the interpreter that comes from one of
// its known gaps into one that says what to write instead. u is the unit
// that failed; src knows the session's names.
func explainGap(msg string, u unit, src source) string {
	switch {
	case msg == "undefined: min" || msg == "undefined: max":
		return fmt.Sprintf(gapMinMax, strings.TrimPrefix(msg, "undefined: "))
	case msg == "undefined: clear":
		return gapClear
	case msg == "constant definition loop":
		if name := undefinedIn(u, src.known); name != "" {
			return "undefined: " + name
		}
		return fmt.Sprintf(gapUndefinedInDecl, msg)
	case msg == "nil type" && strings.Contains(u.text, "range"):
		return gapRange
	}
	if m := undefinedSelector.FindStringSubmatch(msg); m != nil && src.isPkg != nil && src.isPkg(m[1]) {
		return fmt.Sprintf(gapGeneric, m[1], m[2])
	}
	if m := importNotFound.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf(gapImport, m[1])
	}
	return msg
}

// undefinedIn returns the first name that unit u uses but neither declares
// nor finds in the session (known) or in Go's universe: the name behind
// yaegi's "constant definition loop" for "x := nope". "" when none.
func undefinedIn(u unit, known func(string) bool) string {
	if known == nil {
		return ""
	}
	src := "package main; func main() {" + u.text + "\n}"
	if u.first == token.VAR || u.first == token.CONST {
		src = "package main;" + u.text
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", src, 0)
	if err != nil {
		return ""
	}
	for _, id := range f.Unresolved {
		if !known(id.Name) && !isUniverse(id.Name) {
			return id.Name
		}
	}
	return ""
}

// isUniverse reports whether name is predeclared in Go.
func isUniverse(name string) bool {
	for _, w := range goWords {
		if w == name {
			return true
		}
	}
	return false
}
