//go:build !race

package agent

// raceEnabled reports that the tests run under the race detector.
const raceEnabled = false
