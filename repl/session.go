package repl

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"io"
	"os"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/grue-lab/grue/bindings/std"
	"github.com/grue-lab/grue/internal/jsonms"
	"github.com/grue-lab/grue/internal/yaegi/interp"
)

// defaultPreload are the packages a session imports at the start when
// Options.Preload is nil.
var defaultPreload = map[string]string{"fmt": "fmt", "strings": "strings"}

// Options configure a Session.
type Options struct {
	// Stdout receives what cells print and the values they show;
	// default os.Stdout.
	Stdout io.Writer
	// Stderr receives what cells write with the log package; default
	// os.Stderr.
	Stderr io.Writer
	// Stdin is what fmt.Scan reads in a cell; default os.Stdin.
	Stdin io.Reader
	// Args is os.Args as cells see it; default []string{"grue"}.
	Args []string
	// Width is the width, in columns, that long values are folded to;
	// 0 means 100.
	Width int

	// Symbols are the packages that cells can import, keyed
	// "IMPORTPATH/NAME" as [interp.Interpreter.Use] takes them (what
	// yaegi extract generates); nil means the standard library
	// ([std.Symbols]).
	Symbols interp.Exports
	// Preload are the packages every session imports at the start, by
	// the name they go by; nil means fmt and strings. Other bound
	// packages are imported on first use (a cell that says time.Now()
	// imports "time"), or with an import statement.
	Preload map[string]string
	// Docs documents the bound packages for :doc and :help imports;
	// nil shows every symbol by its type.
	Docs Docs
	// Help is what :help says about the session after how to type Go:
	// its variables and what they are for.
	Help string
	// Meta is the header of the notebook that the session replays
	// (grue run FILE.md): Setup reads it with Session.NotebookMeta to
	// start the session as the notebook's was. Nil otherwise.
	Meta []Meta
	// CheckOutputs makes RunFile of a notebook compare each cell's
	// output with the one saved below it, failing at the first that
	// differs (grue run --check, as nbval does); magics are left out.
	CheckOutputs bool
	// Setup extends each session that New (or RunFile, for a notebook)
	// starts, before anything runs: it adds the session's own magics
	// (Session.AddMagic), what to do at the start and at each :reset
	// (Session.OnReset: define variables, set the banner) and at Close
	// (Session.OnClose). An error fails New.
	Setup func(s *Session) error
}

// Session is one notebook session: a Go interpreter (yaegi) with the
// bound packages, its cells and their outputs, and the magics it knows.
// A Session runs one cell at a time: Eval must not be called
// concurrently.
type Session struct {
	opts     Options
	out      *recorder
	errw     *panicFilter
	in       *interp.Interpreter
	pack     reflect.Value
	magics   map[string]Magic
	packages *packageIndex
	docs     Docs
	preload  map[string]string

	imports map[string]string // package name -> import path
	decls   map[string]string // name -> "func" or "type", as cells declared them
	funcs   map[string]string // function or method ("T.M") -> where it was declared
	ptrRecv map[string]bool   // method ("T.M") -> whether its receiver is a pointer
	script  bool              // the session around a script (RunFile), not the REPL's
	// compiled are the sourcePackages sources that the interpreter has
	// compiled.
	compiled map[string]bool
	// generics are the functions that cells declared with type
	// parameters.
	generics map[string]bool
	// trampolines are the functions and methods ("T.M") declared through
	// a variable (see redefine.go); nTramp counts them.
	trampolines map[string]trampolined
	nTramp      int
	// funcDecls are the functions and methods cells declared, in order,
	// with their sources; recompiling is set while the callers of a
	// function declared again are compiled again.
	funcDecls   []funcDecl
	recompiling bool
	// typeSrc is the definition of each type cells declared; renames
	// the hidden name of each type declared again, and typeVersion how
	// many times it was.
	typeSrc     map[string]string
	renames     map[string]string
	typeVersion map[string]int
	// typeOf is the reflect.Type of each type cells declared, by the
	// name the interpreter knows it by (its hidden name once declared
	// again); nil for one that has none to show (a generic type).
	typeOf  map[string]reflect.Type
	defs    []definition // Define's values, defined again by Reset
	onReset []func(*Session) error
	onClose []func() error
	onCell  []func(*Session)
	banner  string
	meta    []Meta // the header that :save writes
	// fit makes :table leave out the columns past the width: set on a
	// terminal (RunTerminal, SetFit), whose width is known.
	fit     bool
	cellCtx *cellContext // the variable ctx
	// lingering, when not nil, reports the end of a unit that was
	// interrupted and did not unwind in time (see run).
	lingering <-chan evalResult
	cells     []Cell
	n         int                        // number of the last cell started
	displayTo Display                    // where rich outputs go (SetDisplay), nil for Stdout
	htmlOf    []func(any) (string, bool) // AddHTML's
	// ck type-checks the cells (typecheck.go); nil until the first.
	ck *checker
	// ranges are the range loops' operands of the cell being run, from
	// its check; unitLine is the line in it of the unit being rewritten.
	ranges   map[string]rangeOperand
	unitLine int
	// deferred are the calls deferred at the running cell's top level
	// (toplevel.go).
	deferred []func()
}

