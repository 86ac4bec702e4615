package repl

import (
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"time"
)

// Magic is a command of the REPL rather than Go code: a cell that starts
// with a colon and the magic's name (":time f()"). Code outside this
// package adds its own with AddMagic, from Options.Setup (the grue
// workbench's :step, for one).
type Magic struct {
	// Name is what follows the colon.
	Name string
	// Usage shows the arguments: "[--md|--csv] EXPR".
	Usage string
	// Help says what it does, in one line.
	Help string
	// Code reports that the argument is Go code, which may go on over
	// several lines like any cell.
	Code bool
	// Run does it, printing to s.Stdout(). args is the rest of the cell
	// after the name, trimmed.
	Run func(ctx context.Context, s *Session, args string) error
}

// AddMagic adds m to the session's magics, replacing one of the same name.
func (s *Session) AddMagic(m Magic) {
	s.magics[m.Name] = m
}

// Magics lists the session's magics, sorted by name.
func (s *Session) Magics() []Magic {
	ms := make([]Magic, 0, len(s.magics))
	for _, m := range s.magics {
		ms = append(ms, m)
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
	return ms
}

// splitMagic splits ":name args" into its name and arguments.
func splitMagic(src string) (name, args string) {
	src = strings.TrimPrefix(strings.TrimSpace(src), ":")
	name, args, _ = strings.Cut(src, " ")
	if i := strings.IndexAny(name, "\t\n"); i >= 0 {
		name, args = name[:i], name[i:]+" "+args
	}
	return name, strings.TrimSpace(args)
}

func (s *Session) runMagic(ctx context.Context, src string) error {
	name, args := splitMagic(src)
	m, ok := s.magics[name]
	if !ok {
		return fmt.Errorf("unknown magic :%s (:help lists them)", name)
	}
	if !m.Code {
		args = stripComment(args)
	}
	return m.Run(ctx, s, args)
}

// stripComment cuts a trailing // comment off a magic's arguments
// (":play west  // into the forest"): a // at the start or after a blank,
// outside a quoted string. A magic whose argument is Go code leaves its
// comments to the interpreter.
func stripComment(args string) string {
	quote := rune(0)
	for i, r := range args {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '`' || r == '\'':
			quote = r
		case strings.HasPrefix(args[i:], "//") && (i == 0 || args[i-1] == ' ' || args[i-1] == '\t'):
			return strings.TrimSpace(args[:i])
		}
	}
	return args
}

// builtinMagics are the magics every session has.
func builtinMagics() map[string]Magic {
	ms := []Magic{
		{Name: "help", Usage: "[MAGIC|imports]", Help: "this help; a magic's usage; the packages a cell can import", Run: magicHelp},
		{Name: "doc", Usage: "SYMBOL", Help: "the declaration and doc comment of a package, function, type, method or variable (strings.Split, v.Len)", Run: magicDoc},
		{Name: "who", Help: "the session's variables, functions, types and imports", Run: magicWho},
		{Name: "type", Usage: "EXPR", Help: "the type of an expression's value", Code: true, Run: magicType},
		{Name: "table", Usage: "[--md|--csv] EXPR [COLUMN...]", Help: "a slice, map or struct as a table (Markdown or CSV with a flag), the columns named (game seed score) or those that fit", Code: true, Run: magicTable},
		{Name: "time", Usage: "CODE", Help: "run code, or a magic, as a cell and say how long it took", Code: true, Run: magicTime},
		{Name: "load", Usage: "FILE.go|FILE.md", Help: "evaluate a file's declarations in the session (func main is not run); a notebook's cells in turn", Run: magicLoad},
		{Name: "run", Usage: "FILE.go [ARGS]", Help: "run a script's main, as grue run does, apart from the session", Run: magicRun},
		{Name: "history", Help: "the cells so far, numbered", Run: magicHistory},
		{Name: "save", Usage: "FILE.md|FILE.ipynb", Help: "save the session as a notebook (Markdown, or Jupyter's for .ipynb): each cell that succeeded since the last :reset, and its output, re-runnable with grue run FILE", Run: magicSave},
		{Name: "reset", Help: "start afresh: a new interpreter, and what the session sets up at the start; cells are kept for :save", Run: magicReset},
		{Name: "quit", Help: "leave (Ctrl-D does too)", Run: func(context.Context, *Session, string) error { return ErrQuit }},
	}
	m := make(map[string]Magic, len(ms))
	for _, x := range ms {
		m[x.Name] = x
	}
	return m
}

