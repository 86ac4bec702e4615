package cli

import (
	"strings"
	"unicode/utf8"
)

// wrap breaks the lines of text that are longer than width at spaces, as a
// terminal interpreter does, so that words are not cut at the screen's
// edge. A word longer than the width is left whole on a line of its own.
// Leading spaces of a line (indentation) are kept.
func wrap(text string, width int) string {
	if width < 2 {
		return text
	}
	var b strings.Builder
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		for utf8.RuneCountInString(line) > width {
			cut := breakAt(line, width)
			b.WriteString(strings.TrimRight(line[:cut], " "))
			b.WriteByte('\n')
			line = strings.TrimLeft(line[cut:], " ")
		}
		b.WriteString(line)
	}
	return b.String()
}

// breakAt returns the byte offset at which to break line so that its first
// part fits in width columns: after the last space that fits, or, with no
// such space, after the first word.
func breakAt(line string, width int) int {
	lastSpace, col := -1, 0
	indent := true
	for i, r := range line {
		if col == width {
			if r == ' ' && !indent {
				return i
			}
			if lastSpace > 0 {
				return lastSpace
			}
			break
		}
		if r == ' ' {
			if !indent {
				lastSpace = i
			}
		} else {
			indent = false
		}
		col++
	}
	if lastSpace > 0 {
		return lastSpace
	}
	if i := strings.IndexByte(strings.TrimLeft(line, " "), ' '); i >= 0 {
		return len(line) - len(strings.TrimLeft(line, " ")) + i
	}
	return len(line)
}
