// Package cli is grue's command line: the command tree's root, how errors
// become exit statuses, and the commands play, games, serve, agent and
// version. Command grue adds the REPL, run, web, exp, eval and code to the
// same root.
package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// Exit statuses.
const (
	ExitOK    = 0
	ExitError = 1 // the command failed: a bad story file, a machine error
	ExitUsage = 2 // the command line was wrong: an unknown flag, a missing argument
)

// UsageError marks an error in the command line itself: Execute prints a
// hint to the command's help and exits with status 2.
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }
func (e UsageError) Unwrap() error { return e.Err }

// ExitStatus is an error that asks for a given exit status without a
// message: a script's os.Exit.
type ExitStatus struct{ Code int }

func (e ExitStatus) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// errDone ends a command line whose work was all done before its
// command's RunE: grue --version.
var errDone = errors.New("done")

// Execute runs the command tree root on the command line args and returns
// the exit status. Errors are printed to stderr as "grue SUBCOMMAND:
// message".
func Execute(root *cobra.Command, args []string, stderr io.Writer) int {
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if err == nil {
		return ExitOK
	}
	if errors.Is(err, errDone) {
		return ExitOK
	}
	var es ExitStatus
	if errors.As(err, &es) {
		return es.Code // a script's os.Exit: it said what it had to
	}
	if cmd == nil {
		cmd = root
	}
	fmt.Fprintf(stderr, "%s: %v\n", cmd.CommandPath(), err)
	var ue UsageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
		return ExitUsage
	}
	return ExitError
}

// NewRoot builds the root of the command tree with the commands of this
// package. Cobra gives the subcommands, flag parsing, help and usage
// errors; grue prints errors itself (see Execute).
func NewRoot(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "grue",
		Short: "A workbench for studying LLM agents in text adventures",
		Long: `grue is a workbench for people who study LLM agents that play text
adventures: a Z-machine that runs real story files (Zork and every Inform
game; grue play, and grue games to see what grue finds in one), an MCP
game server (grue serve), a ReAct agent (grue agent), an experiment
harness (grue exp, whose results grue exp export writes for TALES, Harbor
and Inspect), a coding agent (grue code) with its evals (grue eval) and a
notebook-style REPL (grue run for a saved notebook).

Without a subcommand grue starts the notebook REPL: Go, interpreted, with
grue's packages and a game at hand (:help inside says more).`,
		Args: NoArgs,
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
		return UsageError{flagError(err)}
	})
	// grue completion bash|zsh|fish|powershell prints a shell's
	// completion script (cobra's); grue --version prints what grue
	// version does. The flag is grue's own rather than cobra's, whose
	// version output takes a text/template: any template execution
	// reachable in a program stops the linker from dropping unused
	// methods, and grue's binary would be half as large again.
	root.Flags().BoolP("version", "v", false, "print grue's version")
	root.PreRunE = func(cmd *cobra.Command, args []string) error {
		if v, _ := cmd.Flags().GetBool("version"); v {
			if err := printVersion(cmd); err != nil {
				return err
			}
			return errDone
		}
		return nil
	}
	root.AddCommand(newVersionCmd(), newPlayCmd(), newGamesCmd(), newServeCmd())
	root.AddCommand(newAgentCmd(stdout, stderr))
	return root
}

// NoArgs is cobra.NoArgs, with its error reported as a usage error.
func NoArgs(cmd *cobra.Command, args []string) error {
	if err := cobra.NoArgs(cmd, args); err != nil {
		return UsageError{err}
	}
	return nil
}

// MaxArgs is cobra.MaximumNArgs, with its error reported as a usage error.
func MaxArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := cobra.MaximumNArgs(n)(cmd, args); err != nil {
			return UsageError{err}
		}
		return nil
	}
}

// ExactArgs is cobra.ExactArgs, with its error reported as a usage error.
func ExactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := cobra.ExactArgs(n)(cmd, args); err != nil {
			return UsageError{err}
		}
		return nil
	}
}
