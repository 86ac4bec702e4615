package main

import (
	"io"
	"os"
	"strconv"

	"github.com/grue-lab/grue/harness"
	"golang.org/x/term"
)

// tableWidth is the width the terminal tables written to out fit: the
// COLUMNS environment variable when it holds a number, else the
// terminal's width when out is one, else harness.DefaultTableWidth.
func tableWidth(out io.Writer) int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if f, ok := out.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			return w
		}
	}
	return harness.DefaultTableWidth
}
