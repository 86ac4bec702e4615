//go:build !unix

package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
)

// execWorkbench runs the grue-workbench at path with args as a child
// process on the same standard streams, and returns its exit status as an
// ExitStatus (nil for 0). Where there is no exec(2), grue stays as the
// parent and ignores interrupts, which reach the child from the console.
func execWorkbench(path string, args []string) error {
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	signal.Ignore(os.Interrupt)
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ExitStatus{ee.ExitCode()}
	}
	if err != nil {
		return fmt.Errorf("run %s: %w", path, err)
	}
	return ExitStatus{0}
}
