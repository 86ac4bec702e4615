package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func testWiki(t *testing.T) *WikiTool {
	t.Helper()
	w, err := Wiki(filepath.Join("testdata", "wiki"))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestWikiRanksTheRightSectionFirst(t *testing.T) {
	w := testWiki(t)
	for _, tc := range []struct {
		query, path, heading string
	}{
		{"how do I cross the river? the ferryman", "hints.md", "Mistfen hints > The ferryman"},
		{"where is the tower key", "hints.md", "Mistfen hints > The locked tower"},
		{"copper coin", "village.markdown", "Village > Well"},
		// Stemming: "lanterns" and "filling" find "lantern" and "Fill".
		{"filling", "hints.md", "Mistfen hints > Light"},
		{"lanterns", "hints.md", "Mistfen hints > Light"},
		{"climbing", "hints.md", "Mistfen hints > The locked tower"},
		// Setext headings, under the document's own.
		{"wisps lights", "areas/marsh.md", "The Eastern Marsh > Will-o'-wisps"},
		{"hermit fish", "areas/marsh.md", "The Eastern Marsh > The hermit"},
		// Text before the first heading is a section named after its file.
		{"where does the game start", "village.markdown", "village"},
	} {
		hits := w.Search(tc.query, 3)
		if len(hits) == 0 {
			t.Errorf("%q: no hits", tc.query)
			continue
		}
		if hits[0].Path != tc.path || hits[0].Heading != tc.heading {
			t.Errorf("%q: first hit %s — %s (score %.2f), want %s — %s", tc.query, hits[0].Path, hits[0].Heading, hits[0].Score, tc.path, tc.heading)
		}
		for i := 1; i < len(hits); i++ {
			if hits[i].Score > hits[i-1].Score {
				t.Errorf("%q: hits out of order: %v", tc.query, hits)
			}
		}
	}
}

// A word in a heading outweighs the same word in passing in a body:
// "ferryman" is in the village square's text too, and "tower" in the
// hermit's.
func TestWikiHeadingWeighted(t *testing.T) {
	w := testWiki(t)
	for q, want := range map[string]string{"ferryman": "Mistfen hints > The ferryman", "tower": "Mistfen hints > The locked tower"} {
		hits := w.Search(q, 0)
		if len(hits) < 2 {
			t.Fatalf("%q: %d hits, want the heading's section and the passing mention", q, len(hits))
		}
		if hits[0].Heading != want {
			t.Errorf("%q: first hit %q, want %q", q, hits[0].Heading, want)
		}
	}
}

func TestWikiSkipsWhatIsNotWiki(t *testing.T) {
	w := testWiki(t)
	for _, s := range w.sections {
		if strings.Contains(s.Path, ".hidden") || strings.HasSuffix(s.Path, ".txt") {
			t.Errorf("indexed %s", s.Path)
		}
		if strings.Contains(s.Heading, "not a heading") || strings.Contains(s.Heading, "title:") {
			t.Errorf("a code block or front matter line became a heading: %q", s.Heading)
		}
	}
	// The fenced block stays in its section's text.
	hits := w.Search("riddle echo", 1)
	if len(hits) != 1 || hits[0].Heading != "The Eastern Marsh > Will-o'-wisps" || !strings.Contains(hits[0].Text, "# not a heading") {
		t.Errorf("riddle: %+v", hits)
	}
	if hits := w.Search("ghost", 3); len(hits) != 0 {
		t.Errorf("a hidden folder's document was found: %+v", hits)
	}
}

func TestWikiTool(t *testing.T) {
	w := testWiki(t)
	w.Results = 2
	w.MaxChars = 60
	r, err := w.Call(context.Background(), map[string]any{"query": "ferryman river"})
	if err != nil || r.IsError {
		t.Fatalf("wiki = %+v, %v", r, err)
	}
	if !strings.HasPrefix(r.Text, "[1] hints.md — Mistfen hints > The ferryman\nThe ferryman on the river bank") {
		t.Errorf("text starts:\n%s", r.Text)
	}
	if !strings.Contains(r.Text, "[truncated: ") || strings.Contains(r.Text, "eastern marsh") {
		t.Errorf("the section was not cut at 60 bytes:\n%s", r.Text)
	}
	res, _ := r.Structured["results"].([]any)
	if len(res) != 2 || strings.Contains(r.Text, "[3]") {
		t.Errorf("%d results, want 2 (Results = 2):\n%s", len(res), r.Text)
	}

	r, err = w.Call(context.Background(), map[string]any{"query": "xylophone"})
	if err != nil || r.IsError || !strings.Contains(r.Text, "No wiki section matches") {
		t.Errorf("no match = %+v, %v", r, err)
	}
	r, err = w.Call(context.Background(), map[string]any{"query": "  "})
	if err != nil || !r.IsError {
		t.Errorf("empty query = %+v, %v; want a tool error", r, err)
	}
}

func TestWikiErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Wiki(dir); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("empty folder: err = %v, want one naming it", err)
	}
	if _, err := Wiki(filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing folder: err = %v", err)
	}
	os.WriteFile(filepath.Join(dir, "ok.md"), []byte("# Fine\ntext"), 0o644)
	bad := filepath.Join(dir, "broken.md")
	if err := os.Symlink(filepath.Join(dir, "nowhere.md"), bad); err != nil {
		t.Fatal(err)
	}
	if _, err := Wiki(dir); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("unreadable file: err = %v, want one naming %s", err, bad)
	}
}

// FuzzWiki indexes any text and searches it: no panic, and every hit
// names its document and a heading and holds its section's text.
func FuzzWiki(f *testing.F) {
	f.Add("# A\ntext\n## B\nmore text\n", "text")
	f.Add("---\nfront: matter\n---\nTitle\n===\n```\n# code\n```\nbody", "code body")
	f.Add("#\n##  \n####### seven\nx\n---\n", "seven x")
	f.Fuzz(func(t *testing.T, doc, query string) {
		w := &WikiTool{df: map[string]int{}, MaxChars: 40}
		w.add("doc.md", doc)
		if len(w.sections) == 0 {
			return
		}
		total := 0.0
		for _, s := range w.sections {
			total += s.len
		}
		w.avgLen = total / float64(len(w.sections))
		for _, h := range w.Search(query, 0) {
			if h.Path != "doc.md" || h.Heading == "" || h.Score <= 0 {
				t.Errorf("hit %+v", h)
			}
		}
	})
}
