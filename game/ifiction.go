package game

import (
	"encoding/xml"
	"strings"

	"github.com/grue-lab/grue/game/zmachine"
)

// Bibliographic is what the iFiction record of a story says of it (the
// Treaty of Babel's bibliographic XML, which a Blorb file carries in its
// IFmd chunk): the IFID that identifies the work on IFDB, its title,
// author, headline and year of first publication.
type Bibliographic struct {
	IFID           string `json:"ifid,omitempty"`
	Title          string `json:"title,omitempty"`
	Author         string `json:"author,omitempty"`
	Headline       string `json:"headline,omitempty"`
	FirstPublished string `json:"first_published,omitempty"`
}

// StoryBibliographic returns what the iFiction record of story says, when
// story came in a Blorb file that carries one grue can read.
func StoryBibliographic(story *zmachine.Story) (Bibliographic, bool) {
	return parseIFiction(story.Metadata())
}

// maxFieldLen bounds each field taken from an iFiction record, which is
// read from an untrusted file and shown in tables and reports.
const maxFieldLen = 200

// parseIFiction reads the first story of an iFiction record. It reports
// false for a record that is not well-formed XML or names no story; a
// field longer than maxFieldLen is cut there, and runs of whitespace are
// one space.
func parseIFiction(data []byte) (Bibliographic, bool) {
	var rec struct {
		Stories []struct {
			IFIDs []string `xml:"identification>ifid"`
			Bib   struct {
				Title          string `xml:"title"`
				Author         string `xml:"author"`
				Headline       string `xml:"headline"`
				FirstPublished string `xml:"firstpublished"`
			} `xml:"bibliographic"`
		} `xml:"story"`
	}
	if len(data) == 0 || xml.Unmarshal(data, &rec) != nil || len(rec.Stories) == 0 {
		return Bibliographic{}, false
	}
	st := rec.Stories[0]
	b := Bibliographic{Title: field(st.Bib.Title), Author: field(st.Bib.Author),
		Headline: field(st.Bib.Headline), FirstPublished: field(st.Bib.FirstPublished)}
	if len(st.IFIDs) > 0 {
		b.IFID = field(st.IFIDs[0])
	}
	return b, b != Bibliographic{}
}

// field is s with its whitespace folded and cut to maxFieldLen runes.
func field(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > maxFieldLen {
		s = string(r[:maxFieldLen-1]) + "…"
	}
	return s
}
