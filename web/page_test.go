package web

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// cells returns the text of table sel's body cells, a row a slice.
func cells(b *browser, sel string) [][]string {
	b.t.Helper()
	return eval[[][]string](b, `[...document.querySelectorAll('`+sel+` tbody tr')].map((tr) => [...tr.cells].map((td) => td.innerText))`)
}

// compareTwoRuns runs the config za (variants zeta, the walkthrough, and
// alpha) at steps1 and at steps2 steps, and opens the compare page of the
// two runs.
func compareTwoRuns(t *testing.T, steps1, steps2 int, alpha string) (s *testServer, b *browser, a, r struct{ ID string }) {
	t.Helper()
	s = newTestServer(t, Options{})
	for _, run := range []struct {
		steps int
		id    *struct{ ID string }
	}{{steps1, &a}, {steps2, &r}} {
		s.json("POST", "/api/experiments", ExperimentRequest{YAML: quickYAML("za", 2, run.steps, "zeta=walkthrough", alpha)}, http.StatusCreated, run.id)
		s.waitStatus(run.id.ID, ExpComplete)
	}
	b = newBrowser(t, s.ts.URL)
	b.do("compare two runs sharing variant names", chromedp.Navigate(b.url+"/#compare?ids="+a.ID+","+r.ID), chromedp.WaitVisible(css(`#cmp-paired`)))
	return s, b, a, r
}

// Two runs of a config with the same variant names, compared on the page:
// the rows are RUN/VARIANT, each paired row says what it is against (its
// own run's zeta), and "pair across runs" pairs against the first run's.
// The baselines that played say they are baselines, in the records, the
// episode list and the viewer's header.
func TestBrowserCompareRunsApart(t *testing.T) {
	s, b, a, r := compareTwoRuns(t, 5, 8, "alpha=random")
	b.shot("compare-runs-apart")
	var names []string
	for _, row := range cells(b, "#cmp-rows") {
		names = append(names, row[0])
	}
	want := []string{a.ID + "/zeta", a.ID + "/alpha", r.ID + "/zeta", r.ID + "/alpha"}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("the compare page's rows are %q, want %q", names, want)
	}
	if shown := b.text("#cmp-out"); strings.Contains(shown, "null") || strings.Contains(shown, "undefined") {
		t.Errorf("the compare page shows null or undefined:\n%s", shown)
	}
	if apart := eval[string](b, `(document.querySelector('#cmp-apart') || {}).innerText || ""`); !strings.Contains(apart, "own run's baseline") {
		t.Errorf("the note on runs kept apart says %q", apart)
	}
	head := eval[[]string](b, `[...document.querySelectorAll('#cmp-paired th')].map((th) => th.innerText)`)
	if len(head) < 2 || head[1] != "against" {
		t.Errorf("the paired table's columns are %q: want the second to be \"against\"", head)
	}
	paired := cells(b, "#cmp-paired")
	if len(paired) == 0 {
		t.Fatal("no paired rows")
	}
	for _, row := range paired {
		run, _, _ := strings.Cut(row[0], "/")
		if row[1] != run+"/zeta" {
			t.Errorf("paired row %q is against %q, not its own run's zeta", row[0], row[1])
		}
	}
	b.do("pair across runs", chromedp.Click(css(`#cmp-pair-across`)), chromedp.Click(css(`#cmp-go`)),
		until(`document.querySelector('#cmp-paired') && document.querySelector('#cmp-paired').innerText.includes('`+r.ID+`/zeta\t`+a.ID+`/zeta')`, wait))
	for _, row := range cells(b, "#cmp-paired") {
		if row[1] != a.ID+"/zeta" {
			t.Errorf("pairing across runs, %q is against %q, want %s/zeta", row[0], row[1], a.ID)
		}
	}

	// The records of a baseline say so.
	b.do("open the run's records", chromedp.Navigate(b.url+"/#experiments"),
		chromedp.WaitVisible(css(`#exp-table tbody tr[data-id="`+a.ID+`"] a`)),
		chromedp.Click(css(`#exp-table tbody tr[data-id="`+a.ID+`"] a`)),
		chromedp.WaitVisible(css(`#exp-records tbody tr`)))
	for _, row := range cells(b, "#exp-records") {
		if !strings.Contains(row[0], "(baseline, no model)") {
			t.Errorf("the record %q does not say a baseline played", row[0])
		}
	}
	b.do("a record's trajectory", chromedp.Navigate(b.url+fmt.Sprintf("/#trajectory?a=%s", urlQuery("run="+a.ID+"&variant=zeta&game=lantern&seed=1"))),
		chromedp.WaitVisible(css(`#traj-out [data-traj="head"]`)))
	if h := b.text(`#traj-out [data-traj="head"]`); !strings.Contains(h, "played by walkthrough (baseline, no model)") {
		t.Errorf("the viewer's header says %q: want it played by the walkthrough baseline", h)
	}
	if step := b.text(`#traj-out .step[data-step="1"]`); !strings.Contains(step, "played by walkthrough (baseline, no model)") {
		t.Errorf("the viewer's first step reads %q: want it played by the walkthrough baseline", step)
	}
	var ep struct{ ID string }
	s.json("POST", "/api/episodes", map[string]any{"game": "lantern", "policy": "random", "steps": 3}, http.StatusCreated, &ep)
	s.events("/api/episodes/"+ep.ID+"/events", "") // to its end: the viewer shows a finished episode
	b.do("the episode list", chromedp.Navigate(b.url+"/#play"),
		until(`document.querySelector('#episodes-table tbody').innerText.includes("`+ep.ID+`")`, wait))
	for _, row := range cells(b, "#episodes-table") {
		if row[2] != "random (baseline, no model)" {
			t.Errorf("the episode list shows %q as played by %q", row[0], row[2])
		}
	}
	// The view may still show the run's trajectory opened before: wait
	// for this episode's header, not for any header.
	b.do("the episode's trajectory", chromedp.Navigate(b.url+"/#trajectory?ep="+ep.ID),
		until(`(document.querySelector('#traj-out [data-traj="head"]') || {innerText: ""}).innerText.includes("`+ep.ID+`")`, wait))
	if h := b.text(`#traj-out [data-traj="head"]`); !strings.Contains(h, "played by random (baseline, no model)") {
		t.Errorf("the viewer's header says %q", h)
	}
}

