package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"
)

// flagError rewrites a flag value that does not parse into what a person
// reads: the flag, the value and what it should be ("--steps: "abc" is
// not a whole number"), rather than the parser's own words
// ("strconv.ParseInt: parsing ..."). Other errors are returned as they
// are.
func flagError(err error) error {
	var bad *pflag.InvalidValueError
	if !errors.As(err, &bad) || bad.GetFlag() == nil {
		return err
	}
	f := bad.GetFlag()
	name := "--" + f.Name
	if f.Shorthand != "" {
		name = "-" + f.Shorthand + "/" + name
	}
	var want string
	switch t := f.Value.Type(); {
	case strings.HasPrefix(t, "uint"):
		want = "a whole number, 0 or more"
	case strings.HasPrefix(t, "int"):
		want = "a whole number"
	case strings.HasPrefix(t, "float"):
		want = "a number"
	case t == "duration":
		want = "a duration such as 90s, 5m or 1h30m"
	case t == "bool":
		want = "true or false"
	default:
		// A flag's own Set explains itself: keep its words.
		return fmt.Errorf("%s %q: %w", name, bad.GetValue(), errors.Unwrap(err))
	}
	return fmt.Errorf("%s: %q is not %s", name, bad.GetValue(), want)
}
