package cli

import (
	"context"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/game/mcp"
)

// Network is what this package's commands do over HTTP: serve MCP over
// streamable HTTP (grue serve --http), play an MCP game server at an
// http(s) URL (grue agent --server URL) and talk to a model's
// OpenAI-compatible endpoint (grue agent with a model). Its code links
// net/http, whose initialisation, with crypto/tls's, costs every process
// that links it about 0.4 ms at start-up (docs/performance.md, Start-up),
// so command grue does not link it: grue-workbench sets it
// ([SetNetwork], with package clihttp's), and a command line of grue that
// needs it is handed to grue-workbench whole ([Execute]), before the
// command has done anything a user could see.
type Network struct {
	// ServeMCP serves srv over streamable HTTP at /mcp on ln, ending
	// sessions idle for longer than idle (0: never), under the connection
	// limits, until ctx is done; then it shuts the server down.
	ServeMCP func(ctx context.Context, srv *mcp.Server, ln net.Listener, idle time.Duration, limits ConnLimits) error
	// DialMCP connects to the MCP game server at an http(s) URL.
	DialMCP func(ctx context.Context, url string) (*mcp.Client, error)
	// CheckModel asks the endpoint of cfg for its models: the one it
	// serves becomes cfg's model when cfg names none, and a model it does
	// not serve is an error.
	CheckModel func(ctx context.Context, cfg llm.Config) (llm.Config, error)
	// NewModel makes the model client of cfg.
	NewModel func(cfg llm.Config) (llm.Client, error)
}

// network is the Network of this process: the zero Network in grue.
var network Network

// handsOff is set by [Main], grue's: a command that returns
// [NeedsWorkbench] is run again by grue-workbench. Elsewhere (in
// grue-workbench, which sets the Network, and in tests) the error is
// printed as any other, so that a Network left incomplete cannot make
// grue-workbench execute itself again and again.
var handsOff bool

// SetNetwork gives this package's commands their network side; command
// grue-workbench calls it before it runs a command line.
func SetNetwork(n Network) { network = n }

// NeedsWorkbench is the error of a command that needs the [Network] in a
// process that has none (command grue): [Execute] hands the command line
// to grue-workbench instead of printing it.
type NeedsWorkbench struct {
	What string // what needed it, for the error when grue-workbench is missing: "--http"
}

func (e NeedsWorkbench) Error() string {
	return fmt.Sprintf("%s needs the network side of the commands, which this program does not link (run %s)", e.What, WorkbenchBinary)
}

// handOff replaces the process with grue-workbench, given args, for a
// command that needs the network (see [Network]), and returns the exit
// status when that cannot be done, having said why on stderr.
func handOff(cmdPath string, args []string, need NeedsWorkbench, stderr io.Writer) int {
	code, err := runWorkbench(args)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %s needs %s: %v\n", cmdPath, need.What, WorkbenchBinary, err)
	}
	return code
}