// Cell is one evaluated cell: its input, everything it printed (the value
// it showed included) and its error.
type Cell struct {
	N        int           `json:"n"`
	Input    string        `json:"input"`
	Output   string        `json:"output"`
	Error    string        `json:"error,omitempty"`
	Duration time.Duration `json:"-"`
}

// MarshalJSON writes the cell with its duration as duration_ms, in
// milliseconds rounded to the microsecond, as every duration in grue's
// JSON is written.
func (c Cell) MarshalJSON() ([]byte, error) {
	type plain Cell
	return jsonms.Marshal(plain(c), jsonms.Field{Name: "duration", D: &c.Duration})
}

// UnmarshalJSON reads what MarshalJSON writes, as every duration in
// grue's JSON is read.
func (c *Cell) UnmarshalJSON(b []byte) error {
	type plain Cell
	return jsonms.Unmarshal(b, (*plain)(c), jsonms.Field{Name: "duration", D: &c.Duration})
}

// Result is what Eval gives back besides an error.
type Result struct {
	// Values are the values of the cell's last statement when it is an
	// expression: one for most, several for a call of a function with
	// several results. Nil otherwise.
	Values []reflect.Value
	// Output is everything the cell printed, the values shown included.
	Output string
}

type definition struct {
	name  string
	value any
}

