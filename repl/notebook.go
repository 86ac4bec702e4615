package repl

import (
	"fmt"
	"strings"
)

// A notebook is a session saved as Markdown by :save: a title, then for
// each cell its input in a ```go block and its output, if any, in a plain
// ``` block below it (an error as "error: ..."). It reads well on GitHub
// and runs again with `grue run FILE.md` or :load FILE.md, which run the
// ```go blocks in order and ignore everything else.

// Notebook renders cells as a notebook. title heads it.
func Notebook(cells []Cell, title string) string {
	var b strings.Builder
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
// ```go blocks, in order.
func ParseNotebook(text string) ([]string, error) {
	var cells []string
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \r")
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
		if info == "go" {
			cells = append(cells, strings.Join(body, "\n"))
		}
	}
	return cells, nil
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
