package harness

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func rec(variant, game string, seed int64, score int) EpisodeRecord {
	return EpisodeRecord{
		Variant: variant, Game: game, Seed: seed, LLMSeed: seed + 1000,
		FinalScore: score, MaxScore: 100, Moves: 20, Steps: 20,
		FirstPointStep: -1, Attempts: 1,
		Started:  time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
		Finished: time.Date(2025, 1, 2, 3, 5, 5, 0, time.UTC),
	}
}

func jsonLine(t *testing.T, r EpisodeRecord) string {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

func writeRun(t *testing.T, content string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ResultsFile), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLoadResultsSkipsCorruptAndTruncatedLines(t *testing.T) {
	good1 := jsonLine(t, rec("a", "zork1", 1, 10))
	good2 := jsonLine(t, rec("a", "zork1", 2, 20))
	good3 := jsonLine(t, rec("b", "zork1", 1, 30))
	cut := good3[:len(good3)/2] // a crash mid-write: no newline, half a record
	content := good1 + "this is not json\n" + good2 + "\n" + `{"variant":"","game":"x"}` + "\n" + good3 + cut
	dir := writeRun(t, content)

	rs, err := LoadResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Len() != 3 {
		t.Fatalf("loaded %d records, want the 3 good ones", rs.Len())
	}
	file := filepath.Join(dir, ResultsFile)
	var got []string
	for _, p := range rs.Problems {
		got = append(got, p.String())
	}
	wantLines := []string{file + ":2: skipped", file + ":5: skipped: record has no variant", file + ":7: skipped"}
	if len(got) != len(wantLines) {
		t.Fatalf("problems %q, want %d", got, len(wantLines))
	}
	for i, w := range wantLines {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("problem %d = %q, want it to start with %q", i, got[i], w)
		}
	}
}

func TestLoadResultsDuplicatesKeepTheLast(t *testing.T) {
	// a/zork1/1 failed and was played again: the later record supersedes
	// the failed one, in its place, with no problem reported. b/zork1/1
	// was recorded twice although it had not failed: a problem.
	first := rec("a", "zork1", 1, 10)
	first.Error = "model timed out"
	second := rec("a", "zork1", 1, 25)
	dir := writeRun(t, jsonLine(t, first)+jsonLine(t, rec("a", "zork1", 2, 5))+jsonLine(t, second)+
		jsonLine(t, rec("b", "zork1", 1, 3))+jsonLine(t, rec("b", "zork1", 1, 4)))

	rs, err := LoadResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Len() != 3 {
		t.Fatalf("loaded %d records, want 3", rs.Len())
	}
	if k := rs.Records[0].Key(); k != (EpisodeKey{"a", "zork1", 1}) {
		t.Errorf("the first record is %s, want a/zork1/1 where its failed record was", k)
	}
	r, ok := rs.Lookup(EpisodeKey{"a", "zork1", 1})
	if !ok || r.FinalScore != 25 || r.Failed() {
		t.Errorf("a/zork1/1 = %+v, want the later record (score 25, no error)", r)
	}
	if b, _ := rs.Lookup(EpisodeKey{"b", "zork1", 1}); b.FinalScore != 4 {
		t.Errorf("b/zork1/1 scored %d, want the later record's 4", b.FinalScore)
	}
	if len(rs.Problems) != 1 || rs.Problems[0].Line != 5 || !strings.Contains(rs.Problems[0].Msg, "duplicate b/zork1/1") {
		t.Errorf("problems %v, want one duplicate, b/zork1/1 at line 5", rs.Problems)
	}
}

func TestLoadResultsSeveralDirectoriesAndFilters(t *testing.T) {
	d1 := writeRun(t, jsonLine(t, rec("b", "zork1", 1, 10))+jsonLine(t, rec("b", "lantern", 1, 3)))
	d2 := writeRun(t, jsonLine(t, rec("a", "zork1", 1, 12))+jsonLine(t, rec("a", "lantern", 1, 4)))
	rs, err := LoadResults(d1, filepath.Join(d2, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	if got := rs.Variants(); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("Variants = %v", got)
	}
	if got := rs.Games(); !slices.Equal(got, []string{"lantern", "zork1"}) {
		t.Errorf("Games = %v", got)
	}
	if got := rs.ByVariant("a").ByGame("zork1"); got.Len() != 1 || got.Records[0].FinalScore != 12 {
		t.Errorf("a on zork1: %+v", got.Records)
	}
	if got := rs.ByGame("lantern", "zork1").Len(); got != 4 {
		t.Errorf("both games: %d records, want 4", got)
	}

	if _, err := LoadResults(t.TempDir()); err == nil || !strings.Contains(err.Error(), ResultsFile) {
		t.Errorf("directory without results: err %v, want one naming %s", err, ResultsFile)
	}
	if _, err := LoadResults(); err == nil {
		t.Error("no directories: no error")
	}
}

func TestAppendRecordAfterACrash(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ResultsFile)
	if err := AppendRecord(path, rec("a", "zork1", 1, 10)); err != nil {
		t.Fatal(err)
	}
	// A run killed mid-write leaves half a line behind.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"variant":"a","game":"zork1","se`)
	f.Close()
	// The resumed run appends the next record: it must not be glued to the
	// cut line.
	if err := AppendRecord(path, rec("a", "zork1", 2, 20)); err != nil {
		t.Fatal(err)
	}
	rs, err := LoadResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := rs.Lookup(EpisodeKey{"a", "zork1", 2}); !ok || rs.Len() != 2 {
		t.Errorf("after the crash and a resume: %d records %v, want both good ones", rs.Len(), rs.Records)
	}
	if len(rs.Problems) != 1 || rs.Problems[0].Line != 2 {
		t.Errorf("problems %v, want the cut line 2", rs.Problems)
	}
	if err := AppendRecord(path, EpisodeRecord{Game: "zork1"}); err == nil {
		t.Error("a record without a variant was appended")
	}
}

