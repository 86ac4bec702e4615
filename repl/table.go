package repl

import (
	"encoding/csv"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// table is a value laid out in rows and columns, for display and for
// :table's Markdown and CSV.
type table struct {
	header []string
	tags   []string   // each column's json name, "" for none
	rows   [][]string // each cell in one line, in full
	more   int        // rows left out past maxTableRows
	hidden int        // columns left out to fit the width
}

// isRecordList reports whether v is a slice or array of structs (or of
// pointers to structs) with fields to show: a list of records.
func isRecordList(v reflect.Value) bool {
	t := v.Type().Elem()
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return v.Len() > 0 && t.Kind() == reflect.Struct && len(exportedFields(t)) > 0
}

// tableOf lays v out as a table: a list of records one row each, a struct
// one row per field, a map one row per key (a map of records with the
// records' fields as columns), other lists one row per element.
func tableOf(v reflect.Value) (*table, error) {
	v = deref(v)
	if !v.IsValid() {
		return nil, fmt.Errorf("nil has no table")
	}
	if sum, _, ok := summary(v, false); ok {
		v = sum
	}
	if v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Struct {
		v = v.Elem()
	}
	t := &table{}
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		if isRecordList(v) {
			t.records(v)
			return t, nil
		}
		t.header = []string{"#", "Value"}
		for r := 0; r < v.Len(); r++ {
			if r == maxTableRows {
				t.more = v.Len() - r
				break
			}
			t.rows = append(t.rows, []string{strconv.Itoa(r), cell(v.Index(r))})
		}
		return t, nil
	case reflect.Struct:
		t.header = []string{"Field", "Value"}
		for _, i := range exportedFields(v.Type()) {
			t.rows = append(t.rows, []string{fieldName(v.Type().Field(i)), cell(v.Field(i))})
		}
		return t, nil
	case reflect.Map:
		keys := sortedKeys(v)
		et := v.Type().Elem()
		if et.Kind() == reflect.Pointer {
			et = et.Elem()
		}
		if et.Kind() == reflect.Struct && len(exportedFields(et)) > 0 {
			fields := exportedFields(et)
			t.header = []string{"Key"}
			for _, i := range fields {
				t.header = append(t.header, fieldName(et.Field(i)))
			}
			for _, k := range keys {
				e := deref(v.MapIndex(k))
				if e.Kind() == reflect.Pointer {
					e = e.Elem()
				}
				row := []string{cell(k)}
				for _, i := range fields {
					if e.IsValid() {
						row = append(row, cell(e.Field(i)))
					} else {
						row = append(row, "nil")
					}
				}
				t.rows = append(t.rows, row)
			}
			return t, nil
		}
		t.header = []string{"Key", "Value"}
		for _, k := range keys {
			t.rows = append(t.rows, []string{cell(k), cell(v.MapIndex(k))})
		}
		return t, nil
	}
	return nil, fmt.Errorf("a %s is not a table: give a slice, an array, a map or a struct", v.Type())
}

// cell renders a value in a table's cell: a string as it is, anything
// else as Go writes it.
func cell(v reflect.Value) string {
	if d := deref(v); d.IsValid() && d.Kind() == reflect.String {
		if _, ok := special(d); !ok {
			return d.String()
		}
	}
	return inline(v, 1<<20)
}

// records lays out v, a list of records, one row each: its columns are the
// fields of the records, or of their summaries (Summarizer, TableRower);
// a nil record is a row of nil.
func (t *table) records(v reflect.Value) {
	st := v.Type().Elem()
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	sumType, summarized := summaryType(st)
	if summarized {
		st = sumType
	}
	fields := exportedFields(st)
	for _, i := range fields {
		t.header = append(t.header, fieldName(st.Field(i)))
		tag, _, _ := strings.Cut(st.Field(i).Tag.Get("json"), ",")
		t.tags = append(t.tags, tag)
	}
	for r := 0; r < v.Len(); r++ {
		if r == maxTableRows {
			t.more = v.Len() - r
			break
		}
		e := deref(v.Index(r))
		if summarized {
			if sum, _, ok := summary(e, true); ok {
				e = sum
			} else {
				e = reflect.Value{} // a nil pointer
			}
		}
		if e.Kind() == reflect.Pointer {
			e = e.Elem()
		}
		row := make([]string, len(fields))
		for c, i := range fields {
			if e.IsValid() {
				row[c] = cell(e.Field(i))
			} else {
				row[c] = "nil"
			}
		}
		t.rows = append(t.rows, row)
	}
}