// A message raised on the Play view (its form's error) stays there: the
// Compare view shows none, and back on Play it is shown again.
func TestBrowserMessageStaysOnItsView(t *testing.T) {
	s := newTestServer(t, Options{})
	b := newBrowser(t, s.ts.URL)
	b.do("a play error", chromedp.Navigate(b.url+"/#play"),
		chromedp.WaitReady(css(`#play-game option[value="lantern"]`)),
		chromedp.Evaluate[chromedp.Void](`(() => { const s = document.querySelector('#play-game'); s.append(new Option('nosuchgame', 'nosuchgame')); s.value = 'nosuchgame'; })()`),
		chromedp.SetValue(css(`#play-policy`), "walkthrough"),
		chromedp.Click(css(`#play-run`)),
		until(`document.querySelector('#flash').textContent.includes('nosuchgame')`, wait))
	msg := b.text("#flash")
	b.do("to the compare view", chromedp.Navigate(b.url+"/#compare"), until(`!document.querySelector('#tab-compare').hidden`, wait))
	if f := eval[string](b, `document.querySelector('#flash').textContent`); f != "" {
		t.Errorf("the Compare view shows the Play view's message %q", f)
	}
	b.do("back to play", chromedp.Navigate(b.url+"/#play"), until(`!document.querySelector('#tab-play').hidden`, wait))
	if f := eval[string](b, `document.querySelector('#flash').textContent`); f != msg {
		t.Errorf("back on Play the message is %q, want %q", f, msg)
	}
}

// Map labels fit their boxes: Zork I's room names and a long test name
// are drawn no wider than the room's box, the full name in its title, and
// a name that fits in two lines is shown whole rather than cut.
func TestBrowserMapLabelsFit(t *testing.T) {
	s := newTestServer(t, Options{})
	b := newBrowser(t, s.ts.URL)
	b.do("open the page", chromedp.Navigate(b.url+"/#play"), chromedp.WaitReady(css(`#play-map`)))
	names := []string{"West of House", "North of House", "Behind House", "Stone Barrow", "Flood Control Dam #3",
		"Maze of Twisty Little Passages, All Alike", "Dam Lobby", "Supercalifragilisticexpialidocious Hall"}
	rooms := make([]string, len(names))
	for i, n := range names {
		exits := "{}"
		if i+1 < len(names) {
			exits = fmt.Sprintf(`{east: "r%d"}`, i+1)
		}
		rooms[i] = fmt.Sprintf(`{id: "r%d", name: %q, exits: %s}`, i, n, exits)
	}
	got := eval[[]map[string]any](b, `drawMap(document.querySelector('#play-map'), {current: "r0", rooms: [`+strings.Join(rooms, ",")+`]}),
		[...document.querySelectorAll('#play-map g[data-room]')].map((g) => ({name: g.dataset.room,
			title: (g.querySelector('title') || {}).textContent || "",
			label: ([...g.querySelectorAll('text tspan')].map((t) => t.textContent).join(" ") || g.querySelector('text').textContent),
			text: g.querySelector('text').getBBox().width, box: g.querySelector('rect').getBBox().width,
			left: g.querySelector('text').getBBox().x, boxLeft: g.querySelector('rect').getBBox().x}))`)
	b.shot("map-labels")
	if len(got) != len(names) {
		t.Fatalf("%d rooms drawn, want %d", len(got), len(names))
	}
	for _, g := range got {
		text, box, left, boxLeft := g["text"].(float64), g["box"].(float64), g["left"].(float64), g["boxLeft"].(float64)
		if text > box || left < boxLeft || left+text > boxLeft+box {
			t.Errorf("the label %q of %q is %.1f wide from %.1f, its box %.1f from %.1f", g["label"], g["name"], text, left, box, boxLeft)
		}
		// A name that fits in two lines of the box is shown whole.
		if n := g["name"].(string); (n == "West of House" || n == "Flood Control Dam #3") && g["label"] != n {
			t.Errorf("the box of %q reads %q: want the whole name (it fits in two lines)", n, g["label"])
		}
		if g["title"] != g["name"] {
			t.Errorf("the box of %q has the title %q: want the full name", g["name"], g["title"])
		}
	}
}