// New starts a session: the interpreter with the bound packages, the
// preloaded ones imported, and what Options.Setup adds.
func New(opts Options) (*Session, error) {
	opts = withDefaults(opts)
	s := &Session{
		opts:     opts,
		out:      &recorder{w: opts.Stdout},
		errw:     &panicFilter{w: opts.Stderr},
		pack:     reflect.ValueOf(func(v ...interface{}) []interface{} { return v }),
		cellCtx:  &cellContext{},
		packages: newPackageIndex(opts.Symbols),
		docs:     opts.Docs,
		preload:  opts.Preload,
	}
	s.magics = builtinMagics()
	if opts.Setup != nil {
		if err := opts.Setup(s); err != nil {
			s.Close()
			return nil, err
		}
	}
	if err := s.reset(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// withDefaults fills in the options left out.
func withDefaults(opts Options) Options {
	if opts.Stdout == nil {
		opts.Stdout = os.Stdout
	}
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	if opts.Stdin == nil {
		opts.Stdin = os.Stdin
	}
	if opts.Args == nil {
		opts.Args = []string{"grue"}
	}
	if opts.Width <= 0 {
		opts.Width = 100
	}
	if opts.Symbols == nil {
		opts.Symbols = std.Symbols()
	}
	if opts.Preload == nil {
		opts.Preload = defaultPreload
	}
	if opts.Docs == nil {
		opts.Docs = noDocs{}
	}
	return opts
}

// newInterp makes an interpreter with the packages of symbols, writing to
// out and errw, with build tags for the source it reads.
//
// The interpreted code sees the process's environment as it was when the
// interpreter started (os.Getenv; os.Setenv changes only its own copy),
// and its os.Stdout and os.Stderr are out and errw: when those are not
// files (a session's recorder, a test's buffer), os.Stdout and os.Stderr
// are io.Writers rather than *os.Files, so that what a cell or script
// writes to them is kept.
func newInterp(symbols interp.Exports, out, errw io.Writer, stdin io.Reader, args []string, tags ...string) (*interp.Interpreter, error) {
	// A goroutine that interpreted code started and that panicked (one the
	// cell's own recover does not cover: go f() of a named function, a
	// script's) is reported as a cell's is, and the session goes on.
	goPanic := func(p interp.Panic) {
		fmt.Fprintf(errw, "panic: %v [in a goroutine the cell started; recovered, the session goes on]\n", p.Value)
	}
	i := interp.New(interp.Options{Stdout: out, Stderr: errw, Stdin: stdin, Args: args, BuildTags: tags, Env: os.Environ(), GoPanic: goPanic})
	if err := i.Use(symbols); err != nil {
		return nil, fmt.Errorf("load bindings: %w", err)
	}
	std := map[string]reflect.Value{}
	for name, w := range map[string]io.Writer{"Stdout": out, "Stderr": errw} {
		if _, isFile := w.(*os.File); !isFile {
			std[name] = reflect.ValueOf(&w).Elem()
		}
	}
	if err := i.Use(interp.Exports{"os/os": std}); err != nil {
		return nil, fmt.Errorf("load bindings: %w", err)
	}
	return i, nil
}

// reset starts the interpreter afresh: the bound packages, the preloaded
// ones, the variable ctx, the OnReset functions, and Define's values.
func (s *Session) reset() error {
	i, err := newInterp(s.opts.Symbols, s.out, s.errw, s.opts.Stdin, s.opts.Args)
	if err != nil {
		return err
	}
	if err := i.Use(interp.Exports{privatePkg + "/" + privatePkg: {"Pack": s.pack, "Clear": reflect.ValueOf(clearValue),
		"Defer": reflect.ValueOf(s.deferCall), "GoPanic": reflect.ValueOf(s.goPanic)}}); err != nil {
		return err
	}
	s.in = i
	s.lingering = nil // a unit of the old interpreter
	s.imports = map[string]string{}
	s.decls = map[string]string{}
	s.funcs = map[string]string{}
	s.ptrRecv = map[string]bool{}
	s.compiled = map[string]bool{}
	s.generics = map[string]bool{}
	s.trampolines = map[string]trampolined{}
	s.funcDecls = nil
	s.typeSrc = map[string]string{}
	s.renames = map[string]string{}
	s.typeVersion = map[string]int{}
	s.typeOf = map[string]reflect.Type{}
	if s.ck != nil {
		s.ck = &checker{im: s.ck.im, imports: map[string]string{}, vars: map[string]checkedVar{}}
	}
	ctx := context.Background()
	if err := s.importPackage(ctx, privatePkg, privatePkg, s.source("setup"), 1); err != nil {
		return fmt.Errorf("start session: %w", err)
	}
	if _, err := s.in.EvalWithContext(ctx, "var "+lineVar+" int"); err != nil {
		return fmt.Errorf("start session: %w", err)
	}
	names := make([]string, 0, len(s.preload))
	for name := range s.preload {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := s.importPackage(ctx, name, s.preload[name], s.source("setup"), 1); err != nil {
			return fmt.Errorf("start session: %w", err)
		}
	}
	if err := s.defineValue(CtxVar, reflect.TypeOf((*context.Context)(nil)).Elem(), s.cellCtx); err != nil {
		return err
	}
	for _, f := range s.onReset {
		if err := f(s); err != nil {
			return err
		}
	}
	for _, d := range s.defs {
		if err := s.define(d.name, d.value); err != nil {
			return err
		}
	}
	return nil
}

// OnReset adds f to what the session does when it starts and at each
// :reset, once the interpreter is afresh with its packages: define the
// session's variables (DefineVar), set its banner. An error fails New or
// :reset. It is for Options.Setup.
func (s *Session) OnReset(f func(s *Session) error) { s.onReset = append(s.onReset, f) }

// OnCell adds f to what the session does before each cell: look at the
// values the cells made (the workbench follows the episodes they hold).
// It is for Options.Setup.
func (s *Session) OnCell(f func(s *Session)) { s.onCell = append(s.onCell, f) }

// OnClose adds f to what Close does. It is for Options.Setup.
func (s *Session) OnClose(f func() error) { s.onClose = append(s.onClose, f) }

// Close runs the OnClose functions (shutting down what Setup started),
// and returns the first error.
func (s *Session) Close() error {
	var err error
	for _, f := range s.onClose {
		if cerr := f(); cerr != nil && err == nil {
			err = cerr
		}
	}
	return err
}

// Banner says what the session holds, in a line: what SetBanner set
// ("game: lantern (seed 1), model: gpt-4o-mini" in grue's workbench), "" when nothing did.
// :reset prints it and :save heads the notebook with it.
func (s *Session) Banner() string { return s.banner }

// SetBanner sets the line that Banner returns.
func (s *Session) SetBanner(b string) { s.banner = b }

// SetMeta sets a field of the header that :save writes ("game",
// "zork1"), replacing the field's value if it has one; "" removes it.
func (s *Session) SetMeta(key, value string) {
	for i, m := range s.meta {
		if m.Key == key {
			if value == "" {
				s.meta = append(s.meta[:i], s.meta[i+1:]...)
			} else {
				s.meta[i].Value = value
			}
			return
		}
	}
	if value != "" {
		s.meta = append(s.meta, Meta{key, value})
	}
}

// Meta returns the fields of the header that :save writes.
func (s *Session) Meta() []Meta { return append([]Meta(nil), s.meta...) }

// NotebookMeta returns the header of the notebook that the session
// replays (Options.Meta): nil for a session that replays none.
func (s *Session) NotebookMeta() []Meta { return append([]Meta(nil), s.opts.Meta...) }

// privatePkg is the import path, and name, of the package through which
// the session hands values to the interpreter. Names that start with it
// are hidden from :who and completion.
const privatePkg = "_grue"

// Define makes v a session variable called name, as if a cell had said
// name := v, and defines it again after :reset. The variable's type is
// v's dynamic type.
func (s *Session) Define(name string, v any) error {
	if err := s.define(name, v); err != nil {
		return err
	}
	for i, d := range s.defs {
		if d.name == name {
			s.defs[i].value = v
			return nil
		}
	}
	s.defs = append(s.defs, definition{name, v})
	return nil
}

// DefineVar makes v a session variable called name until the next
// :reset, as if a cell had said name := v: what an OnReset function
// defines afresh at each reset.
func (s *Session) DefineVar(name string, v any) error { return s.define(name, v) }

func (s *Session) define(name string, v any) error {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return fmt.Errorf("define %s: a nil value has no type", name)
	}
	return s.defineValue(name, rv.Type(), v)
}

// defineValue defines the variable name, of type typ, holding v.
func (s *Session) defineValue(name string, typ reflect.Type, v any) error {
	holder := reflect.New(typ).Elem()
	holder.Set(reflect.ValueOf(v))
	key := "V_" + name
	if err := s.in.Use(interp.Exports{privatePkg + "/" + privatePkg: {key: holder}}); err != nil {
		return fmt.Errorf("define %s: %w", name, err)
	}
	if _, err := s.eval(context.Background(), fmt.Sprintf("var %s = %s.%s", name, privatePkg, key), "setup", false); err != nil {
		return fmt.Errorf("define %s: %w", name, err)
	}
	return nil
}

// SetFit says whether :table leaves out the columns that do not fit in
// the width, as it does on a terminal; in a pipe or a notebook it shows
// them all.
func (s *Session) SetFit(fit bool) { s.fit = fit }

// Width is the width that long values are folded to.
func (s *Session) Width() int { return s.opts.Width }

// SetWidth changes the width that long values are folded to.
func (s *Session) SetWidth(w int) {
	if w > 0 {
		s.opts.Width = w
	}
}

// Stdout is where cells and magics print: the session's output, recorded
// in the current cell.
func (s *Session) Stdout() io.Writer { return s.out }

// Cells returns the cells evaluated so far, in order.
func (s *Session) Cells() []Cell { return append([]Cell(nil), s.cells...) }

// Eval evaluates one cell: Go statements, declarations and expressions in
// any mix (the value of a last expression is shown), or a magic command
// (":help"). Cancelling ctx interrupts the cell; the session stays usable.
//
// The error is an *Error for a failing cell (a compile error, a panic, an
// interruption), ErrQuit for :quit, or a magic's error.
func (s *Session) Eval(ctx context.Context, src string) (res Result, err error) {
	if strings.TrimSpace(src) == "" || onlyComments(src) {
		return Result{}, nil
	}
	defer func() {
		// The interpreter's panics are errors already; one of the
		// session's own rewriting must not end the process either.
		if r := recover(); r != nil {
			err = &Error{Kind: KindError, Msg: fmt.Sprintf("the REPL failed on this cell, a bug of grue's (please report it with the cell): %v", r)}
		}
	}()
	s.n++
	for _, f := range s.onCell {
		s.runHook(f)
	}
	start := time.Now()
	if s.cellCtx != nil {
		defer s.cellCtx.begin(ctx)()
	}
	s.out.begin()
	var vals []reflect.Value
	if sym, source, ok := parseHelpQuery(src); ok {
		err = s.helpFor(ctx, sym, source)
	} else if isMagic(src) {
		err = s.runMagic(ctx, src)
	} else {
		vals, err = s.eval(ctx, src, "", true)
	}
	out := s.out.end()
	cell := Cell{N: s.n, Input: strings.TrimRight(src, "\n"), Output: out, Duration: time.Since(start)}
	if err != nil && !errors.Is(err, ErrQuit) {
		cell.Error = err.Error()
	}
	s.cells = append(s.cells, cell)
	return Result{Values: vals, Output: out}, err
}

// runHook runs an OnCell function: one that panics must not fail every
// cell after (nor :save, :reset, :quit), so its panic is reported and
// the cell runs.
func (s *Session) runHook(f func(*Session)) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(s.errw, "grue: a bug of grue's before this cell (please report it): %v\n", r)
		}
	}()
	f(s)
}

