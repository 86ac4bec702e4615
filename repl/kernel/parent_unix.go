//go:build unix

package kernel

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// parentGone says why the kernel's parent has gone ("" while it has
// not): its parent process changed from start, or the process
// jupyterParent no longer exists.
func parentGone(start, jupyterParent int) string {
	if now := os.Getppid(); start > 1 && now != start {
		return fmt.Sprintf("its parent process %d exited (the kernel's parent is now %d)", start, now)
	}
	if jupyterParent > 0 && errors.Is(syscall.Kill(jupyterParent, 0), syscall.ESRCH) {
		return fmt.Sprintf("its client's process %d ($%s) exited", jupyterParent, ParentEnv)
	}
	return ""
}
