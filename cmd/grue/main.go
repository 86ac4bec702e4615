// Command grue is grue's command line. It plays Z-machine story files by
// hand (grue play, and grue games to see what a story holds), serves them
// over MCP (grue serve) and runs an agent on one (grue agent) in process,
// and starts in a few milliseconds because it links nothing else. Every
// other command line (the notebook REPL, grue run, web, exp, eval and
// code, and help) it hands to grue-workbench, the binary installed beside
// it, which has the whole command tree.
//
// See the README and docs/design.md at the root of the repository, and
// `grue help`.
package main

import (
	"os"

	"github.com/grue-lab/grue/internal/cli"
)

func main() {
	os.Exit(cli.Main())
}
