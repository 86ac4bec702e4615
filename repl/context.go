package repl

import (
	"context"
	"sync"
	"time"
)

// CtxVar is the name of the session variable that holds the context of
// the running cell: a long call given ctx stops when Ctrl-C interrupts
// the cell.
const CtxVar = "ctx"

// cellContext is the session's ctx: a context.Context that stands for the
// cell that runs. Each cell gets a fresh context, cancelled when the cell
// is interrupted; it stays as it is after the cell, until the next one
// starts. So a call into compiled code that an interrupted cell leaves
// running in the background (a long run given ctx, on Ctrl-C) sees ctx done
// and stops, and a goroutine started by a cell that ended normally finds
// ctx alive.
type cellContext struct {
	mu  sync.Mutex
	ctx context.Context
}

// begin gives the cell about to run its context, which parent's end
// cancels while the cell runs; end, called when the cell is over, cuts
// that link, so that parent ending later (the terminal cancels each cell's
// context once it is done) does not cancel it.
func (c *cellContext) begin(parent context.Context) (end func()) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	stop := context.AfterFunc(parent, cancel)
	c.mu.Lock()
	c.ctx = ctx
	c.mu.Unlock()
	return func() { stop() }
}

func (c *cellContext) get() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ctx == nil {
		return context.Background()
	}
	return c.ctx
}

func (c *cellContext) Deadline() (time.Time, bool) { return c.get().Deadline() }
func (c *cellContext) Done() <-chan struct{}       { return c.get().Done() }
func (c *cellContext) Err() error                  { return c.get().Err() }
func (c *cellContext) Value(key any) any           { return c.get().Value(key) }
func (c *cellContext) String() string              { return "the running cell's context (Ctrl-C cancels it)" }
