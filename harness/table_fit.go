package harness

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// Fitting a comparison's table to a terminal's width.

// cutStep, followed by a number of runes, in a section's drop list cuts
// its names to that length.
const cutStep = "cut names to "

// fit renders s as a boxed table at most width columns wide where it can
// be, taking the steps of s.drop in turn until it is: leaving out a
// column, or cutting the names shorter. notes say what was cut and left
// out.
func (s section) fit(width int) ([]byte, []string, error) {
	keep := make([]bool, len(s.header))
	for i := range keep {
		keep[i] = true
	}
	cut := 0 // no cut
	out, err := s.render(keep, cut)
	if err != nil || tableWidth(out) <= width {
		return out, nil, err
	}
	var steps []func() bool
	for _, d := range s.drop {
		if n, ok := strings.CutPrefix(d, cutStep); ok {
			n, _ := strconv.Atoi(n)
			steps = append(steps, func() bool {
				if !s.cutSafe(n) {
					return false
				}
				cut = n
				return true
			})
		} else if j := slices.Index(s.header, d); j >= 0 {
			steps = append(steps, func() bool { keep[j] = false; return true })
		}
	}
	for _, step := range steps {
		if !step() {
			continue
		}
		if out, err = s.render(keep, cut); err != nil || tableWidth(out) <= width {
			break
		}
	}
	var notes []string
	var left []string
	for j, k := range keep {
		if !k {
			left = append(left, s.header[j])
		}
	}
	if len(left) > 0 {
		notes = append(notes, fmt.Sprintf("Left out to fit %d columns: %s (--format csv or json has every column; COLUMNS sets the width).", width, strings.Join(left, ", ")))
	}
	if cut > 0 && s.longNames(cut) {
		notes = append(notes, fmt.Sprintf("Names longer than %d characters are cut in the middle (…).", cut))
	}
	return out, notes, err
}

// render lays out s's columns that keep says, with names cut to cut
// runes (0: in full).
func (s section) render(keep []bool, cut int) ([]byte, error) {
	var b bytes.Buffer
	var header []string
	var align []tw.Align
	for j, h := range s.header {
		if !keep[j] {
			continue
		}
		header = append(header, h)
		a := tw.AlignLeft
		if s.numeric[j] {
			a = tw.AlignRight
		}
		align = append(align, a)
	}
	rows := make([][]string, len(s.rows))
	for i, row := range s.rows {
		for j, cell := range row {
			if j >= len(keep) || !keep[j] {
				continue
			}
			if cut > 0 && slices.Contains(s.names, s.header[j]) {
				cell = cutMiddle(cell, cut)
			}
			rows[i] = append(rows[i], cell)
		}
	}
	t := tablewriter.NewTable(&b,
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
	)
	t.Header(header)
	if err := t.Bulk(rows); err != nil {
		return nil, err
	}
	if err := t.Render(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// cutSafe reports whether cutting s's names to n runes keeps the names of
// each column apart.
func (s section) cutSafe(n int) bool {
	for j, h := range s.header {
		if !slices.Contains(s.names, h) {
			continue
		}
		seen := map[string]string{}
		for _, row := range s.rows {
			if j >= len(row) {
				continue
			}
			c := cutMiddle(row[j], n)
			if other, ok := seen[c]; ok && other != row[j] {
				return false
			}
			seen[c] = row[j]
		}
	}
	return true
}

// longNames reports whether any of s's names is longer than n runes.
func (s section) longNames(n int) bool {
	for j, h := range s.header {
		if !slices.Contains(s.names, h) {
			continue
		}
		for _, row := range s.rows {
			if j < len(row) && utf8.RuneCountInString(row[j]) > n {
				return true
			}
		}
	}
	return false
}

// cutMiddle shortens s to n runes by putting "…" for its middle, which
// keeps a name's start and its end (where variants often differ: -t0.7).
func cutMiddle(s string, n int) string {
	r := []rune(s)
	if len(r) <= n || n < 3 {
		return s
	}
	head := (n - 1) / 2
	tail := n - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

// tableWidth is the widest line of a rendered table, in runes.
func tableWidth(out []byte) int {
	w := 0
	for _, l := range strings.Split(string(out), "\n") {
		w = max(w, utf8.RuneCountInString(l))
	}
	return w
}

// wrapText breaks s at spaces into lines of at most width runes (a word
// longer than that gets a line of its own).
func wrapText(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(s) {
		l := utf8.RuneCountInString(word)
		switch {
		case i == 0:
		case n+1+l > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += l
	}
	return b.String()
}
