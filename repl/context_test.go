package repl

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

// TestCellContext: each cell gets a live context, cancelled when the cell
// is interrupted and not by the caller's context ending after the cell.
func TestCellContext(t *testing.T) {
	// In a bubble, synctest.Wait lets any goroutine the cancel starts run
	// to its end before ctx is looked at.
	synctest.Test(t, testCellContext)
}

func testCellContext(t *testing.T) {
	var c cellContext
	if c.Err() != nil || c.Done() != nil {
		t.Fatal("before any cell, ctx is done")
	}
	parent, cancel := context.WithCancel(context.Background())
	end := c.begin(parent)
	cancel() // Ctrl-C during the cell
	select {
	case <-c.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("cancelling the cell's context did not cancel ctx")
	}
	end()
	if c.Err() == nil {
		t.Error("after the interrupted cell ended ctx is live again: a call it left running would not stop")
	}
	parent, cancel = context.WithCancel(context.Background())
	end = c.begin(parent)
	if c.Err() != nil {
		t.Error("the next cell's ctx is done")
	}
	end()
	cancel() // the terminal cancels each cell's context once it is over
	synctest.Wait()
	if c.Err() != nil {
		t.Error("ctx was cancelled after its cell ended normally: a goroutine the cell started would stop")
	}
}