// pick keeps the columns named cols, in that order. A name matches a
// column by its header or json name, whatever the case and underscores
// (final_score is FinalScore), or else as the end of its header (score is
// the first column whose name ends in Score).
func (t *table) pick(cols []string) error {
	norm := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
	var idx []int
	for _, c := range cols {
		want, found := norm(c), -1
		for i, h := range t.header {
			if norm(h) == want || (i < len(t.tags) && t.tags[i] != "" && norm(t.tags[i]) == want) {
				found = i
				break
			}
		}
		for i, h := range t.header {
			if found < 0 && strings.HasSuffix(norm(h), want) {
				found = i
			}
		}
		if found < 0 {
			return fmt.Errorf("no column %s: the columns are %s", c, strings.Join(t.header, ", "))
		}
		idx = append(idx, found)
	}
	t.header = pickCols(t.header, idx)
	for r, row := range t.rows {
		t.rows[r] = pickCols(row, idx)
	}
	t.tags = nil
	return nil
}

func pickCols(row []string, idx []int) []string {
	out := make([]string, len(idx))
	for i, j := range idx {
		if j < len(row) {
			out[i] = row[j]
		}
	}
	return out
}

// text renders the table for the terminal, each cell cut to maxCell
// runes; with fit, it leaves out the columns on the right that do not fit
// in width (the footer says how many, and how to pick columns).
func (t *table) text(width int, fit bool) string {
	if !fit {
		return t.render(width) + t.footer()
	}
	for {
		out := t.render(width)
		w := 0
		for _, l := range strings.Split(out, "\n") {
			w = max(w, utf8.RuneCountInString(l))
		}
		if w <= width || len(t.header) <= 1 {
			return out + t.footer()
		}
		t.header = t.header[:len(t.header)-1]
		for r, row := range t.rows {
			if len(row) > len(t.header) {
				t.rows[r] = row[:len(t.header)]
			}
		}
		t.hidden++
	}
}

// render lays the table out with tablewriter.
func (t *table) render(width int) string {
	var b strings.Builder
	w := tablewriter.NewTable(&b,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{Symbols: tw.NewSymbols(tw.StyleLight)})),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
		tablewriter.WithTrimSpace(tw.Off),
		tablewriter.WithMaxWidth(width),
	)
	w.Header(anySlice(t.header)...)
	for _, row := range t.rows {
		cut := make([]string, len(row))
		for i, c := range row {
			cut[i] = truncate(strings.Join(strings.Fields(c), " "), maxCell)
		}
		if err := w.Append(cut); err != nil {
			return fmt.Sprintf("(table: %v)", err)
		}
	}
	if err := w.Render(); err != nil {
		return fmt.Sprintf("(table: %v)", err)
	}
	return strings.TrimRight(b.String(), "\n")
}

// markdown renders the table as GitHub Markdown, cells in full.
func (t *table) markdown() string {
	var b strings.Builder
	esc := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	b.WriteString("|")
	for _, h := range t.header {
		b.WriteString(" " + esc(h) + " |")
	}
	b.WriteString("\n|")
	for range t.header {
		b.WriteString(" --- |")
	}
	for _, row := range t.rows {
		b.WriteString("\n|")
		for _, c := range row {
			b.WriteString(" " + esc(c) + " |")
		}
	}
	return b.String() + t.footer()
}

// csv renders the table as CSV (RFC 4180), cells in full.
func (t *table) csv() (string, error) {
	var b strings.Builder
	w := csv.NewWriter(&b)
	if err := w.Write(t.header); err != nil {
		return "", err
	}
	if err := w.WriteAll(t.rows); err != nil {
		return "", err
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

func (t *table) footer() string {
	var f string
	if t.more > 0 {
		f = fmt.Sprintf("\n... %d more rows", t.more)
	}
	if t.hidden > 0 {
		f += fmt.Sprintf("\n... %d more columns, past the width (:table EXPR COLUMN... picks columns)", t.hidden)
	}
	return f
}

func anySlice(s []string) []any {
	a := make([]any, len(s))
	for i, x := range s {
		a[i] = x
	}
	return a
}
