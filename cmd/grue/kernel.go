package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/grue-lab/grue/internal/cli"
	"github.com/grue-lab/grue/repl"
	"github.com/grue-lab/grue/repl/kernel"
	"github.com/grue-lab/grue/repl/workbench"
)

func newKernelCmd(stdout, stderr io.Writer) *cobra.Command {
	var o replOptions
	cmd := &cobra.Command{
		Use:   "kernel [--game STORY] [--seed N] [--model M] [--policy P] CONNECTION_FILE",
		Short: "Run grue's notebook session as a Jupyter kernel",
		Long: `Run the REPL's session (the same bindings, g, ep, ctx and magics) as a
Jupyter kernel, on the ports and with the key of CONNECTION_FILE, which
Jupyter writes when it starts the kernel. grue kernel install tells
Jupyter how to start it; you do not run grue kernel FILE yourself.

A cell's output is a stream, its value an execute_result; :table is also
an HTML table (:table --md Markdown), :plot a PNG and SVG image. An
interrupt stops the running cell, and the kernel goes on. The kernel exits
when the process that started it does (its client killed), as Jupyter's
own kernels do: it watches its parent process and $JPY_PARENT_PID.`,
		Example: `  grue kernel install --user
  jupyter console --kernel grue`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return cli.UsageError{Err: errors.New("want one CONNECTION_FILE (grue kernel install writes the kernelspec that passes it)")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.check(); err != nil {
				return err
			}
			conn, err := kernel.ReadConnection(args[0])
			if err != nil {
				return err
			}
			quietInterpreterLog()
			return runKernel(cmd.Context(), conn, o, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.game, "game", "", "the session's game g: a story name or path (default: the built-in story)")
	f.Int64Var(&o.seed, "seed", 1, "seed of the game's random numbers")
	o.agentFlags(cmd)
	cmd.AddCommand(newKernelInstallCmd(stdout))
	return cmd
}

// runKernel serves conn with a workbench session until Jupyter shuts the
// kernel down. SIGINT interrupts the running cell rather than ending the
// kernel, for a client that interrupts with a signal.
func runKernel(ctx context.Context, conn kernel.Connection, o replOptions, stderr io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	// A kernel whose client was killed exits, as ipykernel's does.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case why := <-kernel.WatchParent(ctx, kernel.ParentFromEnv(), kernel.ParentPoll):
			fmt.Fprintf(stderr, "grue kernel: %s: shutting down\n", why)
			cancel()
		case <-ctx.Done():
		}
	}()
	var ws *workbench.Session
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	return kernel.Run(ctx, conn, kernel.Options{
		Start: func(stdout, errw io.Writer, stdin io.Reader) (*repl.Session, error) {
			s, err := workbench.New(workbench.Options{
				// A cell's stdin is the front end's when its request
				// allows it, else at end of file (not a hang).
				REPL: repl.Options{Stdout: stdout, Stderr: errw, Stdin: stdin},
				Game: o.game, Seed: o.seed, Model: o.model, BaseURL: o.baseURL, Policy: o.policy,
				Version: cli.Version(),
			})
			if err != nil {
				return nil, err
			}
			ws = s
			return s.Session, nil
		},
		Close:   func() error { return ws.Close() },
		Version: cli.Version(),
		Log:     stderr,
	}, func(k *kernel.Kernel) {
		go func() {
			for range sigs {
				k.Interrupt()
			}
		}()
	})
}

func newKernelInstallCmd(stdout io.Writer) *cobra.Command {
	var (
		user   bool
		prefix string
		name   string
		o      replOptions
	)
	cmd := &cobra.Command{
		Use:   "install [--user | --prefix DIR] [--name NAME] [--game STORY] [--seed N] [--model M] [--policy P]",
		Short: "Tell Jupyter how to start grue's kernel: write its kernelspec",
		Long: `Write the kernelspec (kernel.json) of grue's kernel where Jupyter looks
for kernels: the user's kernels folder (--user, the default:
$JUPYTER_DATA_DIR/kernels, else ~/.local/share/jupyter/kernels, or
~/Library/Jupyter/kernels on macOS), or PREFIX/share/jupyter/kernels
(--prefix, for a virtual environment or conda prefix). The kernel is
NAME (default grue), shown as "Go (grue)"; it runs this grue, by its
absolute path, with the --game, --seed, --model and --policy given here.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.check(); err != nil {
				return err
			}
			if user && prefix != "" {
				return cli.UsageError{Err: errors.New("--user and --prefix: give one")}
			}
			exe, err := os.Executable()
			if err == nil {
				exe, err = filepath.EvalSymlinks(exe)
			}
			if err != nil {
				return fmt.Errorf("kernel install: the path of grue: %w", err)
			}
			dir := kernel.PrefixDir(prefix)
			if prefix == "" {
				if dir, err = kernel.UserDir(); err != nil {
					return err
				}
			} else if dir, err = filepath.Abs(dir); err != nil {
				return fmt.Errorf("kernel install: %w", err)
			}
			var flags []string
			fs := cmd.Flags()
			for _, f := range []struct{ name, value string }{{"game", o.game}, {"seed", strconv.FormatInt(o.seed, 10)}, {"model", o.model}, {"base-url", o.baseURL}, {"policy", o.policy}} {
				if fs.Changed(f.name) {
					flags = append(flags, "--"+f.name+"="+f.value)
				}
			}
			folder, err := kernel.Install(dir, name, kernel.NewSpec(exe, flags))
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "installed kernel %s (%s) in %s\n", name, kernel.DisplayName, folder)
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&user, "user", false, "install in the user's kernels folder (the default)")
	f.StringVar(&prefix, "prefix", "", "install in PREFIX/share/jupyter/kernels")
	f.StringVar(&name, "name", kernel.DefaultName, "the kernel's name, its folder under kernels/")
	f.StringVar(&o.game, "game", "", "the kernel's game g")
	f.Int64Var(&o.seed, "seed", 1, "seed of the game's random numbers")
	o.agentFlags(cmd)
	return cmd
}
