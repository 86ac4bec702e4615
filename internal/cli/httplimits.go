package cli

import (
	"fmt"
	"net/http"
	"time"

	"github.com/spf13/pflag"
)

// maxHeaderBytes bounds the headers of a request to grue serve --http and
// grue web: more get 431 (net/http's default would be 1 MiB).
const maxHeaderBytes = 64 << 10

// ConnLimits are the connection limits grue serve --http and grue web
// share, set by --read-timeout, --header-timeout and --conn-idle-timeout.
// A zero means what it means to [http.Server]: no limit for read, and
// read's limit for header and idle.
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

// Server is the HTTP server of h under the limits: a connection that does
// not send its headers within header, or a whole request within read, is
// closed (slow-loris), as is a keep-alive connection idle for idle;
// headers are capped at [maxHeaderBytes]. There is no write timeout: an
// event stream may stay open as long as what it follows. See
// docs/security.md.
func (l ConnLimits) Server(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadTimeout: l.read, ReadHeaderTimeout: l.header, IdleTimeout: l.idle, MaxHeaderBytes: maxHeaderBytes}
}

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