// The compare page's Baseline box takes a baseline in a named run
// (RUN/NAME) when several runs share variant names: with "pair across
// runs", every row of both runs is paired against that run's variant,
// and the page says so; a plain name pairs each run against its own
// variant of that name; and RUN/NAME without pairing across says, on the
// page, that the other run has no such variant and how to pair across.
func TestBrowserCompareBaselineInNamedRun(t *testing.T) {
	_, b, a, r := compareTwoRuns(t, 4, 6, "alpha=walkthrough")

	named := r.ID + "/alpha"
	b.do("a baseline in the second run, paired across runs",
		chromedp.SetValue(css(`#cmp-baseline`), named),
		chromedp.Click(css(`#cmp-pair-across`)),
		chromedp.Click(css(`#cmp-go`)),
		until(`document.querySelector('#cmp-out h2').innerText.includes('baseline `+named+`')`, wait))
	b.shot("compare-baseline-run-name")
	if h := b.text(`#cmp-out h2`); h != "Variants by game (baseline "+named+")" {
		t.Errorf("the heading reads %q, want the baseline %s named", h, named)
	}
	if note := b.text(`#cmp-apart`); !strings.Contains(note, "against "+named) {
		t.Errorf("the note on runs kept apart says %q, want pairs against %s", note, named)
	}
	rows := cells(b, "#cmp-rows")
	if len(rows) != 4 || rows[0][0] != named {
		t.Errorf("the rows: %q, want 4 with the baseline %s first", rows, named)
	}
	var paired []string
	for _, row := range cells(b, "#cmp-paired") {
		paired = append(paired, row[0])
		if row[1] != named {
			t.Errorf("paired row %q is against %q, want %s", row[0], row[1], named)
		}
	}
	for _, v := range []string{a.ID + "/zeta", a.ID + "/alpha", r.ID + "/zeta"} {
		if !slices.Contains(paired, v) {
			t.Errorf("no paired row of %s against %s: %q", v, named, paired)
		}
	}
	if shown := b.text("#cmp-out"); badText.MatchString(shown) || strings.Contains(shown, "null") {
		t.Errorf("the compare page shows %q:\n%s", badText.FindString(shown), shown)
	}

	b.do("a plain name, each run against its own",
		chromedp.SetValue(css(`#cmp-baseline`), "alpha"),
		chromedp.Click(css(`#cmp-pair-across`)),
		chromedp.Click(css(`#cmp-go`)),
		until(`document.querySelector('#cmp-out h2').innerText.includes('baselines')`, wait))
	if h := b.text(`#cmp-out h2`); h != "Variants by game (baselines "+a.ID+"/alpha, "+r.ID+"/alpha)" {
		t.Errorf("the heading reads %q, want each run's alpha", h)
	}
	for _, row := range cells(b, "#cmp-paired") {
		run, _, _ := strings.Cut(row[0], "/")
		if row[1] != run+"/alpha" {
			t.Errorf("paired row %q is against %q, not its own run's alpha", row[0], row[1])
		}
	}

	b.do("a baseline in one run, paired within runs",
		chromedp.SetValue(css(`#cmp-baseline`), named),
		chromedp.Click(css(`#cmp-go`)),
		until(`document.querySelector('#flash').innerText.includes('`+a.ID+`')`, wait))
	if msg := b.text("#flash"); !strings.Contains(msg, named) || !strings.Contains(msg, "pair across runs") {
		t.Errorf("the page says %q: want that run %s has no %s, and to pair across runs", msg, a.ID, named)
	}
}
