package game

import (
	"fmt"

	"strings"

	"github.com/grue-lab/grue/internal/lazyregexp"
)

// Report is what grue found in a story, for a researcher to check a game
// before running many episodes on it (grue games STORY).
type Report struct {
	Name string `json:"name"`
	// Title is the catalog's title, the one the iFiction record of a
	// Blorb file gives, or the first line of the game's banner (the
	// paragraph with its serial number); TitleFrom says which.
	Title     string `json:"title"`
	TitleFrom string `json:"title_from"`
	Version   int    `json:"version"`
	Release   int    `json:"release"`
	Serial    string `json:"serial"`
	Checksum  string `json:"checksum"`
	// IFID identifies the work on IFDB: the iFiction record's, else the
	// story file's by the Treaty of Babel's rule (see
	// [zmachine.Story.IFID]).
	IFID string `json:"ifid"`
	// Compiler is the Inform version the header records ("6.21"), or ""
	// for other compilers (Infocom's); Library is the library release the
	// banner names ("6/10"), "" when it names none.
	Compiler string `json:"compiler"`
	Library  string `json:"library"`
	// Known reports that the catalog knows the story.
	Known bool `json:"known"`
	// Scoring is how score, moves and maximum score are read.
	HasScore    bool   `json:"has_score"`
	MaxScore    int    `json:"max_score"`
	ScoreGlobal int    `json:"score_global"`
	MovesGlobal int    `json:"moves_global"`
	ScoreFrom   string `json:"score_from"`
	NoScoreWhy  string `json:"no_score_reason,omitempty"`
	// Player is the player object (0 unknown) and PlayerName its name;
	// Location the room it is in now, LocationFrom how it is found.
	Player       uint16 `json:"player"`
	PlayerName   string `json:"player_name"`
	Location     string `json:"location"`
	LocationFrom string `json:"location_from"`
	// Objects is the size of the object table, Dictionary of the
	// dictionary; GrammarVerbs the verb words the grammar table gives
	// lines to (0 when grue cannot read the table), GrammarVersion the
	// Inform grammar table's version (1 or 2; 0 when not read or not
	// Inform's). GrammarFormat is the table's kind: "inform", "infocom"
	// (an Infocom syntax table, versions 3 to 5) or "" when none was read,
	// and GrammarWhy then says why.
	Objects        int    `json:"objects"`
	Dictionary     int    `json:"dictionary"`
	GrammarVerbs   int    `json:"grammar_verbs"`
	GrammarVersion int    `json:"grammar_version"`
	GrammarFormat  string `json:"grammar_format"`
	GrammarWhy     string `json:"grammar_reason,omitempty"`
	// KeyExpected reports that the game waits for a key after its intro.
	KeyExpected bool `json:"key_expected"`
	// Bibliographic is what the iFiction record of the Blorb file the
	// story came in says (nil for a bare story file, or a record grue
	// cannot read).
	Bibliographic *Bibliographic `json:"bibliographic,omitempty"`
}

var libraryRE = lazyregexp.New(`Library (?:v)?(\d+/\d+[A-Za-z0-9.]*|\d+\.\d+[0-9.]*)`)

