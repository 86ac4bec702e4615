package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// talesColumns are the columns of a TALES rollout, in the order
// benchmark.py (microsoft/tale-suite) gives its DataFrame.
var talesColumns = []string{
	"Step", "Score", "Max Score", "Normalized Score", "Moves",
	"Observation", "Action", "Feedback",
	"Prompt", "Response", "Thinking",
	"Token Usage", "Prompt Tokens", "Response Tokens", "Thinking Tokens",
}

// talesRowSpec is a rollout row as TALES writes it.
type talesRowSpec struct {
	Step            int      `json:"Step"`
	Score           int      `json:"Score"`
	MaxScore        int      `json:"Max Score"`
	NormalizedScore *float64 `json:"Normalized Score"`
	Moves           int      `json:"Moves"`
	Observation     string   `json:"Observation"`
	Action          string   `json:"Action"`
	Feedback        string   `json:"Feedback"`
	Prompt          any      `json:"Prompt"`
	Response        *string  `json:"Response"`
	Thinking        *string  `json:"Thinking"`
	TokenUsage      int      `json:"Token Usage"`
	PromptTokens    int      `json:"Prompt Tokens"`
	ResponseTokens  int      `json:"Response Tokens"`
	ThinkingTokens  int      `json:"Thinking Tokens"`
}

// talesSummaryKeys are the keys of the summary benchmark.py writes.
var talesSummaryKeys = []string{
	"status", "env_name", "env_params", "wandb_run_id", "wandb_url", "nb_steps", "nb_moves",
	"nb_invalid_actions", "nb_losts", "nb_wins", "nb_resets", "highscore", "max_score", "norm_score", "duration",
	"total/Env. Steps", "total/Game Moves", "total/Invalid Actions", "total/Losts", "total/Wins", "total/Resets",
	"total/Tokens", "total/Prompt Tokens", "total/Response Tokens", "total/Thinking Tokens",
	"final/Highscore", "final/Game Max Score", "final/Normalized Score", "final/Duration",
}

// keysInOrder returns the keys of a JSON object in the order written.
func keysInOrder(t *testing.T, line []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(line))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func TestExportTALES(t *testing.T) {
	dir := testRun(t)
	files := exportTo(t, dir, FormatTALES)
	if len(files) != 8 {
		t.Fatalf("wrote %d files, want a rollout and a summary for each of 4 episodes: %v", len(files), files)
	}
	rollout := files[0]
	if want := filepath.Join("tales_model", "lantern", "a0_s1_steps4.jsonl"); !strings.HasSuffix(rollout, want) {
		t.Errorf("first rollout %s, want .../%s", rollout, want)
	}
	sc := bufio.NewScanner(bytes.NewReader(read(t, rollout)))
	sc.Buffer(nil, 1<<24)
	var rows []talesRowSpec
	for sc.Scan() {
		if keys := keysInOrder(t, sc.Bytes()); !slices.Equal(keys, talesColumns) {
			t.Errorf("row columns %v, want %v", keys, talesColumns)
		}
		var row talesRowSpec
		strict(t, rollout, sc.Bytes(), &row)
		rows = append(rows, row)
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4 steps", len(rows))
	}
	r := rows[1]
	if r.Step != 2 || r.MaxScore != 60 || r.NormalizedScore == nil || r.Response == nil || r.Thinking == nil ||
		*r.Thinking != "The lantern must be somewhere." || r.TokenUsage == 0 || r.ThinkingTokens != 5 {
		t.Errorf("row 2: %+v", r)
	}
	if r.Observation != rows[0].Feedback || rows[0].Observation == "" {
		t.Errorf("a row's Observation is the text before its action: row 1 %q, row 2 %q after %q", rows[0].Observation, r.Observation, rows[0].Feedback)
	}
	if r.Action != "take lantern" && r.Action != "south" && r.Action != "look" && r.Action != "north" {
		t.Errorf("action %q: want the command played", r.Action)
	}

	var sum map[string]any
	strict(t, files[1], read(t, files[1]), &sum)
	need(t, files[1], sum, talesSummaryKeys...)
	if len(sum) != len(talesSummaryKeys) {
		t.Errorf("summary has %d keys, want %d", len(sum), len(talesSummaryKeys))
	}
	if sum["status"] != "finished" || sum["env_name"] != "lantern" || sum["env_params"] != "a0_s1_steps4" || sum["nb_steps"] != 4.0 {
		t.Errorf("summary %v", sum)
	}

	// The walkthrough's rows have no model: null Response and Thinking.
	var walk talesRowSpec
	line, _, _ := bytes.Cut(read(t, files[4]), []byte("\n"))
	strict(t, files[4], line, &walk)
	if !strings.Contains(files[4], "tales_walk") || walk.Response != nil || walk.Prompt != nil || walk.TokenUsage != 0 {
		t.Errorf("%s: walkthrough row %+v", files[4], walk)
	}
}