// helpIntro is how to type Go, which :help says first.
const helpIntro = `Type Go: statements, declarations and expressions; the value of an
expression is shown. A cell goes on over several lines while a bracket is
open or a line ends in an operator. Ctrl-C interrupts a running cell (or
drops the cell being typed), Ctrl-D leaves. Tab completes packages, their
symbols after a dot, variables and magics.`

// help is what :help says before the magics: how to type Go, the
// session's own text (Options.Help), the packages imported.
func (s *Session) help() string {
	var b strings.Builder
	b.WriteString(helpIntro + "\n\n")
	if s.opts.Help != "" {
		b.WriteString(strings.TrimRight(s.opts.Help, "\n") + "\n")
	}
	names := make([]string, 0, len(s.preload))
	for name := range s.preload {
		names = append(names, name)
	}
	sort.Strings(names)
	imported := "Packages " + strings.Join(names, ", ") + " are imported"
	if len(names) == 1 {
		imported = "Package " + names[0] + " is imported"
	}
	if len(names) > 0 {
		b.WriteString(Fold(imported+"; any other bound package is imported when a cell first uses it (time.Now()).", 72) + "\n")
	}
	b.WriteString("\nMagics:")
	return b.String()
}

func magicHelp(ctx context.Context, s *Session, args string) error {
	w := s.Stdout()
	switch args {
	case "":
		fmt.Fprintln(w, s.help())
		for _, m := range s.Magics() {
			use := ":" + m.Name
			if m.Usage != "" {
				use += " " + m.Usage
			}
			fmt.Fprintf(w, "  %-28s %s\n", use, m.Help)
		}
		return nil
	case "imports":
		fmt.Fprintln(w, "A cell or script can import the bound packages: these, and the standard library's (:doc PACKAGE):")
		for _, p := range s.packages.list {
			if d, ok := s.docs.Doc(p.Path, ""); ok {
				fmt.Fprintf(w, "  %-42s %s\n", p.Path, synopsis(d.Text))
			}
		}
		return nil
	}
	m, ok := s.magics[strings.TrimPrefix(args, ":")]
	if !ok {
		return fmt.Errorf("no magic :%s (:help lists them)", strings.TrimPrefix(args, ":"))
	}
	fmt.Fprintf(w, ":%s %s\n    %s\n", m.Name, m.Usage, m.Help)
	return nil
}

func magicWho(ctx context.Context, s *Session, args string) error {
	type row struct {
		Name  string
		Kind  string
		Type  string
		Value string
	}
	var rows []row
	for name, v := range s.Globals() {
		r := row{Name: name, Kind: "var"}
		if v.IsValid() {
			r.Type = v.Type().String()
			r.Value = inline(v, maxCell)
		}
		if strings.HasPrefix(r.Type, "constant.") {
			r.Kind, r.Type = "const", "untyped"
		}
		rows = append(rows, r)
	}
	for name, kind := range s.Declared() {
		r := row{Name: name, Kind: kind}
		if kind == "func" {
			if vals, err := s.EvalValues(ctx, name); err == nil && len(vals) == 1 && vals[0].IsValid() {
				r.Type = vals[0].Type().String()
			}
		}
		rows = append(rows, r)
	}
	for name, p := range s.Imports() {
		rows = append(rows, row{Name: name, Kind: "import", Value: fmt.Sprintf("%q", p)})
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].Kind != rows[j].Kind {
			return rows[i].Kind > rows[j].Kind // vars, then types, imports, funcs, consts
		}
		return rows[i].Name < rows[j].Name
	})
	fmt.Fprintln(s.Stdout(), display(reflect.ValueOf(rows), s.opts.Width))
	return nil
}

