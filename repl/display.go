package repl

import (
	"context"
	"fmt"
	"html"
	"io"
	"reflect"
	"strings"
)

// Bundle is one output in several forms, keyed by MIME type ("text/html",
// "image/png"), as a notebook front end (Jupyter) shows the richest it
// can. Every bundle has its "text/plain" twin, which is what the terminal
// shows and what a cell's recorded output (:save) keeps. Binary forms
// (image/png) hold the bytes themselves, not base64.
type Bundle map[string][]byte

// Plain is the bundle's text/plain form.
func (b Bundle) Plain() string { return string(b["text/plain"]) }

// Display is where a session sends its rich outputs (see SetDisplay):
// value is true for the value of the cell's last expression (Jupyter's
// execute_result), false for what a magic shows (display_data).
type Display func(b Bundle, value bool)

// SetDisplay sends the values cells show, the tables of :table and the
// plots of :plot to d as bundles, rather than printing their text/plain
// form to Stdout; nil prints them again. The text/plain form is still
// recorded in the cell's output. A Jupyter kernel sets it; the terminal
// does not.
func (s *Session) SetDisplay(d Display) { s.displayTo = d }

// Displays reports whether the session has a Display (SetDisplay): a
// magic that would write a file for the terminal (:plot) shows it instead.
func (s *Session) Displays() bool { return s.displayTo != nil }

// Show shows b: to the Display, or, without one, its text/plain form on
// Stdout as a line (a newline added). Either way the text/plain form is in the cell's output.
func (s *Session) Show(b Bundle, value bool) {
	text := b.Plain() + "\n"
	if s.displayTo == nil {
		io.WriteString(s.out, text)
		return
	}
	s.out.record(text)
	s.displayTo(b, value)
}

// AddHTML adds f to what gives a value shown by a cell its text/html
// form, in a notebook front end: f returns the HTML of the values it
// knows (the workbench's episodes and steps, as transcripts). A list of
// records is an HTML table without one. It is for Options.Setup.
func (s *Session) AddHTML(f func(v any) (string, bool)) { s.htmlOf = append(s.htmlOf, f) }

// showValue shows text, the display of v, the value of an expression:
// also as HTML when an AddHTML function knows v, or when it is a list of
// records (a table).
func (s *Session) showValue(v reflect.Value, text string) {
	b := Bundle{"text/plain": []byte(text)}
	if s.displayTo != nil {
		if h, ok := s.valueHTML(v); ok {
			b["text/html"] = []byte(h)
		}
	}
	s.Show(b, true)
}

func (s *Session) valueHTML(v reflect.Value) (string, bool) {
	if v.IsValid() && v.CanInterface() {
		for _, f := range s.htmlOf {
			if h, ok := f(v.Interface()); ok {
				return h, true
			}
		}
	}
	return valueHTML(v)
}

// showTable shows the output of :table: text as it is in the terminal,
// with the table in HTML beside it (format "text"), or Markdown as
// text/markdown ("md"); CSV is text only.
func (s *Session) showTable(t *table, format, text string) {
	b := Bundle{"text/plain": []byte(text)}
	switch format {
	case "text":
		b["text/html"] = []byte(t.html())
	case "md":
		b["text/markdown"] = []byte(text)
	}
	s.Show(b, false)
}

// valueHTML is v as an HTML table, when the REPL shows it as a table (a
// list of records).
func valueHTML(v reflect.Value) (string, bool) {
	if _, ok := printed(v); ok {
		return "", false
	}
	d := deref(v)
	if !d.IsValid() || (d.Kind() != reflect.Slice && d.Kind() != reflect.Array) || !isRecordList(d) {
		return "", false
	}
	t, err := tableOf(d)
	if err != nil {
		return "", false
	}
	return t.html(), true
}

// html lays the table out as an HTML table, every cell escaped, its
// footer (rows left out) in a paragraph after it.
func (t *table) html() string {
	var b strings.Builder
	b.WriteString("<table>\n<thead><tr>")
	for _, h := range t.header {
		fmt.Fprintf(&b, "<th>%s</th>", html.EscapeString(h))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, r := range t.rows {
		b.WriteString("<tr>")
		for _, c := range r {
			fmt.Fprintf(&b, "<td>%s</td>", html.EscapeString(c))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>")
	if t.more > 0 {
		fmt.Fprintf(&b, "\n<p>… %d more rows</p>", t.more)
	}
	return b.String()
}

// DocText returns what :doc sym prints (sym?), without evaluating a cell:
// for a notebook front end's inspection of the word under the cursor.
func (s *Session) DocText(ctx context.Context, sym string) (string, error) {
	var b strings.Builder
	defer s.out.redirect(&b)()
	err := magicDoc(ctx, s, sym)
	return b.String(), err
}

// record adds text to the cell's recorded output without writing it.
func (r *recorder) record(text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.on {
		r.buf.WriteString(text)
	}
}

// redirect sends what is written to w, and nothing to the recording,
// until the function it returns is called.
func (r *recorder) redirect(w io.Writer) func() {
	r.mu.Lock()
	defer r.mu.Unlock()
	old, on := r.w, r.on
	r.w, r.on = w, false
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.w, r.on = old, on
	}
}
