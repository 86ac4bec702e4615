package cli

import (
	"math"
	"runtime/debug"
	"testing"
)

// restoreGC puts the collector's settings back after a test changed them.
func restoreGC(t *testing.T) {
	percent := debug.SetGCPercent(100)
	debug.SetGCPercent(percent)
	limit := debug.SetMemoryLimit(-1)
	t.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
}

func TestTuneGCServerWithoutEnvironment(t *testing.T) {
	restoreGC(t)
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
	tuneGC(true)
	if got := debug.SetGCPercent(-1); got != gamePercent {
		t.Errorf("GOGC after tuneGC(true) = %d, want %d", got, gamePercent)
	}
	if got := debug.SetMemoryLimit(-1); got != serveMemoryLimit {
		t.Errorf("memory limit after tuneGC(true) = %d, want %d", got, serveMemoryLimit)
	}
}

func TestTuneGCPlayHasNoMemoryLimit(t *testing.T) {
	restoreGC(t)
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	debug.SetMemoryLimit(math.MaxInt64)
	tuneGC(false)
	if got := debug.SetGCPercent(-1); got != gamePercent {
		t.Errorf("GOGC after tuneGC(false) = %d, want %d", got, gamePercent)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("tuneGC(false) set a memory limit: %d", got)
	}
}

func TestTuneGCLeavesExplicitSettings(t *testing.T) {
	restoreGC(t)
	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	debug.SetMemoryLimit(math.MaxInt64)
	tuneGC(true)
	if got := debug.SetGCPercent(-1); got != 50 {
		t.Errorf("tuneGC overrode GOGC=50: now %d", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("tuneGC set a memory limit despite GOGC=50: %d", got)
	}

	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetGCPercent(100)
	tuneGC(true)
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("tuneGC overrode GOMEMLIMIT: now %d", got)
	}
}