// EvalValues evaluates the Go expression expr in the session, without
// showing it, and returns its values (several for a call of a function
// with several results). Magics use it for their arguments.
func (s *Session) EvalValues(ctx context.Context, expr string) ([]reflect.Value, error) {
	if s.script {
		// A script's rewrites (see scriptSource) are made before it runs:
		// there is nothing to ask the interpreter yet, and asking would
		// import packages the script then imports again.
		return nil, fmt.Errorf("%q: a script's values are not known before it runs", expr)
	}
	r := scan(expr)
	if len(r.units) != 1 {
		return nil, fmt.Errorf("want one expression, not %q", expr)
	}
	vals, isExpr, err := s.evalUnit(ctx, r.units[0], "")
	if err != nil {
		return nil, err
	}
	if !isExpr {
		return nil, fmt.Errorf("%q is not an expression with a value", expr)
	}
	return vals, nil
}

// eval runs the Go code src, a unit at a time, and shows the last unit's
// values when show is set. label names where src comes from in errors: ""
// for the current cell, else a file.
func (s *Session) eval(ctx context.Context, src, label string, show bool) (_ []reflect.Value, err error) {
	r := scan(src)
	var vals []reflect.Value
	if label != "setup" && !s.script {
		s.ranges = nil
		defer func() { s.ranges = nil }()
		checked, cerr := s.checkCell(r.units, label)
		if cerr != nil {
			return nil, cerr
		}
		r.units = checked.units(r.units)
		if label == "" {
			for i, u := range r.units {
				if u.first == token.DEFER {
					r.units[i], _ = deferUnit(u)
				}
				r.units[i].text = goRecovered(r.units[i].text, func(name string) bool { return s.generics[name] })
			}
			s.deferred = nil
			defer func() {
				if derr := s.runDeferred(); derr != nil && err == nil {
					err = derr
				}
			}()
		}
		defer func() {
			var e *Error
			switch {
			case err == nil:
				checked.commit()
			case errors.As(err, &e) && !e.compile:
				checked.commitVars() // it failed as it ran: what ran before is there
			}
		}()
	}
	interrupted := func() error {
		return &Error{Kind: KindInterrupted, Msg: "interrupted", Err: ctx.Err()}
	}
	for k, u := range r.units {
		if u.first == token.PACKAGE {
			continue // a pasted file's package clause
		}
		if ctx.Err() != nil {
			return vals, interrupted() // the units after an interrupted one do not run
		}
		v, isExpr, err := s.evalUnit(ctx, u, label)
		if err != nil {
			return nil, err
		}
		vals = nil
		if isExpr {
			vals = v
		}
		if show && k == len(r.units)-1 && isExpr {
			s.showUnit(ctx, u, vals)
		}
		if err := returnedError(vals); err != nil {
			// A call of a (T, error) function failed: the cell fails.
			return vals, &Error{Kind: KindError, File: label, Line: u.line, Msg: err.Error(), Err: err}
		}
	}
	if ctx.Err() != nil {
		return vals, interrupted()
	}
	return vals, nil
}

