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
// that is cancelled when the process gets one of sigs, a function that
// cancels it and stops relaying the signals, and a channel closed once
// the signals are relayed.
//
// signal.NotifyContext cost grue serve an eighth of its start-up
// (docs/performance.md, Start-up): its signal.Notify waits while the Go
// runtime starts a thread of its own for signals, and its stop,
// signal.Stop, waits for that thread to go idle. Here both run on a
// goroutine of their own, beside the command instead of before and after
// it. A command waits on ready before the work that a signal must stop
// cleanly (grue serve before it says where it listens, grue agent before
// the episode); a signal that comes before that has its default action
// (the process ends), as one that comes while the binary initialises. A
// signal that comes in the instant after stop returns, before
// signal.Stop has run, is dropped, as one just before stop would be.
func notifyContext(parent context.Context, sigs ...os.Signal) (ctx context.Context, stop context.CancelFunc, ready <-chan struct{}) {
	ctx, cancel := context.WithCancelCause(parent)
	c := make(chan os.Signal, 1)
	relayed, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		signal.Notify(c, sigs...)
		close(relayed)
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
	}), relayed
}
