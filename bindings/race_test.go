//go:build race

package bindings

// raceEnabled reports that the tests run under the race detector.
const raceEnabled = true
