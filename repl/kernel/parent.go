package kernel

import (
	"context"
	"os"
	"strconv"
	"strings"
	"time"
)

// ParentEnv is the environment variable in which Jupyter's client
// (jupyter_client's local provisioner) passes a kernel its own process
// id, for the kernel to exit when it dies (ipykernel's parent_handle).
const ParentEnv = "JPY_PARENT_PID"

// ParentPoll is how often WatchParent looks at the parent: every second,
// as ipykernel's ParentPollerUnix does.
const ParentPoll = time.Second

// ParentFromEnv returns the process id in $JPY_PARENT_PID, 0 when it is
// unset or not a process id (1, init, is never watched: it never goes
// away, as ipykernel's init_poller says).
func ParentFromEnv() int {
	pid, err := strconv.Atoi(strings.TrimSpace(os.Getenv(ParentEnv)))
	if err != nil || pid <= 1 {
		return 0
	}
	return pid
}

// WatchParent returns a channel that receives why, once the process that
// started the kernel has gone, so that a kernel whose client was killed
// does not run on forever (ipykernel exits then). It looks every poll:
// the parent has gone when the kernel's parent process is no longer the
// one it started with (an orphan is reparented, to init or a subreaper:
// ipykernel's getppid() == 1, which a subreaper would hide), or when
// jupyterParent (ParentFromEnv; 0 not to watch it) no longer exists, which
// also covers a kernel started through a wrapper. A kernel whose parent
// is init from the start watches only jupyterParent. The channel gets
// nothing once ctx ends, and nothing on a system where grue cannot watch
// processes (not Unix).
func WatchParent(ctx context.Context, jupyterParent int, poll time.Duration) <-chan string {
	out := make(chan string, 1)
	start := os.Getppid()
	go func() {
		t := time.NewTicker(poll)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if why := parentGone(start, jupyterParent); why != "" {
				out <- why
				return
			}
		}
	}()
	return out
}
