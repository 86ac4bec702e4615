// Command grue-workbench is the whole of grue's command line: the
// commands of package cli (play, games, serve, agent, version) and the
// ones that link the rest of the workbench: the notebook REPL (with no
// command) and grue run, grue web, the experiment harness (grue exp), the
// coding agent (grue code) and its evals (grue eval). Command grue runs
// it for those, so that grue itself starts fast; it is installed beside
// grue and answers as grue does (its errors and help say "grue").
//
// See the README and docs/design.md at the root of the repository, and
// `grue help`.
package main

import (
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/grue-lab/grue/internal/cli"
	"github.com/grue-lab/grue/internal/cli/clihttp"
)

func main() {
	os.Exit(Main())
}

// Main runs the command line in os.Args with the process's standard
// streams, and returns the exit status. The end-to-end tests run it as the
// "grue-workbench" command, and package cli's Main, which hands it what it
// does not run itself, as "grue".
func Main() int {
	return run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// run executes the command line args with every command and returns the
// exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.Execute(newRootCmd(stdin, stdout, stderr), args, stderr)
}

// newRootCmd builds the whole command tree: the root and the commands of
// package cli, and this binary's.
func newRootCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	// grue-workbench serves and plays over HTTP and talks to models: the
	// commands of package cli that grue hands it for that need these.
	cli.SetNetwork(clihttp.Network())
	root := cli.NewRoot(stdin, stdout, stderr)
	root.AddCommand(newWebCmd())
	setupREPL(root, stdin, stdout, stderr)
	root.AddCommand(newExpCmd(stdout, stderr))
	root.AddCommand(newEvalCmd(stdout, stderr))
	root.AddCommand(newCodeCmd(stdin, stdout, stderr))
	return root
}
