package game

import (
	"strings"
	"testing"

	"github.com/grue-lab/grue/internal/testgames"
)

// An iFiction record as Inform 7 writes it into a Blorb file.
const rulesIFiction = `<?xml version="1.0" encoding="UTF-8"?>
<ifindex version="1.0" xmlns="http://babel.ifarchive.org/protocol/iFiction/">
  <story>
    <identification>
      <ifid>3F2504E0-4F89-11D3-9A0C-0305E82C3301</ifid>
      <format>zcode</format>
    </identification>
    <bibliographic>
      <title>The Rules   Room</title>
      <author>A. N. Author</author>
      <headline>An interactive test</headline>
      <firstpublished>2026</firstpublished>
    </bibliographic>
  </story>
</ifindex>`

// openBlorb opens the rules story packaged in a Blorb file whose IFmd
// chunk is meta (none when nil).
func openBlorb(t *testing.T, meta []byte) *Game {
	t.Helper()
	var after []testgames.Chunk
	if meta != nil {
		after = append(after, testgames.Chunk{Type: "IFmd", Data: meta})
	}
	return openRulesAs(t, func(story []byte) []byte { return testgames.Blorb(story, "ZCOD", nil, after) })
}

// A game from a Blorb file reports what its iFiction record says, and
// takes its title from it before the banner.
func TestReportBibliographic(t *testing.T) {
	r := openBlorb(t, []byte(rulesIFiction)).Report()
	want := Bibliographic{IFID: "3F2504E0-4F89-11D3-9A0C-0305E82C3301", Title: "The Rules Room",
		Author: "A. N. Author", Headline: "An interactive test", FirstPublished: "2026"}
	if r.Bibliographic == nil || *r.Bibliographic != want {
		t.Errorf("bibliographic %+v, want %+v", r.Bibliographic, want)
	}
	if r.Title != "The Rules Room" || !strings.Contains(r.TitleFrom, "iFiction") {
		t.Errorf("title %q from %q, want the record's", r.Title, r.TitleFrom)
	}

	// Without a record, or with one grue cannot read, the banner names it.
	banner := openRules(t).Report()
	for _, meta := range [][]byte{nil, []byte("<ifindex><story>"), []byte("not XML at all"), []byte("<ifindex></ifindex>")} {
		r := openBlorb(t, meta).Report()
		if r.Bibliographic != nil || r.Title != banner.Title || r.TitleFrom != banner.TitleFrom {
			t.Errorf("record %q: bibliographic %+v, title %q from %q; want none, and %q from %q",
				meta, r.Bibliographic, r.Title, r.TitleFrom, banner.Title, banner.TitleFrom)
		}
	}
}

// A record's fields are bounded: a hostile file cannot fill a report.
func TestIFictionFieldsBounded(t *testing.T) {
	long := strings.Repeat("x", 5000)
	b, ok := parseIFiction([]byte("<ifindex><story><bibliographic><title>" + long + "</title><author>\n  Ann \t Bee\n</author></bibliographic></story></ifindex>"))
	if !ok || len([]rune(b.Title)) != maxFieldLen || !strings.HasSuffix(b.Title, "…") || b.Author != "Ann Bee" {
		t.Errorf("parsed %d runes of title (%q...), author %q", len([]rune(b.Title)), b.Title[:10], b.Author)
	}
}

func FuzzIFiction(f *testing.F) {
	f.Add([]byte(rulesIFiction))
	f.Add([]byte("<ifindex><story><identification><ifid>x</ifid></identification></story></ifindex>"))
	f.Add([]byte("<"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, ok := parseIFiction(data)
		if !ok && b != (Bibliographic{}) {
			t.Fatalf("not read, yet %+v", b)
		}
		for _, s := range []string{b.IFID, b.Title, b.Author, b.Headline, b.FirstPublished} {
			if len([]rune(s)) > maxFieldLen {
				t.Fatalf("a field of %d runes", len([]rune(s)))
			}
		}
	})
}