func magicType(ctx context.Context, s *Session, args string) error {
	vals, err := s.EvalValues(ctx, args)
	if err != nil {
		return err
	}
	var ts []string
	for _, v := range vals {
		if v = deref(v); v.IsValid() {
			ts = append(ts, v.Type().String())
		} else {
			ts = append(ts, "nil")
		}
	}
	t := strings.Join(ts, ", ")
	if len(ts) > 1 {
		t = "(" + t + ")"
	}
	fmt.Fprintln(s.Stdout(), t)
	return nil
}

func magicTable(ctx context.Context, s *Session, args string) error {
	format := "text"
	for {
		flag, rest, _ := strings.Cut(args, " ")
		switch flag {
		case "--md", "-md":
			format = "md"
		case "--csv", "-csv":
			format = "csv"
		default:
			goto eval
		}
		args = strings.TrimSpace(rest)
	}
eval:
	if args == "" {
		return fmt.Errorf("usage: :table [--md|--csv] EXPR [COLUMN...]")
	}
	args, cols := splitColumns(stripComment(args))
	vals, err := s.EvalValues(ctx, args)
	if err != nil {
		return err
	}
	if len(vals) == 0 {
		return fmt.Errorf("%s has no value", args)
	}
	t, err := tableOf(vals[0])
	if err != nil {
		return err
	}
	if len(cols) > 0 {
		if err := t.pick(cols); err != nil {
			return err
		}
	}
	var out string
	switch format {
	case "md":
		out = t.markdown()
	case "csv":
		if out, err = t.csv(); err != nil {
			return err
		}
	default:
		out = t.text(s.opts.Width, s.fit)
	}
	s.showTable(t, format, out)
	return nil
}

// splitColumns splits :table's argument into its expression and the
// names of the columns after it: the shortest run of words that is an
// expression, when all the words after it are names ("rs.Records game
// seed score").
func splitColumns(args string) (string, []string) {
	words := strings.Fields(args)
	for k := 1; k < len(words); k++ {
		rest := words[k:]
		allNames := true
		for _, w := range rest {
			allNames = allNames && token.IsIdentifier(w)
		}
		if !allNames {
			continue
		}
		if _, err := parser.ParseExpr(strings.Join(words[:k], " ")); err == nil {
			return strings.Join(words[:k], " "), rest
		}
	}
	return args, nil
}

func magicTime(ctx context.Context, s *Session, args string) error {
	if args == "" {
		return fmt.Errorf("usage: :time CODE")
	}
	start := time.Now()
	var err error
	if isMagic(args) {
		err = s.runMagic(ctx, args) // :time :step 3
	} else {
		_, err = s.eval(ctx, args, "", true)
	}
	d := time.Since(start)
	fmt.Fprintf(s.Stdout(), "time: %s\n", roundDuration(d))
	return err
}

// roundDuration keeps three significant digits or so.
func roundDuration(d time.Duration) time.Duration {
	switch {
	case d > time.Second:
		return d.Round(time.Millisecond)
	case d > time.Millisecond:
		return d.Round(time.Microsecond)
	}
	return d
}