// showUnit shows the values of unit u, an expression: a value of a type
// that a cell declared with a String or Error method as the method says
// (see methodText), else as show does.
func (s *Session) showUnit(ctx context.Context, u unit, vals []reflect.Value) {
	if len(vals) == 1 {
		if text, ok := s.methodText(ctx, u, vals[0]); ok {
			s.showValue(vals[0], text)
			return
		}
	}
	s.show(vals)
}

// show prints the values of an expression, each in turn, but for the last
// of several when it is nil or an error: the error of a (T, error) call,
// which fails the cell when it is not nil (see returnedError).
func (s *Session) show(vals []reflect.Value) {
	if len(vals) > 1 {
		last := vals[len(vals)-1]
		if _, isErr := asError(last); isErr || !last.IsValid() {
			vals = vals[:len(vals)-1]
		}
	}
	for _, v := range vals {
		s.showValue(v, s.display(v))
	}
}

// display is the package's display, but that a struct value (or a
// pointer to one) of a type a cell declared shows under the type's name,
// Room rather than struct: yaegi makes a cell's struct types with
// reflect.StructOf, which gives them none.
func (s *Session) display(v reflect.Value) string {
	if text, ok := printed(v); ok {
		return Fold(text, s.opts.Width)
	}
	d := deref(v)
	e := d
	if d.IsValid() && d.Kind() == reflect.Pointer && !d.IsNil() {
		e = d.Elem()
	}
	if !e.IsValid() || e.Kind() != reflect.Struct || e.Type().Name() != "" {
		return display(v, s.opts.Width)
	}
	if _, ok := special(d); ok {
		return display(v, s.opts.Width)
	}
	if _, _, ok := summary(d, false); ok {
		return display(v, s.opts.Width)
	}
	name := s.structName(e.Type())
	if name == "" {
		return display(v, s.opts.Width)
	}
	if d.Kind() == reflect.Pointer {
		name = "&" + name
	}
	return namedStructBlock(e, name, s.opts.Width)
}

