//go:build !race

package validactions

// raceSlowdown scales the default time budget of a search under the race
// detector (budget_race.go); 1 otherwise.
const raceSlowdown = 1
