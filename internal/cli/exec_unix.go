//go:build unix

package cli

import (
	"fmt"
	"os"
	"syscall"
)

// execWorkbench replaces this process with the grue-workbench at path,
// given args: the same process, standard streams, signals and terminal,
// and its exit status is grue's. It returns only when the exec fails.
func execWorkbench(path string, args []string) error {
	argv := append([]string{path}, args...)
	if err := syscall.Exec(path, argv, os.Environ()); err != nil {
		return fmt.Errorf("run %s: %w", path, err)
	}
	return nil
}
