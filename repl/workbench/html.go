package workbench

import (
	"fmt"
	"html"
	"strings"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/harness"
)

// maxTranscriptSteps is how many steps an HTML transcript shows, the
// last ones.
const maxTranscriptSteps = 200

// transcriptHTML is an episode or a step (or steps) as an HTML
// transcript, for a notebook front end: each step's number, call,
// thought, what the game said and the score.
func transcriptHTML(v any) (string, bool) {
	var steps []agent.Step
	head := ""
	switch x := v.(type) {
	case *harness.Episode:
		if x == nil || x.Agent == nil {
			return "", false
		}
		steps = x.Agent.History
		head = fmt.Sprintf("%s, seed %d: %d steps", x.Game, x.Seed, len(steps))
		if x.Variant != "" {
			head = x.Variant + " on " + head
		}
	case *agent.Step:
		if x == nil {
			return "", false
		}
		steps = []agent.Step{*x}
	case agent.Step:
		steps = []agent.Step{x}
	case []agent.Step:
		steps = x
	default:
		return "", false
	}
	var b strings.Builder
	if head != "" {
		fmt.Fprintf(&b, "<p><b>%s</b></p>\n", html.EscapeString(head))
	}
	if len(steps) == 0 {
		b.WriteString("<p>no steps yet</p>")
		return b.String(), true
	}
	if len(steps) > maxTranscriptSteps {
		fmt.Fprintf(&b, "<p>… the first %d steps left out</p>\n", len(steps)-maxTranscriptSteps)
		steps = steps[len(steps)-maxTranscriptSteps:]
	}
	b.WriteString("<table>\n<thead><tr><th>#</th><th>call</th><th>thought</th><th>observation</th><th>score</th></tr></thead>\n<tbody>\n")
	for _, st := range steps {
		call := st.Tool
		if len(st.Args) > 0 {
			call += fmt.Sprintf(" %v", st.Args)
		}
		if st.Policy != "" {
			call += " (" + st.Policy + ")"
		}
		score := fmt.Sprint(st.Score)
		if st.MaxScore > 0 {
			score += fmt.Sprintf("/%d", st.MaxScore)
		}
		fmt.Fprintf(&b, "<tr><td>%d</td><td><code>%s</code></td><td>%s</td><td style=\"text-align:left\"><pre style=\"white-space:pre-wrap;margin:0\">%s</pre></td><td>%s</td></tr>\n",
			st.Step, html.EscapeString(call), html.EscapeString(st.Thought), html.EscapeString(st.Observation), score)
	}
	b.WriteString("</tbody>\n</table>")
	return b.String(), true
}
