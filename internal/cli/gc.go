package cli

import (
	"os"
	"runtime/debug"
)

// gamePercent is the GOGC that play, agent and serve run with unless the
// environment sets GOGC: a game's live heap is small (the story, the
// decoded code, the undo states), and at the default GOGC=100 the
// collector runs a cycle every few megabytes of undo states (5 % of the
// instructions of a heavy Inform game) and, at start-up, several cycles
// before the first prompt (docs/performance.md).
const gamePercent = 400

// serveMemoryLimit is the soft memory limit grue serve sets unless the
// environment sets GOMEMLIMIT or GOGC. With GOGC=400 the heap may grow to
// five times the live data; the limit bounds that for a loaded server
// (1000 sessions of 100 undo states each can hold gigabytes): below about
// 800 MB of live data the collector runs as at GOGC=400, up to about
// 2 GB it runs more often but no more often than at GOGC=100, and a
// server with more live data than that should set GOGC or GOMEMLIMIT.
const serveMemoryLimit = 4 << 30

// tuneGC sets the collector for a game-playing command: GOGC=400 when the
// environment does not set GOGC, and, for a long-running server, the soft
// memory limit [serveMemoryLimit] when it sets neither GOGC nor
// GOMEMLIMIT. An explicit GOGC is left alone, with whatever limit it
// comes with.
func tuneGC(server bool) {
	if os.Getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(gamePercent)
	if server && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serveMemoryLimit)
	}
}
