package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
)

// notifyContext is signal.NotifyContext for the commands whose start-up
// is measured (grue agent and grue serve): it returns a copy of parent
// that is cancelled when the process gets one of sigs, and a function
// that cancels it and stops relaying the signals.
//
// signal.NotifyContext's stop calls signal.Stop, which waits for the Go
// runtime's signal thread to go idle; grue serve, which stops at once when
// its input ends, started 0.3-0.9 ms faster without that wait
// (the ninth start-up round in docs/performance.md's history, `git show 7485481:docs/performance.md`). Here the goroutine that
// relays the signals calls signal.Stop itself once stop has returned, and
// a process that exits meanwhile does not wait for it. A signal that comes
// in that instant, after stop and before signal.Stop, is dropped, as one
// just before stop would be.
func notifyContext(parent context.Context, sigs ...os.Signal) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	c := make(chan os.Signal, 1)
	signal.Notify(c, sigs...)
	stopped := make(chan struct{})
	go func() {
		defer signal.Stop(c)
		select {
		case s := <-c:
			cancel(fmt.Errorf("%v signal received", s))
			<-stopped // later signals are dropped until stop, as NotifyContext's
		case <-stopped:
		}
	}()
	return ctx, sync.OnceFunc(func() {
		cancel(context.Canceled)
		close(stopped)
	})
}
