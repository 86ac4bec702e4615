package main

import (
	"context"
	"time"
)

// waitUntil polls cond until it holds or ctx is done, and reports whether
// it held: the tests wait for what a user would see (records written, a
// prompt shown), not for a time that a busy machine may overrun.
func waitUntil(ctx context.Context, cond func() bool) bool {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-tick.C:
		case <-ctx.Done():
			return cond()
		}
	}
	return true
}
