package cluster

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// OptionError is an option of a job or manifest that cannot be used: a
// required one missing, or a value that is not a valid name, quantity or
// path. Option is the option as grue exp's command line spells its flag
// ("--partition"); the command line reports an OptionError as a usage
// error.
type OptionError struct {
	Option string
	Msg    string // the whole message, naming the option and the value
}

func (e *OptionError) Error() string { return e.Msg }

// optionErrorf is an OptionError about option.
func optionErrorf(option, format string, args ...any) *OptionError {
	return &OptionError{Option: option, Msg: fmt.Sprintf(format, args...)}
}

// checkText refuses a value that is not UTF-8 or holds a control
// character (a newline, a carriage return, a tab...) or a line or
// paragraph separator: none has a place in a name, a path or a flag's
// value, and each could end a line of what the value is written into.
func checkText(option, value string) error {
	if !utf8.ValidString(value) {
		return optionErrorf(option, "%s %q: not UTF-8 text", option, value)
	}
	for _, r := range value {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return optionErrorf(option, "%s %q: holds a control character (%U), which a script or manifest line cannot carry", option, value, r)
		}
	}
	return nil
}
