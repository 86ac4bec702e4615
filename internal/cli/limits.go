package cli

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"
)

// ConnLimits are the connection limits grue serve --http and grue web
// share, set by --read-timeout, --header-timeout and --conn-idle-timeout.
// A zero means what it means to net/http's Server: no limit for read,
// and read's limit for header and idle. [HTTPServer] makes the server.
type ConnLimits struct {
	read   time.Duration // to read a whole request, its body included
	header time.Duration // to read a request's headers
	idle   time.Duration // a keep-alive connection may wait for its next request
}

// AddFlags defines the flags of the limits on f: --read-timeout's default
// is read, and readHelp says what it bounds.
func (l *ConnLimits) AddFlags(f *pflag.FlagSet, read time.Duration, readHelp string) {
	f.DurationVar(&l.read, "read-timeout", read, readHelp+" (0: no limit)")
	f.DurationVar(&l.header, "header-timeout", 10*time.Second, "time to read a request's headers; a slower client is cut off (0: the --read-timeout)")
	f.DurationVar(&l.idle, "conn-idle-timeout", 2*time.Minute, "close a keep-alive connection idle for this long (0: the --read-timeout)")
}

// Check refuses a negative limit, naming its flag: net/http would take it
// silently as no limit at all.
func (l ConnLimits) Check() error {
	for _, f := range []struct {
		name, zero string
		d          time.Duration
	}{
		{"--read-timeout", "no limit", l.read},
		{"--header-timeout", "the --read-timeout", l.header},
		{"--conn-idle-timeout", "the --read-timeout", l.idle},
	} {
		if f.d < 0 {
			return UsageError{fmt.Errorf("%s %v: must not be negative (0 means %s)", f.name, f.d, f.zero)}
		}
	}
	return nil
}

// Timeouts returns the limits: read, to read a whole request, its body
// included; header, to read a request's headers; idle, for a keep-alive
// connection to wait for its next request.
func (l ConnLimits) Timeouts() (read, header, idle time.Duration) { return l.read, l.header, l.idle }

// SizeLimit is a count or size flag and its value, for CheckLimits.
type SizeLimit struct {
	Name string // the flag, with its dashes
	V    int64
	Zero bool // 0 is allowed (the limit is then off or nothing)
}

// CheckLimits refuses the first limit below its least value, naming the
// flag and the value given: a zero or negative cap would otherwise refuse
// every request, or none.
func CheckLimits(limits ...SizeLimit) error {
	for _, l := range limits {
		switch {
		case l.Zero && l.V < 0:
			return UsageError{fmt.Errorf("%s %d: must not be negative", l.Name, l.V)}
		case !l.Zero && l.V <= 0:
			return UsageError{fmt.Errorf("%s %d: must be positive", l.Name, l.V)}
		}
	}
	return nil
}
