package testgames

import (
	"math/rand"
	"strings"
)

// scriptMoves are the commands every random script draws from besides the
// game's own words: movement, the meta verbs, and undo.
var scriptMoves = []string{
	"look", "north", "south", "east", "west", "northeast", "southwest", "up", "down",
	"in", "out", "inventory", "take all", "drop all", "wait", "score", "undo", "undo",
	"again", "examine me", "",
}

// scriptVerbs are put before a word of the game's dictionary.
var scriptVerbs = []string{"examine", "take", "drop", "open", "close", "push", "read", "eat", "enter", "search"}

// RandomScript makes a script of about n commands from seed, for a game
// whose dictionary holds words (each as the dictionary spells it, padding
// and all): two blank lines first, to get past "press a key" screens; then
// moves, meta verbs and undo, and one time in three a verb applied to a
// word of the dictionary (of three letters or more, letters only); "score"
// last. The same words and seed give the same script, which the
// differential tests and the benchmarks against dfrotz rely on.
func RandomScript(words []string, seed int64, n int) []string {
	var usable []string
	for _, w := range words {
		w = strings.TrimSpace(w)
		if len(w) > 2 && strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") == "" {
			usable = append(usable, w)
		}
	}
	rng := rand.New(rand.NewSource(seed))
	lines := []string{"", ""}
	for len(lines) < n {
		if len(usable) > 0 && rng.Intn(3) == 0 {
			lines = append(lines, scriptVerbs[rng.Intn(len(scriptVerbs))]+" "+usable[rng.Intn(len(usable))])
			continue
		}
		lines = append(lines, scriptMoves[rng.Intn(len(scriptMoves))])
	}
	return append(lines, "score")
}
