package harness

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestStatusFitsWidth: grue exp status's lines fit the terminal: a long
// host and a long stop reason are shortened with "…", and the missing
// episodes are wrapped, at 120 and at 80 columns; nothing is lost from
// the missing list but what --missing leaves out.
func TestStatusFitsWidth(t *testing.T) {
	long := strings.Repeat("the model server answered 503 Service Unavailable again ", 8)
	st := &Status{Dir: "runs/x", ConfigHash: "0123456789abcdef", Episodes: 40, Recorded: 10,
		Shards: []ShardStatus{
			{Dir: "shard-000-of-002", State: ShardFailed, Host: "node-with-a-very-long-name.cluster.example.org", Episodes: 20, Recorded: 10, Stopped: long},
			{Dir: "shard-001-of-002", State: "pending", Episodes: 20},
		}}
	for i := range 30 {
		st.Missing = append(st.Missing, EpisodeKey{Variant: "openai-gpt-4o-mini-temperature-0.7-window-5", Game: "zork1", Seed: int64(i + 1)})
	}
	for _, width := range []int{120, 80} {
		var b bytes.Buffer
		if err := st.WriteWidth(&b, 0, width); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			if n := utf8.RuneCountInString(line); n > width {
				t.Errorf("width %d: a line of %d columns:\n%s", width, n, line)
			}
		}
		if !strings.Contains(out, "…") || !strings.Contains(out, "node-with-a-very-l") {
			t.Errorf("width %d: the host and note are not shortened as expected:\n%s", width, out)
		}
		if got := strings.Count(out, "/zork1/"); got != 30 {
			t.Errorf("width %d: %d missing episodes named, want all 30:\n%s", width, got, out)
		}
	}
}
