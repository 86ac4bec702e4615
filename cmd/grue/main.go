// Command grue is the one binary of the grue workbench: it plays Z-machine
// story files by hand (grue play), serves them over MCP (grue serve), runs
// an agent (grue agent), experiments (grue exp) and coding-task evals
// (grue eval), and hosts the notebook REPL (grue with no command, and
// grue run for a saved notebook).
//
// See the README and docs/design.md at the root of the repository, and
// `grue help`.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
)

func main() {
	os.Exit(Main())
}

// Main runs grue with os.Args and the process's standard streams, and
// returns the exit status. The end-to-end tests run it as the "grue" command.
func Main() int {
	return run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// Exit statuses.
const (
	exitOK    = 0
	exitError = 1 // the command failed: a bad story file, a machine error
	exitUsage = 2 // the command line was wrong: an unknown flag, a missing argument
)

// usageError marks an error in the command line itself.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// run executes the command line args and returns the exit status. Errors are
// printed to stderr as "grue SUBCOMMAND: message".
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd(stdin, stdout, stderr)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if err == nil {
		return exitOK
	}
	var es exitStatus
	if errors.As(err, &es) {
		return es.code // a script's os.Exit: it said what it had to
	}
	if cmd == nil {
		cmd = root
	}
	fmt.Fprintf(stderr, "%s: %v\n", cmd.CommandPath(), err)
	var ue usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
		return exitUsage
	}
	return exitError
}

// newRootCmd builds the command tree. Cobra gives the subcommands, flag
// parsing, help and usage errors; grue prints errors itself (see run).
func newRootCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "grue",
		Short: "A workbench for studying LLM agents in text adventures",
		Long: `grue is a workbench for people who study LLM agents that play text
adventures, all in one binary: a Z-machine that runs real story files (Zork
and every Inform game; grue play, and grue games to see what grue finds in
one), an MCP game server (grue serve), a ReAct agent (grue agent), an
experiment harness (grue exp, whose results grue exp export writes for
TALES, Harbor and Inspect), a coding agent (grue code) with its evals
(grue eval) and a notebook-style REPL (grue run for a saved notebook).

Without a subcommand grue starts the notebook REPL: Go, interpreted, with
grue's packages and a game at hand (:help inside says more).`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmd.Help()
		},
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return usageError{err}
	})
	// grue completion bash|zsh|fish|powershell prints a shell's
	// completion script (cobra's); grue --version prints what grue
	// version does.
	root.Version = Version()
	root.SetVersionTemplate("grue {{.Version}}\n")
	root.AddCommand(newVersionCmd(), newPlayCmd(), newGamesCmd(), newServeCmd(), newWebCmd())
	setupREPL(root, stdin, stdout, stderr)
	root.AddCommand(newAgentCmd(stdout, stderr))
	root.AddCommand(newExpCmd(stdout, stderr))
	root.AddCommand(newEvalCmd(stdout, stderr))
	root.AddCommand(newCodeCmd(stdin, stdout, stderr))
	return root
}

// noArgs and exactArgs are cobra's argument checks, returning usage errors.
func noArgs(cmd *cobra.Command, args []string) error {
	if err := cobra.NoArgs(cmd, args); err != nil {
		return usageError{err}
	}
	return nil
}

// maxArgs is cobra.MaximumNArgs, with its error reported as a usage error.
func maxArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := cobra.MaximumNArgs(n)(cmd, args); err != nil {
			return usageError{err}
		}
		return nil
	}
}

func exactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := cobra.ExactArgs(n)(cmd, args); err != nil {
			return usageError{err}
		}
		return nil
	}
}