// structName returns the name of the one type cells declared whose type
// is t; "" when none is, or when several are (two types declared with the
// same fields are one reflect.Type to the interpreter).
func (s *Session) structName(t reflect.Type) string {
	found := ""
	for name, kind := range s.decls {
		if kind != "type" || s.declaredType(name) != t {
			continue
		}
		if found != "" {
			return ""
		}
		found = name
	}
	return found
}

// declaredType returns the reflect.Type of the type a cell declared as
// name, as cells mean it now; nil when it has none (a generic type).
func (s *Session) declaredType(name string) reflect.Type {
	key := name
	if hidden, ok := s.renames[name]; ok {
		key = hidden
	}
	if t, ok := s.typeOf[key]; ok {
		return t
	}
	var t reflect.Type
	vals, err := s.EvalValues(context.Background(), "reflect.TypeOf((*"+name+")(nil)).Elem()")
	if err == nil && len(vals) == 1 && vals[0].IsValid() && vals[0].CanInterface() {
		t, _ = vals[0].Interface().(reflect.Type)
	}
	s.typeOf[key] = t
	return t
}

// returnedError is the non-nil error that ends several values.
func returnedError(vals []reflect.Value) error {
	if len(vals) < 2 {
		return nil
	}
	err, _ := asError(vals[len(vals)-1])
	return err
}

// asError returns v's error, if v holds one.
func asError(v reflect.Value) (error, bool) {
	if !v.IsValid() || !v.CanInterface() {
		return nil, false
	}
	err, ok := v.Interface().(error)
	return err, ok
}

// Globals returns the session's variables and constants, by name.
func (s *Session) Globals() map[string]reflect.Value {
	g := s.in.Globals()
	for name := range g {
		if strings.HasPrefix(name, privatePkg) || name == "_" {
			delete(g, name)
		}
	}
	return g
}

// Imports returns the packages the session has imported, by name.
func (s *Session) Imports() map[string]string {
	m := make(map[string]string, len(s.imports))
	for k, v := range s.imports {
		if k != privatePkg {
			m[k] = v
		}
	}
	return m
}

// Declared returns the functions and types that cells declared, by name:
// "func" or "type".
func (s *Session) Declared() map[string]string {
	m := make(map[string]string, len(s.decls))
	for k, v := range s.decls {
		m[k] = v
	}
	return m
}

// Complete reports whether src is a whole cell (see the package function
// Complete); a magic is whole on its first line, unless its argument is Go
// code that goes on.
func (s *Session) Complete(src string) bool {
	if _, _, ok := parseHelpQuery(src); ok {
		return true
	}
	if isMagic(src) {
		name, args := splitMagic(src)
		if m, ok := s.magics[name]; ok && m.Code {
			return Complete(args)
		}
		return true
	}
	return Complete(src)
}

// onlyComments reports whether src holds nothing but comments.
func onlyComments(src string) bool {
	r := scan(src)
	return len(r.units) == 0 && r.complete
}