func magicHistory(ctx context.Context, s *Session, args string) error {
	w := s.Stdout()
	for _, c := range s.cells {
		lines := strings.Split(c.Input, "\n")
		fmt.Fprintf(w, "[%d] %s\n", c.N, lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
	return nil
}

func magicReset(ctx context.Context, s *Session, args string) error {
	if err := s.reset(); err != nil {
		return err
	}
	if b := s.Banner(); b != "" {
		fmt.Fprintln(s.Stdout(), "session reset:", b)
	} else {
		fmt.Fprintln(s.Stdout(), "session reset")
	}
	return nil
}

func magicLoad(ctx context.Context, s *Session, args string) error {
	if args == "" {
		return fmt.Errorf("usage: :load FILE.go or FILE.md")
	}
	data, err := readSource(args)
	if err != nil {
		return err
	}
	if isNotebook(args) {
		cells, _, err := notebookCells(args, string(data))
		if err != nil {
			return fmt.Errorf("%s: %w", args, err)
		}
		for _, c := range cells {
			if _, err := s.eval(ctx, c.Input, args, true); err != nil {
				return err
			}
		}
		return nil
	}
	return s.loadFile(ctx, args, string(data))
}

// loadFile evaluates the declarations of a Go file in the session,
// leaving out its package clause and func main.
func (s *Session) loadFile(ctx context.Context, name, src string) error {
	r := scan(src)
	skipped := false
	var units []unit
	for _, u := range r.units {
		if u.first == token.PACKAGE {
			continue
		}
		if u.first == token.FUNC && isMainDecl(u.text) {
			skipped = true
			continue
		}
		units = append(units, u)
	}
	checked, err := s.checkCell(units, name)
	if err != nil {
		return err
	}
	for _, u := range units {
		if _, _, err := s.evalUnit(ctx, u, name); err != nil {
			return err
		}
	}
	checked.commit()
	if skipped {
		fmt.Fprintf(s.Stdout(), "loaded %s (func main not run: :run %s runs it)\n", filepath.Base(name), name)
	}
	return nil
}

func magicRun(ctx context.Context, s *Session, args string) error {
	fields := strings.Fields(args)
	if len(fields) == 0 {
		return fmt.Errorf("usage: :run FILE.go [ARGS]")
	}
	opts := s.opts // a notebook runs in a session like this one
	opts.Stdout, opts.Stderr = s.Stdout(), s.errw.w
	err := RunFile(ctx, fields[0], fields[1:], opts)
	if code, ok := err.(exitCode); ok {
		if code == 0 {
			return nil
		}
		return fmt.Errorf("%s: exit status %d", fields[0], int(code))
	}
	return err
}

func magicSave(ctx context.Context, s *Session, args string) error {
	if args == "" {
		return fmt.Errorf("usage: :save FILE.md")
	}
	keep := savedCells(s.Cells())
	text := []byte(Notebook(keep, s.Banner(), s.Meta()))
	if isIpynb(args) {
		var err error
		if text, err = IpynbNotebook(keep, s.Banner(), s.Meta()); err != nil {
			return err
		}
	}
	if err := os.WriteFile(args, text, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(s.Stdout(), "saved %d cells to %s\n", len(keep), args)
	if failed := failedCells(s.Cells()); len(failed) > 0 {
		fmt.Fprintf(s.Stdout(), "left out %d cells that failed:\n", len(failed))
		for _, c := range failed {
			fmt.Fprintf(s.Stdout(), "  [%d] %s\n", c.N, firstLine(c.Input))
		}
	}
	return nil
}

// failedCells are the cells since the last :reset that failed, which a
// notebook leaves out; the :save running now, and :quit, are not.
func failedCells(cells []Cell) []Cell {
	var failed []Cell
	for _, c := range cells {
		name, _ := splitMagic(c.Input)
		switch {
		case isMagic(c.Input) && name == "reset" && c.Error == "":
			failed = nil
		case c.Error != "":
			failed = append(failed, c)
		}
	}
	return failed
}

// savedCells are the cells that a notebook keeps: those that succeeded
// since the last :reset, but for the magics that look at the session
// rather than act (:save, :history, :quit). A notebook so saved runs again.
func savedCells(cells []Cell) []Cell {
	var keep []Cell
	for _, c := range cells {
		name, _ := splitMagic(c.Input)
		magic := isMagic(c.Input)
		switch {
		case magic && name == "reset" && c.Error == "":
			keep = nil
		case c.Error != "", magic && (name == "save" || name == "history" || name == "quit" || name == "reset"):
		default:
			keep = append(keep, c)
		}
	}
	return keep
}

// synopsis is the first sentence of a doc comment.
func synopsis(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	if i := strings.Index(text, ". "); i >= 0 {
		return text[:i+1]
	}
	return text
}

// writeIndented writes text with each line indented.
func writeIndented(w io.Writer, text, indent string) {
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if l == "" {
			fmt.Fprintln(w)
			continue
		}
		fmt.Fprintln(w, indent+l)
	}
}
