//go:build race

package mcp

// raceEnabled reports that the tests run under the race detector, which
// makes the server several times slower and larger.
const raceEnabled = true
