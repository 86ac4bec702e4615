package cli

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/grue-lab/grue/game/mcp"
)

// WarnTokenFlag warns on w, for command cmdName, when the --token flag of
// flags was given: a command line is readable by every account on the
// machine (ps, /proc/PID/cmdline), so the token is better given in
// $GRUE_SERVE_TOKEN. The warning never shows the token.
func WarnTokenFlag(w io.Writer, cmdName string, flags *pflag.FlagSet) {
	if f := flags.Lookup("token"); f == nil || !f.Changed {
		return
	}
	fmt.Fprintf(w, "%s: warning: --token puts the token in the command line, which every account on this machine can read (ps, /proc/PID/cmdline): set $%s instead\n", cmdName, mcp.TokenEnv)
}