// Report describes the game as grue sees it now (best right after it is
// opened, or after the keys of an opening screen are pressed).
//
// For a Glulx story it gives what grue reads of one so far: the score and
// its maximum, the location from the status window, the player and the
// number of objects from the object tree, and the title from the banner;
// the header fields and the grammar are not read (GrammarWhy says so).
func (g *Game) Report() Report {
	s := g.Scoring()
	if g.gx != nil {
		r := Report{Name: g.name, HasScore: s.HasScore, MaxScore: s.MaxScore, ScoreGlobal: -1, MovesGlobal: -1,
			ScoreFrom: s.Method, NoScoreWhy: s.Reason, KeyExpected: g.KeyExpected(),
			GrammarWhy: "grammar: " + errGlulxNA.Error()}
		if r.ScoreFrom == "" {
			r.ScoreFrom = "unknown"
		}
		r.Location, _ = g.Location()
		if r.Player = g.Player(); r.Player != 0 {
			r.PlayerName = g.Object(r.Player).Name
		}
		if t := g.glulxTree(); t != nil {
			r.Objects = len(t.addrs)
		}
		r.LocationFrom = "unknown"
		if r.Location != "" {
			r.LocationFrom = "the status window's left part: the room name Inform draws there"
		}
		r.Title, r.TitleFrom = g.title(nil)
		if m := libraryRE.FindStringSubmatch(g.intro); m != nil {
			r.Library = m[1]
		}
		return r
	}
	r := Report{
		Name: g.name, Version: g.story.Version(), Release: g.story.Release(),
		Serial: g.story.Serial(), Checksum: fmt.Sprintf("%04x", g.story.Checksum()),
		Known: g.known, HasScore: s.HasScore, MaxScore: s.MaxScore,
		ScoreGlobal: s.ScoreGlobal, MovesGlobal: s.MovesGlobal, ScoreFrom: s.Method,
		NoScoreWhy: s.Reason, Player: g.player, Objects: g.objects,
		Dictionary: len(g.m.Dictionary()), KeyExpected: g.KeyExpected(),
	}
	if r.ScoreFrom == "" {
		r.ScoreFrom = "unknown"
		if r.NoScoreWhy == "" {
			r.NoScoreWhy = "the game has not yet answered SCORE (it is not at a command prompt)"
		}
	}
	if g.player != 0 {
		r.PlayerName = g.m.ObjectName(g.player)
	}
	r.Location, _ = g.Location()
	switch {
	case r.Location == "":
		r.LocationFrom = "unknown"
	case g.story.Version() <= 3:
		r.LocationFrom = "global 0 (the status line's room)"
	case g.player != 0:
		r.LocationFrom = "the player's parent in the object tree"
	case r.Location != "":
		r.LocationFrom = "global 0"
	default:
		r.LocationFrom = "unknown"
	}
	r.IFID = g.story.IFID()
	if bib, ok := StoryBibliographic(g.story); ok {
		r.Bibliographic = &bib
		if bib.IFID != "" {
			r.IFID = bib.IFID
		}
	}
	r.Title, r.TitleFrom = g.title(r.Bibliographic)
	r.Compiler = g.compiler()
	if m := informRE.FindStringSubmatch(g.intro + g.opening); r.Compiler == "" && m != nil {
		r.Compiler = "Inform " + m[1]
		if !strings.Contains(m[1], ".") {
			r.Compiler = "Inform 5 (v" + m[1] + ")"
		}
	}
	if m := libraryRE.FindStringSubmatch(g.intro + g.opening); m != nil {
		r.Library = m[1]
	}
	if gr, err := g.ValidActionsSearch().Grammar(); err == nil {
		r.GrammarVerbs, r.GrammarVersion, r.GrammarFormat = gr.Verbs, gr.Version, gr.Format
	} else {
		r.GrammarWhy = err.Error()
	}
	return r
}

// title is the catalog's title, the iFiction record's (bib, when the
// story came in a Blorb file that has one) or the banner's first line.
func (g *Game) title(bib *Bibliographic) (string, string) {
	if g.known && g.entry.Title != "" {
		return g.entry.Title, "catalog"
	}
	if bib != nil && bib.Title != "" {
		return bib.Title, "Blorb file's iFiction record"
	}
	paras := strings.Split(strings.ReplaceAll(g.intro+g.opening, "\r", ""), "\n\n")
	for _, p := range paras {
		if !strings.Contains(p, "Serial number") && !strings.Contains(p, "Serial Number") {
			continue
		}
		// The banner's title is a short line of its own before the
		// serial number; a sentence (the headline, a licence note) is not.
		for _, line := range strings.Split(p, "\n") {
			line = strings.TrimSpace(line)
			if strings.Contains(line, "Serial") {
				break
			}
			if line != "" && len(line) <= 60 && !strings.ContainsAny(line[len(line)-1:], ".:)]") {
				return line, "banner"
			}
		}
	}
	return "", "unknown"
}

var informRE = lazyregexp.New(`Inform v(\d\.\d+|\d{4})`)

// compiler is the Inform version that Inform 6 writes at 0x3c in the
// header ("6.21"); "" when the bytes hold none (Inform 5 names itself in
// its banner, "Inform v1502", which Report reads instead).
func (g *Game) compiler() string {
	b := make([]byte, 4)
	for i := range b {
		b[i], _ = g.m.PeekByte(0x3c + uint32(i))
	}
	s := string(b)
	switch {
	case len(s) == 4 && s[0] >= '5' && s[0] <= '9' && s[1] == '.' && isDigits(s[2:]):
		return "Inform " + s
	case len(s) == 4 && isDigits(s):
		return "Inform 5 (v" + s + ")"
	}
	return ""
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
