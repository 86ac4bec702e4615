package harness

// Benchmark is what a run of a published benchmark's protocol (grue
// bench; package harness/bench) records in its manifest: the protocol
// and its source, each of the protocol's games as it was found among the
// user's story files, and every way in which grue's run differs from the
// protocol's own harness.
type Benchmark struct {
	// Protocol is the protocol's name ("tales", "textquests",
	// "agentboard"); Source cites where its rules were read.
	Protocol string `json:"protocol"`
	Source   string `json:"source"`
	// Games are the protocol's games, played or not.
	Games []BenchmarkGame `json:"games"`
	// Deviations are the protocol's rules grue did not follow, and the
	// values it could not know, one sentence each.
	Deviations []string `json:"deviations,omitempty"`
}

// The status of a protocol's game in a run (BenchmarkGame.Status).
const (
	// GamePlayed: a story file was found and played.
	GamePlayed = "played"
	// GameMissing: no story file of the game was found.
	GameMissing = "missing"
	// GameDifferent: a file by the game's name was found, but it is not
	// the file the protocol plays (another release): not played.
	GameDifferent = "different file"
)

// BenchmarkGame is one of a protocol's games in a run.
type BenchmarkGame struct {
	// Name is the protocol's name for the game.
	Name string `json:"name"`
	// Status is GamePlayed, GameMissing or GameDifferent.
	Status string `json:"status"`
	// File is the story file played (GamePlayed) or found by name
	// (GameDifferent), as given; MD5 its content's MD5, and WantMD5 the
	// one the protocol lists ("" when it lists none).
	File    string `json:"file,omitempty"`
	MD5     string `json:"md5,omitempty"`
	WantMD5 string `json:"want_md5,omitempty"`
	// Seeds are the seeds the game is played from.
	Seeds []int64 `json:"seeds,omitempty"`
	// MaxScore is the maximum the protocol states for the game (0 when it
	// states none; the game's own is in the records).
	MaxScore int `json:"max_score,omitempty"`
	// Note says more: why a game is missing, how a file was matched.
	Note string `json:"note,omitempty"`
	// Unread lists what grue could not read of a played game when the
	// run was planned (UnreadMaxScore, UnreadEnding); the run's
	// Deviations say each in a sentence.
	Unread []string `json:"unread,omitempty"`
}

// What grue could not read of a played game (BenchmarkGame.Unread).
const (
	// UnreadMaxScore: grue read no maximum score from the game, and the
	// protocol states none: its normalised score is unknown.
	UnreadMaxScore = "max score"
	// UnreadEnding: grue knows no end flag of the game (the catalog does
	// not know it and no Inform deadflag was found): it tells the game's
	// end only from its text.
	UnreadEnding = "ending"
)
