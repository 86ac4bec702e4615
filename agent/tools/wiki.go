package tools

import (
	"context"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/internal/wordset"
)

// Defaults of a WikiTool's limits.
const (
	DefaultWikiResults  = 3
	DefaultWikiMaxChars = 1500
	// DefaultWikiHeadingWeight is how many times a heading's words count
	// against a body word's once.
	DefaultWikiHeadingWeight = 3
)

// WikiTool searches a folder of Markdown documents (hints, maps,
// walkthrough fragments) and returns the best-matching sections. Each
// document is split into sections at its headings; sections are ranked by
// BM25 over their words, with the heading (and the headings above it)
// weighted. The index is built once, by Wiki; make a new WikiTool to see
// changed files. A WikiTool is safe for concurrent use.
type WikiTool struct {
	// Dir is the folder that was indexed.
	Dir string
	// Results is how many sections a search returns (DefaultWikiResults
	// when 0).
	Results int
	// MaxChars caps each section's text in a result (DefaultWikiMaxChars
	// when 0).
	MaxChars int

	sections []wikiSection
	df       map[string]int // in how many sections each term occurs
	avgLen   float64
}

// WikiSection is one search hit: the document (a slash path relative to
// Dir), the heading path ("Troll Bridge > Paying the toll"; the file's
// name for text before the first heading), the section's text and its
// score.
type WikiSection struct {
	Path    string  `json:"path"`
	Heading string  `json:"heading"`
	Text    string  `json:"text"`
	Score   float64 `json:"score"`
}

type wikiSection struct {
	WikiSection
	tf  map[string]float64 // weighted term frequencies
	len float64            // weighted length in terms
}

// Wiki indexes the Markdown files (.md, .markdown) under dir, recursively.
// A file that cannot be read is an error naming it; a folder with no
// Markdown in it is an error too, since a wiki that can find nothing is a
// misconfiguration.
func Wiki(dir string) (*WikiTool, error) {
	w := &WikiTool{Dir: dir, df: map[string]int{}}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("wiki: %w", err)
		}
		if d.IsDir() {
			if path != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		ext := strings.ToLower(filepath.Ext(path))
		if ext != ".md" && ext != ".markdown" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("wiki: read %s: %w", path, err)
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			rel = path
		}
		w.add(filepath.ToSlash(rel), string(data))
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(w.sections) == 0 {
		return nil, fmt.Errorf("wiki: no Markdown sections under %s", dir)
	}
	total := 0.0
	for _, s := range w.sections {
		total += s.len
	}
	w.avgLen = total / float64(len(w.sections))
	return w, nil
}

// add splits one document into sections and indexes them.
func (w *WikiTool) add(path, text string) {
	title := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	for _, s := range splitMarkdown(title, text) {
		body := strings.TrimSpace(s.body)
		if body == "" { // a heading with nothing under it but subsections
			continue
		}
		heading := title
		if len(s.headings) > 0 {
			heading = strings.Join(s.headings, " > ")
		}
		sec := wikiSection{
			WikiSection: WikiSection{Path: path, Heading: heading, Text: body},
			tf:          map[string]float64{},
		}
		for _, t := range wikiTerms(heading) {
			sec.tf[t] += DefaultWikiHeadingWeight
			sec.len += DefaultWikiHeadingWeight
		}
		for _, t := range wikiTerms(body) {
			sec.tf[t]++
			sec.len++
		}
		for t := range sec.tf {
			w.df[t]++
		}
		w.sections = append(w.sections, sec)
	}
}

// mdSection is a run of Markdown under one heading, with the headings
// above it.
type mdSection struct {
	headings []string
	body     string
}

// splitMarkdown splits a document at its ATX (# Title) and setext
// (Title / ===) headings, skipping YAML front matter and ignoring lines
// in fenced code blocks.
func splitMarkdown(title, text string) []mdSection {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	if len(lines) > 0 && strings.TrimSpace(lines[0]) == "---" {
		for i := 1; i < len(lines); i++ {
			if t := strings.TrimSpace(lines[i]); t == "---" || t == "..." {
				lines = lines[i+1:]
				break
			}
		}
	}
	var (
		out   []mdSection
		stack []string // headings by level-1
		body  []string
		fence string
	)
	flush := func() {
		out = append(out, mdSection{headings: compact(stack), body: strings.Join(body, "\n")})
		body = nil
	}
	setLevel := func(level int, h string) {
		flush()
		for len(stack) < level {
			stack = append(stack, "")
		}
		stack = append(stack[:level-1], h)
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trim := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trim, fence) {
				fence = ""
			}
			body = append(body, line)
			continue
		}
		if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
			fence = trim[:3]
			body = append(body, line)
			continue
		}
		if level, h, ok := atxHeading(line); ok {
			setLevel(level, h)
			continue
		}
		// A setext heading: a one-line paragraph underlined.
		prevBlank := len(body) == 0 || strings.TrimSpace(body[len(body)-1]) == ""
		if trim != "" && prevBlank && i+1 < len(lines) {
			if level := setextLevel(lines[i+1]); level > 0 {
				setLevel(level, trim)
				i++
				continue
			}
		}
		body = append(body, line)
	}
	flush()
	return out
}

