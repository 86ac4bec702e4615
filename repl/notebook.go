package repl

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A notebook is a session saved as Markdown by :save: a header of the
// session's setup (Meta, as YAML front matter between --- lines, which
// GitHub shows as a table), a title, then for each cell its input in a
// ```go block and its output, if any, in a plain ``` block below it (an
// error as "error: ..."). It reads well on GitHub and runs again with
// `grue run FILE.md` or :load FILE.md, which run the ```go blocks in
// order and ignore everything else; grue run starts its session with the
// setup of the header.

// Meta is one field of a notebook's header: "game: zork1".
type Meta struct {
	Key, Value string
}

// Notebook renders cells as a notebook: meta heads it, then title.
func Notebook(cells []Cell, title string, meta []Meta) string {
	var b strings.Builder
	if len(meta) > 0 {
		b.WriteString("---\n")
		for _, m := range meta {
			fmt.Fprintf(&b, "%s: %s\n", m.Key, strconv.Quote(m.Value))
		}
		b.WriteString("---\n\n")
	}
	fmt.Fprintf(&b, "# grue session\n\n%s\n", title)
	for _, c := range cells {
		fence := fenceFor(c.Input + c.Output + c.Error)
		fmt.Fprintf(&b, "\n%sgo\n%s\n%s\n", fence, c.Input, fence)
		out := strings.TrimRight(c.Output, "\n")
		if c.Error != "" {
			if out != "" {
				out += "\n"
			}
			out += "error: " + c.Error
		}
		if out != "" {
			fmt.Fprintf(&b, "\n%s\n%s\n%s\n", fence, out, fence)
		}
	}
	return b.String()
}

// fenceFor returns a code fence longer than any run of backticks in text.
func fenceFor(text string) string {
	longest, run := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// ParseNotebook returns the cells of a notebook: the contents of its
// ```go blocks, in order. Only the blocks a reader of the rendered
// Markdown sees as Go code are cells: a ```go block inside an HTML
// comment (<!-- ... -->), or any other HTML block that hides its
// contents (<script>, <style>, <textarea>, <pre>, <?...?>, <!...>,
// CDATA), or inside a ~~~ code block, is not run, since it is invisible
// or shown as plain text on GitHub and in any Markdown view, and a
// notebook from someone else could hide code there.
func ParseNotebook(text string) ([]string, error) {
	cells, err := ParseNotebookCells(text)
	if err != nil {
		return nil, err
	}
	inputs := make([]string, len(cells))
	for i, c := range cells {
		inputs[i] = c.Input
	}
	return inputs, nil
}

// ParseNotebookCells returns the cells of a notebook as ParseNotebook
// finds them, each with the output saved below it: the plain code block
// that follows its ```go block with nothing but blank lines between, as
// Notebook writes it, its lines ending in a newline ("" when there is
// none; an error is in it as "error: ...").
func ParseNotebookCells(text string) ([]Cell, error) {
	var cells []Cell
	last := -1 // the line that closed the last ```go block
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \r")
		if end := hiddenBlockEnd(line); end != nil {
			for ; i < len(lines) && !end(lines[i]); i++ {
			}
			continue
		}
		fence, info := splitFence(line)
		if fence == "" {
			continue
		}
		var body []string
		closed := false
		for i++; i < len(lines); i++ {
			l := strings.TrimRight(lines[i], " \r")
			if strings.HasPrefix(l, fence) && strings.Trim(l, "`") == "" {
				closed = true
				break
			}
			body = append(body, l)
		}
		if !closed {
			return nil, fmt.Errorf("a code block is not closed (%s)", fence)
		}
		switch {
		case info == "go":
			cells = append(cells, Cell{N: len(cells) + 1, Input: strings.Join(body, "\n")})
			last = i
		case info == "" && last >= 0 && blankBetween(lines, last, i-len(body)-1):
			cells[len(cells)-1].Output = strings.Join(body, "\n") + "\n"
			last = -1
		default:
			last = -1
		}
	}
	return cells, nil
}

// ParseNotebookMeta returns the fields of a notebook's header (nil for
// a notebook without one), in order; a field's value may be quoted.
func ParseNotebookMeta(text string) ([]Meta, error) {
	lines := strings.Split(text, "\n")
	if len(lines) == 0 || strings.TrimRight(lines[0], " \r") != "---" {
		return nil, nil
	}
	var meta []Meta
	for i, l := range lines[1:] {
		l = strings.TrimRight(l, " \r")
		if l == "---" {
			return meta, nil
		}
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			return nil, fmt.Errorf("line %d of the header: want key: value, not %q", i+2, l)
		}
		v = strings.TrimSpace(v)
		if uq, err := strconv.Unquote(v); err == nil {
			v = uq
		}
		meta = append(meta, Meta{strings.TrimSpace(k), v})
	}
	return nil, errors.New("the header (from its --- line) is not closed by another --- line")
}

// splitFence returns the fence that opens a code block on line, and its
// info string; "" when line opens none.
func splitFence(line string) (fence, info string) {
	n := 0
	for n < len(line) && line[n] == '`' {
		n++
	}
	if n < 3 {
		return "", ""
	}
	return line[:n], strings.TrimSpace(line[n:])
}

// hiddenBlockEnd returns, for a line that starts a block whose contents
// a Markdown view does not show as code (CommonMark's HTML blocks of
// kinds 1 to 5, and a code block fenced with tildes), the test of the
// line that ends it; nil for any other line.
func hiddenBlockEnd(line string) func(string) bool {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return nil // an indented code block: shown, but not a cell
	}
	contains := func(end string) func(string) bool {
		return func(l string) bool { return strings.Contains(strings.ToLower(l), end) }
	}
	low := strings.ToLower(t)
	for _, tag := range []string{"script", "pre", "style", "textarea"} {
		if rest, ok := strings.CutPrefix(low, "<"+tag); ok && (rest == "" || strings.ContainsAny(rest[:1], " \t>")) {
			return contains("</" + tag + ">")
		}
	}
	switch {
	case strings.HasPrefix(t, "<!--"):
		rest := t[4:]
		return func(l string) bool {
			if rest != "" { // the opening line itself may close it
				l, rest = rest, ""
			}
			return strings.Contains(l, "-->")
		}
	case strings.HasPrefix(t, "<![CDATA["):
		return contains("]]>")
	case strings.HasPrefix(t, "<?"):
		return contains("?>")
	case len(t) > 2 && t[0] == '<' && t[1] == '!' && ('A' <= t[2] && t[2] <= 'Z' || 'a' <= t[2] && t[2] <= 'z'):
		return contains(">")
	case strings.HasPrefix(t, "~~~"):
		n := len(t) - len(strings.TrimLeft(t, "~"))
		first := true
		return func(l string) bool {
			if first { // the opening line does not close it
				first = false
				return false
			}
			l = strings.TrimSpace(l)
			return len(l) >= n && strings.Trim(l, "~") == ""
		}
	}
	return nil
}

// blankBetween reports whether lines after from and before to are blank.
func blankBetween(lines []string, from, to int) bool {
	for i := from + 1; i < to; i++ {
		if strings.TrimSpace(lines[i]) != "" {
			return false
		}
	}
	return true
}
