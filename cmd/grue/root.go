package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/grue-lab/grue/internal/cli"
)

// run executes the command line args with every command and returns the
// exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.Execute(newRootCmd(stdin, stdout, stderr), args, stderr)
}

// newRootCmd builds the whole command tree: the root and the commands of
// package cli (play, games, serve, agent, version), and this package's
// (the REPL, run, web, exp, bench, eval and code).
func newRootCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := cli.NewRoot(stdin, stdout, stderr)
	root.AddCommand(newWebCmd())
	setupREPL(root, stdin, stdout, stderr)
	root.AddCommand(newExpCmd(stdout, stderr))
	root.AddCommand(newBenchCmd(stdout, stderr))
	root.AddCommand(newEvalCmd(stdout, stderr))
	root.AddCommand(newCodeCmd(stdin, stdout, stderr))
	root.AddCommand(newKernelCmd(stdout, stderr))
	return root
}
