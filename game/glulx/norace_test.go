//go:build !race

package glulx_test

// raceEnabled reports that the tests run under the race detector.
const raceEnabled = false
