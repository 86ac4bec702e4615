//go:build race

package validactions

// raceSlowdown scales the default time budget of a search under the race
// detector, which makes the Z-machine some ten to twenty times slower:
// the budget stands for a second of normal running, and the package's
// tests (which CI runs under the detector) see whole searches.
const raceSlowdown = 20
