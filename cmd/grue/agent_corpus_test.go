package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/grue-lab/grue/internal/testgames"
)

// corpusMaxScores is the maximum score each corpus game with a score
// names in its own SCORE reply (or its end-of-game message, for the
// Phoenix games BrandX and Parc).
var corpusMaxScores = map[string]int{
	"BrandX": 300, "Parc": 400, "break-in": 150, "building": 250, "bunny": 60, "candy": 41,
	"cavetrip": 500, "death": 100, "fable": 50, "lily": 10, "mansion": 68, "minster": 50,
	"parallel": 150, "sherbet": 30, "spot": 1000,
}

// TestAgentExplorerMaxScoreCorpus runs "grue agent --policy explorer
// --json" on every corpus game that keeps a score and checks the
// max_score it reports, after 10 steps (3 with -short): the maximum is
// known once the game is past its opening screens. docs/games.md gives
// the same check over 100 steps, from the command line.
func TestAgentExplorerMaxScoreCorpus(t *testing.T) {
	t.Setenv("GRUE_GAMES", filepath.Dir(filepath.Dir(testgames.Path(t, filepath.Join("corpus", "candy.z5")))))
	steps := "10"
	if testing.Short() {
		steps = "3"
	}
	for name, want := range corpusMaxScores {
		t.Run(name, func(t *testing.T) {
			out, errOut, code := grueAgent(t, "--game", "corpus/"+name, "--policy", "explorer", "--steps", steps, "--json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var res struct {
				MaxScore   int    `json:"max_score"`
				FinalScore int    `json:"final_score"`
				Error      string `json:"error"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("%v in %q", err, out)
			}
			if res.MaxScore != want || res.Error != "" || res.FinalScore < 0 || res.FinalScore > want {
				t.Errorf("max_score %d (final %d, error %q), want %d", res.MaxScore, res.FinalScore, res.Error, want)
			}
		})
	}
}