func compact(hs []string) []string {
	var out []string
	for _, h := range hs {
		if h != "" {
			out = append(out, h)
		}
	}
	return out
}

// atxHeading parses "## Title ##" (at most three spaces of indent).
func atxHeading(line string) (int, string, bool) {
	s := line
	if n := len(s) - len(strings.TrimLeft(s, " ")); n > 3 {
		return 0, "", false
	}
	s = strings.TrimLeft(s, " ")
	level := 0
	for level < len(s) && s[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(s) && s[level] != ' ' && s[level] != '\t') {
		return 0, "", false
	}
	h := strings.TrimSpace(s[level:])
	h = strings.TrimSpace(strings.TrimRight(h, "#"))
	if h == "" {
		return 0, "", false
	}
	return level, h, true
}

// setextLevel is 1 for a line of '=', 2 for a line of '-' (three or
// more), 0 otherwise.
func setextLevel(line string) int {
	t := strings.TrimSpace(line)
	if len(t) < 3 {
		return 0
	}
	switch {
	case strings.Trim(t, "=") == "":
		return 1
	case strings.Trim(t, "-") == "":
		return 2
	}
	return 0
}

// wikiStop are words too common to rank by.
var wikiStop = wordset.New(`a an and are as at be but by do does for from has have how i if in into is it its
		me my of on or so that the their then there these this to was we what when where which who why will with you your`)

// wikiTerms splits text into lower-case words, drops stop words and
// stems what is left lightly (plurals, -ing, -ed), the same for documents
// and queries.
func wikiTerms(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if wikiStop.Has(f) {
			continue
		}
		out = append(out, stem(f))
	}
	return out
}

// stem is a light suffix stripper: enough that "trolls" finds "troll" and
// "opening" finds "open", without a full Porter stemmer's surprises.
func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && strings.HasSuffix(w, "sses"):
		return w[:len(w)-2]
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		return w[:len(w)-3]
	case len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed"):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return w[:len(w)-1]
	}
	return w
}

// BM25's parameters.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Search returns up to n sections that match query, best first (ties in
// document order). A section matches when it shares a word with the
// query; each hit's Text is capped at MaxChars.
func (w *WikiTool) Search(query string, n int) []WikiSection {
	terms := wikiTerms(query)
	seen := map[string]bool{}
	var q []string
	for _, t := range terms {
		if !seen[t] {
			seen[t] = true
			q = append(q, t)
		}
	}
	N := float64(len(w.sections))
	type scored struct {
		i     int
		score float64
	}
	var hits []scored
	for i, s := range w.sections {
		score := 0.0
		for _, t := range q {
			tf := s.tf[t]
			if tf == 0 {
				continue
			}
			df := float64(w.df[t])
			idf := math.Log(1 + (N-df+0.5)/(df+0.5))
			score += idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*s.len/w.avgLen))
		}
		if score > 0 {
			hits = append(hits, scored{i, score})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].score > hits[b].score })
	if n > 0 && len(hits) > n {
		hits = hits[:n]
	}
	out := make([]WikiSection, len(hits))
	for k, h := range hits {
		sec := w.sections[h.i].WikiSection
		sec.Score = h.score
		sec.Text, _ = Truncate(sec.Text, w.maxChars())
		out[k] = sec
	}
	return out
}

func (w *WikiTool) maxChars() int {
	if w.MaxChars > 0 {
		return w.MaxChars
	}
	return DefaultWikiMaxChars
}

func (w *WikiTool) results() int {
	if w.Results > 0 {
		return w.Results
	}
	return DefaultWikiResults
}

// Spec describes the wiki tool.
func (w *WikiTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name:        "wiki",
		Description: "Search the wiki's documents (hints, maps, notes about the game) and get the best-matching sections.",
		Parameters: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"query": map[string]any{"type": "string", "description": "words to look for, e.g. \"troll bridge toll\""},
			},
			"required": []any{"query"},
		},
	}
}

// Call searches for args["query"]. The text lists each hit as
// "[n] path — heading" followed by its section; the structured content has
// the hits under "results". No match is not an error: the text says so, and
// the model can try other words.
func (w *WikiTool) Call(ctx context.Context, args map[string]any) (Result, error) {
	query, _ := stringArg(args, "query")
	if strings.TrimSpace(query) == "" {
		return Errorf(`wiki needs a query: {"query": "words to look for"}`), nil
	}
	hits := w.Search(query, w.results())
	if len(hits) == 0 {
		return Result{Text: fmt.Sprintf("No wiki section matches %q; try other words.", query),
			Structured: map[string]any{"results": []any{}}}, nil
	}
	var b strings.Builder
	list := make([]any, len(hits))
	for i, h := range hits {
		if i > 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, "[%d] %s — %s\n%s", i+1, h.Path, h.Heading, h.Text)
		list[i] = map[string]any{"path": h.Path, "heading": h.Heading, "text": h.Text, "score": h.Score}
	}
	return Result{Text: b.String(), Structured: map[string]any{"results": list}}, nil
}
