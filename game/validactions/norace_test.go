//go:build !race

package validactions_test

// raceEnabled reports that the tests run under the race detector, which
// makes the Z-machine some ten times slower.
const raceEnabled = false
