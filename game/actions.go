package game

import (
	"fmt"
	"strings"

	"github.com/grue-lab/grue/game/glk"
	"github.com/grue-lab/grue/game/validactions"
	"github.com/grue-lab/grue/game/zmachine"
	"github.com/grue-lab/grue/internal/lazyregexp"
)

// ValidActions returns the commands that change the world from the game's
// current state, one for each distinct outcome, in a fixed order (moves
// first, then the templates' order). It leaves the game as it was: every
// candidate runs on a forked machine from a snapshot. Package
// [validactions] says what counts as a change, which candidates are tried
// and what it costs. While the game waits for a key it offers Return ("")
// and SPACE (" "), and while it asks yes or no (YesNoQuestion) "yes" and
// "no". Asking again in a state the game has just asked in (up to 8
// states back, the move counter aside) answers from memory. A call takes
// at most about a second: past it, the candidates not yet tried are left
// out and ValidActionsCutShort says so.
func (g *Game) ValidActions() ([]string, error) {
	g.vaCut = false
	if g.gx != nil {
		return nil, fmt.Errorf("%s: valid actions: %w", g.name, errGlulxNA)
	}
	if g.KeyExpected() {
		// A game waiting for a key takes any key; Return and SPACE are
		// the ones "press a key" screens and menus ask for.
		return []string{"", " "}, nil
	}
	if g.YesNoQuestion() {
		// Parc's "Do you want an introduction?", a Phoenix game's "Would
		// you like another game?": the answers are what the game takes.
		return []string{"yes", "no"}, nil
	}
	s := g.ValidActionsSearch()
	acts, err := s.Find()
	g.vaCut = s.CutShort
	return acts, err
}

// ValidActionsCutShort reports that the last ValidActions ran out of its
// time budget (validactions.DefaultBudget, a second) before it tried
// every candidate, and so may lack valid actions.
func (g *Game) ValidActionsCutShort() bool { return g.vaCut }

// ValidActionsSearch returns the search that ValidActions runs from the
// game's current state, for a caller that looks into it (its grammar, say:
// [validactions.Search.Grammar]); it shares the game's memory of recent
// answers and stands for this state until the game plays on. It is nil
// for a Glulx story (valid actions are not available for one yet).
func (g *Game) ValidActionsSearch() *validactions.Search {
	if g.gx != nil {
		return nil
	}
	if g.va == nil {
		g.va = &validactions.Cache{}
	}
	_, loc := g.Location()
	s := &validactions.Search{
		Machine: g.m, Name: g.name, Player: g.player, Location: loc, Rooms: g.rooms,
		Objects: g.objects, ScoreGlobal: g.scoring.ScoreGlobal, MovesGlobal: g.scoring.MovesGlobal,
		Inform: g.informBanner(),
		Ended: func(m *zmachine.Machine, reply string) bool {
			done, _ := g.judgeOn(m, reply)
			return done
		},
		Story: g.vaShared(), Cache: g.va,
	}
	if g.known {
		s.CatalogName = g.entry.Name
	}
	return s
}

// vaShared returns what valid actions knows of g's story, making it on
// first use; Fork shares it with the fork.
func (g *Game) vaShared() *validactions.Story {
	if g.vs == nil {
		g.vs = validactions.NewStory(g.story, zmachine.Options{Seed: g.opts.seed, Width: g.opts.width, Name: g.name})
	}
	return g.vs
}

// informBanner reports whether the story's header or banner says Inform
// compiled it: Inform 6 writes its version in the header, Inform 5 names
// itself in its banner ("Inform v1502").
func (g *Game) informBanner() bool {
	if g.compiler() != "" {
		return true
	}
	m := informRE.FindStringSubmatch(g.intro + g.opening)
	return m != nil && !strings.Contains(m[1], ".")
}

// yesNo matches a request for a yes or no answer: "(Y or N)", "yes or
// no", "(y/n)".
var yesNo = lazyregexp.New(`(?i)\by(es)?\s*(or|/)\s*n(o)?\b`)

// YesNoQuestion reports whether the game's last reply ends by asking a
// question rather than at a command prompt (Parc's "Do you want an
// introduction? (Y or N)", a Phoenix game's "Would you like another
// game?", the Inform library's "Are you sure you want to quit?"): the game
// waits for a line, its reply does not end with the prompt ">", and its
// last line asks for yes or no or ends with a question mark.
// ValidActions offers "yes" and "no" then.
func (g *Game) YesNoQuestion() bool {
	reply := strings.TrimSpace(g.reply)
	if reply == "" || strings.HasSuffix(reply, ">") || (g.gx == nil && g.m.State() != zmachine.WaitLine) ||
		(g.gx != nil && g.gx.m.Waiting() != glk.InputLine) {
		return false
	}
	last := strings.TrimSpace(reply[strings.LastIndex(reply, "\n")+1:])
	return yesNo.MatchString(last) || strings.HasSuffix(last, "?")
}
