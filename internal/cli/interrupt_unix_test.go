//go:build unix

package cli

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// interruptAt is grue agent's standard output: once a line holding mark
// has been written it sends the process SIGINT, as Ctrl-C would.
type interruptAt struct {
	mark string
	mu   sync.Mutex
	buf  bytes.Buffer
	sent bool
}

func (w *interruptAt) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if !w.sent && strings.Contains(w.buf.String(), w.mark) {
		w.sent = true
		syscall.Kill(syscall.Getpid(), syscall.SIGINT)
	}
	return len(p), nil
}

// TestAgentInterruptReportsTheEpisode: Ctrl-C during an episode stops it
// and grue agent still reports what was played. Without the relay
// (notifyContext) the signal would end the test binary itself.
func TestAgentInterruptReportsTheEpisode(t *testing.T) {
	out := &interruptAt{mark: "--- step 3\n"}
	var errOut bytes.Buffer
	root := NewRoot(strings.NewReader(""), out, &errOut)
	done := make(chan int, 1)
	go func() {
		done <- Execute(root, []string{"agent", "--game", "lantern", "--policy", "random",
			"--steps", "1000000", "--max-time", "60s", "--verbose"}, &errOut)
	}()
	var code int
	select {
	case code = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("grue agent did not stop on SIGINT")
	}
	out.mu.Lock()
	said := out.buf.String()
	out.mu.Unlock()
	m := regexp.MustCompile(`(?m)^Steps: (\d+) \(stopped by (\w+)\)$`).FindStringSubmatch(said)
	if m == nil {
		t.Fatalf("no Steps line in what grue agent printed (exit %d):\n%s\nstderr: %s", code, said, errOut.String())
	}
	if steps, _ := strconv.Atoi(m[1]); m[2] != "cancelled" || steps < 3 || steps > 50 {
		t.Errorf("grue agent after SIGINT at step 3: %q, want 3 to 50 steps stopped by cancelled", m[0])
	}
	if !strings.Contains(said, "Final score: ") {
		t.Errorf("no final score in what grue agent printed after SIGINT:\n%s", said)
	}
}

// TestNotifyContext: a signal cancels the context with a cause naming it;
// stop cancels it too.
func TestNotifyContext(t *testing.T) {
	ctx, stop := notifyContext(context.Background(), syscall.SIGUSR1)
	defer stop()
	syscall.Kill(syscall.Getpid(), syscall.SIGUSR1)
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("SIGUSR1 did not cancel the context")
	}
	if cause := context.Cause(ctx); cause == nil || !strings.Contains(cause.Error(), "user defined signal 1") {
		t.Errorf("cause %v, want one naming the signal", cause)
	}

	ctx2, stop2 := notifyContext(context.Background(), syscall.SIGUSR2)
	stop2()
	stop2() // a second stop does nothing
	if ctx2.Err() != context.Canceled {
		t.Errorf("after stop: %v, want context.Canceled", ctx2.Err())
	}
}