func TestRecordRoundTrip(t *testing.T) {
	r := rec("a", "zork1", 3, 7)
	r.ScoreByStep = []int{0, 0, 5, 7}
	r.Locations = []string{"West of House", "North of House"}
	r.LocationsVisited = 2
	r.Tokens.PromptTokens, r.Tokens.CompletionTokens, r.Tokens.TotalTokens = 100, 20, 120
	rs, err := ReadResults(strings.NewReader(jsonLine(t, r)), "mem")
	if err != nil {
		t.Fatal(err)
	}
	got := rs.Records[0]
	if got.Tokens != r.Tokens || !slices.Equal(got.ScoreByStep, r.ScoreByStep) || !got.Started.Equal(r.Started) {
		t.Errorf("round trip changed the record: %+v", got)
	}
	var fields map[string]any
	json.Unmarshal([]byte(jsonLine(t, r)), &fields)
	for _, k := range []string{"variant", "llm_seed", "final_score", "max_score", "first_point_step", "invalid_actions", "score_by_step", "duration_ms", "locations_visited"} {
		if _, ok := fields[k]; !ok {
			t.Errorf("JSON has no %q field: %v", k, fields)
		}
	}
	if got.ScoreAt(0) != 0 || got.ScoreAt(3) != 5 || got.ScoreAt(99) != 7 {
		t.Errorf("ScoreAt: %d %d %d, want 0 5 7", got.ScoreAt(0), got.ScoreAt(3), got.ScoreAt(99))
	}
	if p, ok := got.PercentOfMax(); !ok || p != 7 {
		t.Errorf("PercentOfMax = %v %v, want 7", p, ok)
	}
}

// TestLoadResultsWithoutNewFields: a results file written before victory
// and estimated_tokens were recorded still loads, as no victory and no
// estimate.
func TestLoadResultsWithoutNewFields(t *testing.T) {
	old := `{"variant":"random","game":"zork1","seed":1,"llm_seed":7,"final_score":0,"max_score":350,"moves":40,"steps":40,"game_completed":true,"locations_visited":3,"first_point_step":-1,"invalid_actions":2,"tokens":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0},"cost":0,"duration_ms":120,"attempts":1,"started":"2025-01-02T03:04:05Z","finished":"2025-01-02T03:04:06Z"}` + "\n"
	rs, err := LoadResults(writeRun(t, old))
	if err != nil {
		t.Fatal(err)
	}
	if rs.Len() != 1 || len(rs.Problems) != 0 {
		t.Fatalf("loaded %d records, problems %v; want the one record", rs.Len(), rs.Problems)
	}
	r := rs.Records[0]
	if !r.GameCompleted || r.Victory || r.EstimatedTokens != 0 {
		t.Errorf("old record: completed %v victory %v estimated %d; want completed, no victory, no estimate", r.GameCompleted, r.Victory, r.EstimatedTokens)
	}
	c, err := Compare(rs, "", CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if row, _ := c.Row("random", "zork1"); row.Won != 0 || row.Ended != 1 {
		t.Errorf("old record compared: won %d ended %d, want a game that ended without a win", row.Won, row.Ended)
	}

	// A new record round-trips both fields.
	n := rec("walk", "lantern", 1, 60)
	n.GameCompleted, n.Victory, n.EstimatedTokens = true, true, 99
	line := jsonLine(t, n)
	if !strings.Contains(line, `"victory":true`) || !strings.Contains(line, `"estimated_tokens":99`) {
		t.Errorf("record line lacks victory or estimated_tokens: %s", line)
	}
	rs, err = LoadResults(writeRun(t, line))
	if err != nil || rs.Len() != 1 || !rs.Records[0].Victory || rs.Records[0].EstimatedTokens != 99 {
		t.Errorf("round trip: %v %+v", err, rs)
	}
}

// TestTimesToTheMillisecond: a record is written with its times in UTC
// to the millisecond, and one written by the previous grue, with
// nanoseconds and a zone offset, still loads at the same instant.
func TestTimesToTheMillisecond(t *testing.T) {
	old := `{"variant":"random","game":"zork1","seed":1,"llm_seed":7,"final_score":0,"max_score":350,"moves":40,"steps":40,"game_completed":false,"locations_visited":3,"first_point_step":-1,"invalid_actions":0,"tokens":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0},"cost":0,"duration_ms":120,"attempts":1,"started":"2026-11-20T09:15:02.123456789+01:00","finished":"2026-11-20T09:15:02.243987654+01:00"}` + "\n"
	rs, err := LoadResults(writeRun(t, old))
	if err != nil || rs.Len() != 1 {
		t.Fatalf("old record: %v, %d records, problems %v", err, rs.Len(), rs.Problems)
	}
	r := rs.Records[0]
	want := time.Date(2026, 11, 20, 8, 15, 2, 123456789, time.UTC)
	if !r.Started.Equal(want) {
		t.Errorf("started %v, want %v", r.Started, want)
	}
	line := jsonLine(t, r)
	if !strings.Contains(line, `"started":"2026-11-20T08:15:02.123Z"`) || !strings.Contains(line, `"finished":"2026-11-20T08:15:02.243Z"`) {
		t.Errorf("record written again: want UTC times to the millisecond:\n%s", line)
	}
}
