// Package message stands in for golang.org/x/text/message in grue's copy
// of the validator (../../README.grue.md): a Printer whose Sprintf is
// fmt.Sprintf, so that the module no longer links golang.org/x/text,
// whose language and number tables every program linking this package
// (through mcp-go) built at start-up, about 0.15 ms of it. The messages
// are the same English ones, except that numbers are printed without
// grouping (1000, not 1,000). grue never enables mcp-go's schema
// validation, the only user of these messages.
package message

import "fmt"

// Printer formats the validator's messages.
type Printer struct{}

// NewPrinter returns a Printer.
func NewPrinter() *Printer { return &Printer{} }

// Sprintf is fmt.Sprintf.
func (*Printer) Sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }
