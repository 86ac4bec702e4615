package game

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/grue-lab/grue/internal/lazyregexp"
)

// WalkthroughState is one command of a walkthrough as grue played it,
// beside what a reference interpreter's transcript (dfrotz's) printed for
// it.
type WalkthroughState struct {
	// Command is the command played.
	Command string
	// Heading is the room heading the reference reply opens with, ""
	// when it opens with none; Location is the location grue read, and
	// LocationOK reports that the two agree (or that there is no heading).
	Heading, Location string
	LocationOK        bool
	// Score and Moves are grue's; RefScore is the score the reference
	// reply prints ("Your score is 350", "scored 5"), -1 when it prints
	// none, and ScoreOK reports that they agree (or none is printed).
	Score, Moves, RefScore int
	ScoreOK                bool
	// Done and Victory are grue's; RefEnd reports that the reference
	// reply ends as a game does once it is over (the RESTART, RESTORE or
	// QUIT question after the final score, or the Inform library's end
	// banner), and EndOK that grue says the game is over exactly then.
	Done, Victory, RefEnd, EndOK bool
}

// WalkthroughCheck is a walkthrough replayed against a reference
// transcript, state by state, with the counts of states that disagree.
type WalkthroughCheck struct {
	States []WalkthroughState
	// Headings counts the states whose reference reply has a room
	// heading, LocationsOK those of them whose location agrees.
	Headings, LocationsOK int
	// ScoreErrors and EndErrors count the states whose score or ending
	// disagree.
	ScoreErrors, EndErrors int
	// Ended reports that the reference transcript's game ended, Won that
	// grue reported a victory at the end.
	Ended, Won bool
}

// OK reports that every state agrees on score and ending, and at least
// 95% of the headings on the location (a heading may be a scene's title
// rather than the room: Zork I's engraving).
func (c WalkthroughCheck) OK() bool {
	return c.ScoreErrors == 0 && c.EndErrors == 0 && c.LocationsOK*100 >= c.Headings*95
}

// String sums the check up on one line.
func (c WalkthroughCheck) String() string {
	return fmt.Sprintf("%d states: location %d of %d headings, %d score errors, %d ending errors, ended %v, won %v",
		len(c.States), c.LocationsOK, c.Headings, c.ScoreErrors, c.EndErrors, c.Ended, c.Won)
}

var promptRE = lazyregexp.New(`(?m)^>`)

// SplitTranscript splits a transcript of dfrotz (-m -p -q, commands
// piped in, so that they are not echoed) into the replies after each
// prompt: out[0] is the intro, out[i] the reply to the i-th command.
func SplitTranscript(transcript string) []string {
	idx := promptRE.FindAllStringIndex(transcript, -1)
	out := make([]string, 0, len(idx)+1)
	from := 0
	for _, loc := range idx {
		out = append(out, strings.TrimSpace(transcript[from:loc[0]]))
		from = loc[1]
	}
	return append(out, strings.TrimSpace(transcript[from:]))
}

var refScoreRE = lazyregexp.New(`(?i)\byour score (?:is|was) (-?\d+)|\byou have (?:so far )?scored (-?\d+)`)

// CheckWalkthrough plays cmds on g (from its state now, which should be
// the start the transcript's interpreter began from, with the same seed)
// and compares each state with reference, the transcript's replies as
// SplitTranscript gives them. It stops at an error of the game, after
// the states played before it.
func CheckWalkthrough(g *Game, cmds []string, reference []string) (WalkthroughCheck, error) {
	var c WalkthroughCheck
	for i, cmd := range cmds {
		ref := ""
		if i+1 < len(reference) {
			ref = reference[i+1]
		}
		r, err := g.Step(cmd)
		if err != nil {
			return c, fmt.Errorf("walkthrough command %d (%q): %w", i+1, cmd, err)
		}
		s := WalkthroughState{Command: cmd, Heading: roomHeading(ref), Location: r.Info.Location,
			Score: r.Info.Score, Moves: r.Info.Moves, RefScore: -1, Done: r.Done, Victory: r.Victory}
		s.LocationOK = s.Heading == "" || (s.Location != "" && strings.HasPrefix(strings.ToLower(s.Heading), strings.ToLower(s.Location)))
		if m := refScoreRE.FindStringSubmatch(ref); m != nil {
			s.RefScore, _ = strconv.Atoi(m[1] + m[2])
		}
		s.ScoreOK = s.RefScore < 0 || !r.Info.ScoreKnown || s.RefScore == s.Score
		s.RefEnd = endQuestion(ref) || hasEndBanner(ref)
		s.EndOK = s.RefEnd == s.Done
		if s.Heading != "" {
			c.Headings++
			if s.LocationOK {
				c.LocationsOK++
			}
		}
		if !s.ScoreOK {
			c.ScoreErrors++
		}
		if !s.EndOK {
			c.EndErrors++
		}
		c.Ended = c.Ended || s.RefEnd
		c.Won = s.Victory
		c.States = append(c.States, s)
	}
	return c, nil
}

// roomHeading is the room heading a reply opens with (the short
// capitalised line a game prints before a room's description), "" if it
// opens with none.
func roomHeading(obs string) string {
	lines := strings.Split(strings.TrimSpace(obs), "\n")
	if len(lines) < 2 {
		return ""
	}
	h := strings.TrimSpace(lines[0])
	if h == "" || len(h) > 60 || strings.ContainsAny(h[len(h)-1:], ".!?:\"',") || h[0] < 'A' || h[0] > 'Z' {
		return ""
	}
	return h
}
