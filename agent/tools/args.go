package tools

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Arguments come from a model's JSON (numbers are float64) or from a
// script (ints); these helpers read both, and forgive a number written as
// a string, since models do that.

// stringArg returns args[key] as a string; ok is false when it is absent
// or not a string.
func stringArg(args map[string]any, key string) (string, bool) {
	s, ok := args[key].(string)
	return s, ok
}

// intArg returns args[key] as an int. present is false when the key is
// absent; err says what is wrong with a value that is not a whole number.
func intArg(args map[string]any, key string) (n int, present bool, err error) {
	v, ok := args[key]
	if !ok || v == nil {
		return 0, false, nil
	}
	switch v := v.(type) {
	case float64:
		if v != math.Trunc(v) || math.Abs(v) > 1e15 {
			return 0, true, fmt.Errorf("%s must be a whole number, not %v", key, v)
		}
		return int(v), true, nil
	case int:
		return v, true, nil
	case int64:
		return int(v), true, nil
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return 0, true, fmt.Errorf("%s must be a whole number, not %q", key, v)
		}
		return n, true, nil
	}
	return 0, true, fmt.Errorf("%s must be a whole number, not %v", key, v)
}

// Errorf is a Result that tells the model what went wrong: what every
// tool here answers a bad call with, and what a tool written elsewhere
// (package websearch, a notebook's own) can answer it with too.
func Errorf(format string, a ...any) Result {
	return Result{Text: fmt.Sprintf(format, a...), IsError: true}
}

// Truncate cuts s to at most max bytes on a UTF-8 boundary and says so,
// with how many bytes were dropped. max <= 0 keeps everything. The tools
// here cut what they give the model with it.
func Truncate(s string, max int) (string, bool) {
	if max <= 0 || len(s) <= max {
		return s, false
	}
	cut := max
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n[truncated: %d bytes]", len(s)-cut), true
}

// utf8Start reports whether b begins a UTF-8 sequence.
func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
