package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/grue-lab/grue/agent/llm/llmtest"
)

// The trajectory endpoint gives the viewer its title and status (the
// trajectory's own JSON, embedded, once swallowed them), and the model.
func TestTrajectoryViewTitleStatus(t *testing.T) {
	s := newTestServer(t, Options{})
	var ep struct{ ID string }
	s.json("POST", "/api/episodes", map[string]any{"game": "lantern", "policy": "walkthrough", "seed": 1, "steps": 3}, http.StatusCreated, &ep)
	s.events("/api/episodes/"+ep.ID+"/events", "")
	var v trajectoryView
	s.json("GET", "/api/episodes/"+ep.ID+"/trajectory", nil, http.StatusOK, &v)
	if v.Title != "episode "+ep.ID || v.Status != StatusComplete || v.Game != "lantern" || v.Seed != 1 || len(v.History) != 3 {
		t.Errorf("trajectory view: title %q, status %q, game %q, seed %d, %d steps", v.Title, v.Status, v.Game, v.Seed, len(v.History))
	}
}

// badText finds in a page's visible text what a person should never
// see: undefined, NaN, a year-1 date or the zero time's milliseconds.
var badText = regexp.MustCompile(`undefined|NaN|Invalid Date|\b0001-01-01|-62135596800`)

// zeroMS finds a duration shown as zero ("0.0 ms", "0.000 ms").
var zeroMS = regexp.MustCompile(`(^|[^0-9.])0\.0+ ms`)

// msOf reads "NAME X ms" out of a timing line.
func msOf(line, name string) (float64, bool) {
	m := regexp.MustCompile(`\b` + name + ` ([0-9.]+) ms`).FindStringSubmatch(line)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	return v, err == nil
}

// The trajectory viewer shows what happened, read as a person reads it:
// for a finished model episode (a scripted model that takes 25 ms a
// reply) and a finished run's episode, the header names the episode, its
// game, seed, variant, how it ended (a step limit is not a loss) and its
// score; every step's timing is the step's own, not 0.0 ms; and no page
// shows undefined, NaN or a year-1 date.
func TestBrowserViewerShowsWhatHappened(t *testing.T) {
	model := llmtest.NewServer().Models("fake-model").Fallback(func(llmtest.Request) llmtest.Response {
		return llmtest.Text("THOUGHT: Looking around first.\nTOOL: play_action\nARGS: {\"action\": \"look\"}").WithUsage(100, 20).After(25 * time.Millisecond)
	})
	defer model.Close()
	s := newTestServer(t, Options{})
	var ep struct{ ID string }
	s.json("POST", "/api/episodes", map[string]any{"game": "lantern", "base_url": model.URL(), "model": "fake-model", "seed": 1, "steps": 3},
		http.StatusCreated, &ep)
	s.events("/api/episodes/"+ep.ID+"/events", "")
	var info EpisodeInfo
	s.json("GET", "/api/episodes/"+ep.ID, nil, http.StatusOK, &info)
	var run struct{ ID string }
	s.json("POST", "/api/experiments", ExperimentRequest{YAML: "name: walk\nvariants:\n  - {name: walkthrough, policy: walkthrough}\ngames: [lantern]\nseeds: [1]\nmax_steps: 5\nparallel: 1\n"}, http.StatusCreated, &run)
	s.waitStatus(run.ID, ExpComplete)
	var rt trajectoryView
	s.json("GET", "/api/experiments/"+run.ID+"/trajectory?variant=walkthrough&game=lantern&seed=1", nil, http.StatusOK, &rt)

	b := newBrowser(t, s.ts.URL)
	b.t = t
	check := func(page string) string {
		t.Helper()
		text := eval[string](b, `document.body.innerText`)
		if m := badText.FindAllString(text, -1); len(m) > 0 {
			t.Errorf("%s shows %q:\n%s", page, m, text)
		}
		return text
	}

	// The model's episode.
	b.do("open the model episode's trajectory",
		chromedp.Navigate(b.url+"/#trajectory?ep="+ep.ID),
		chromedp.WaitVisible(css(`#traj-out .step`)),
	)
	b.shot("viewer-model-episode")
	check("the model episode's trajectory")
	head := b.text(`#traj-out [data-traj="head"]`)
	want := fmt.Sprintf("episode %s: lantern seed 1, llm (fake-model): stopped at the step limit, score %d/%d, moves %d, steps 3",
		ep.ID, info.FinalScore, info.MaxScore, info.Moves)
	if head != want {
		t.Errorf("the model episode's header reads\n%q, want\n%q", head, want)
	}
	if lostClass := eval[bool](b, `document.querySelector('#traj-out [data-traj="head"]').classList.contains('lost')`); lostClass {
		t.Error("an episode stopped at its step limit is shown as lost")
	}
	lines := eval[[]string](b, `[...document.querySelectorAll('#traj-out .step .kv')].map((e) => e.innerText).filter((s) => s.includes('wall'))`)
	if len(lines) != 3 {
		t.Fatalf("%d timing lines, want one for each of 3 steps: %q", len(lines), lines)
	}
	for _, l := range lines {
		wall, okWall := msOf(l, "wall")
		llm, okLLM := msOf(l, "model")
		if zeroMS.MatchString(l) || !okWall || !okLLM || llm < 20 || wall < llm {
			t.Errorf("timing line %q: want the step's wall and model time (the model takes 25 ms), none zero", l)
		}
	}

	// The run's episode: a baseline, stopped at its 5-step limit.
	b.do("open the run episode's trajectory",
		chromedp.Navigate(b.url+"/#trajectory?run="+run.ID+"&variant=walkthrough&game=lantern&seed=1"),
		until(`(document.querySelector('#traj-out [data-traj="head"]') || {textContent: ""}).textContent.includes("`+run.ID+`")`, wait),
	)
	b.shot("viewer-run-episode")
	if fits := eval[bool](b, `(() => { const i = document.querySelector('#traj-a'); return i.scrollWidth <= i.clientWidth; })()`); !fits {
		t.Errorf("the A box cuts its reference %q", eval[string](b, `document.querySelector('#traj-a').value`))
	}
	check("the run episode's trajectory")
	head = b.text(`#traj-out [data-traj="head"]`)
	want = fmt.Sprintf("%s: lantern seed 1, walkthrough, played by walkthrough (baseline, no model): stopped at the step limit, score %d/%d, moves %d, steps 5",
		rt.Title, rt.FinalScore, rt.MaxScore, rt.Moves)
	if rt.Title != run.ID+": walkthrough/lantern/1" || head != want {
		t.Errorf("the run episode's header reads\n%q, want\n%q", head, want)
	}
	lines = eval[[]string](b, `[...document.querySelectorAll('#traj-out .step .kv')].map((e) => e.innerText).filter((s) => s.includes('wall'))`)
	for _, l := range lines {
		if wall, ok := msOf(l, "wall"); !ok || wall <= 0 || strings.Contains(l, "model") {
			t.Errorf("a baseline's timing line %q: want its wall time and no model time", l)
		}
	}

	// Both side by side.
	b.do("the model episode and the run's side by side",
		chromedp.Navigate(b.url+fmt.Sprintf("/#trajectory?a=%s&b=%s", urlQuery("ep="+ep.ID), urlQuery("run="+run.ID+"&variant=walkthrough&game=lantern&seed=1"))),
		chromedp.WaitVisible(css(`#traj-note`)))
	b.shot("viewer-side-by-side")
	if text := check("the side-by-side view"); zeroMS.MatchString(text) {
		t.Errorf("the side-by-side view shows a 0.0 ms timing:\n%s", text)
	}

	// The pages that list the finished episode and run.
	b.do("open the experiments", chromedp.Navigate(b.url+"/#experiments"),
		until(`document.querySelectorAll('#exp-table td.st-complete').length === 1`, wait))
	check("the experiments page")
	b.do("open the run's records", chromedp.Click(css(`#exp-table tbody tr a`)),
		until(`document.querySelectorAll('#exp-records tbody tr').length === 1`, wait))
	check("the run's records")
	b.do("compare the run", chromedp.Navigate(b.url+"/#compare?ids="+run.ID), chromedp.WaitVisible(css(`#cmp-rows`)))
	b.shot("viewer-compare")
	check("the run's comparison")
	b.do("open the played episodes", chromedp.Navigate(b.url+"/#play"),
		until(`document.body.innerText.includes("`+ep.ID+`")`, wait))
	check("the play page's episodes")
}

// The play page's score chart scales to the scores reached: 5 points of
// Zork's 350 fill the chart to 5 with the maximum named above it; a
// score near the maximum draws the maximum as a line. And the
// navigation fits a window 800 px wide.
func TestBrowserChartAndNavigation(t *testing.T) {
	s := newTestServer(t, Options{})
	b := newBrowser(t, s.ts.URL)
	b.do("open the page at 800 px", chromedp.EmulateViewport(800, 900), chromedp.Navigate(b.url+"/#play"),
		chromedp.WaitReady(css(`#play-chart`)))
	top := eval[string](b, `drawChart(document.querySelector('#play-chart'), [{score: 0, max_score: 350}, {score: 5, max_score: 350}]),
		document.querySelector('#play-chart').dataset.top`)
	label := eval[string](b, `document.querySelector('#play-chart .max-label').textContent`)
	lines := eval[int](b, `document.querySelectorAll('#play-chart line.max').length`)
	if top != "5" || label != "max 350 (above)" || lines != 0 {
		t.Errorf("5 of 350: the chart's top is %q, its label %q, %d max lines: want 5, the maximum named above, no line", top, label, lines)
	}
	top = eval[string](b, `drawChart(document.querySelector('#play-chart'), [{score: 55, max_score: 60}]), document.querySelector('#play-chart').dataset.top`)
	if lines = eval[int](b, `document.querySelectorAll('#play-chart line.max').length`); top != "60" || lines != 1 {
		t.Errorf("55 of 60: the chart's top is %q with %d max lines, want 60 and the maximum drawn", top, lines)
	}
	if text := eval[string](b, `document.querySelector('#play-chart').textContent`); strings.Contains(text, "null") {
		t.Errorf("the chart shows %q", text)
	}
	// A long message in the header line must not squeeze the links.
	eval[bool](b, `flash("experiment walk-20261202-223640: config variants[2].model: no model named gpt-unknown at http://127.0.0.1:8080/v1"), true`)
	b.shot("play-800px")
	overflow := eval[[]string](b, `[...document.querySelectorAll('nav a')].filter((a) => a.getBoundingClientRect().right > document.documentElement.clientWidth || a.getClientRects().length > 1).map((a) => a.textContent)`)
	if rows := eval[int](b, `new Set([...document.querySelectorAll('nav a')].map((a) => Math.round(a.getBoundingClientRect().top))).size`); rows != 1 {
		t.Errorf("at 800 px with a message shown, the navigation takes %d lines, want 1", rows)
	}
	wide := eval[bool](b, `document.documentElement.scrollWidth > document.documentElement.clientWidth`)
	if len(overflow) > 0 || wide {
		t.Errorf("at 800 px the navigation links %q do not fit (page wider than the window: %v)", overflow, wide)
	}
}

// An episode started from the page or the API records what ran: the
// model, its endpoint with its key masked, grue's version and revision,
// and the price source (unknown for a model with no known price); the
// trajectory view passes the price source on.
func TestEpisodeInfoSaysWhatRan(t *testing.T) {
	model := llmtest.NewServer().Models("no-price-model").Fallback(func(llmtest.Request) llmtest.Response {
		return llmtest.Text("THOUGHT: Looking around first.\nTOOL: play_action\nARGS: {\"action\": \"look\"}").WithUsage(100, 20)
	})
	defer model.Close()
	s := newTestServer(t, Options{})
	var ep struct{ ID string }
	s.json("POST", "/api/episodes", map[string]any{"game": "lantern", "base_url": model.URL() + "?api_key=sk-inurlsecret", "model": "no-price-model", "steps": 2},
		http.StatusCreated, &ep)
	s.events("/api/episodes/"+ep.ID+"/events", "")
	var info EpisodeInfo
	s.json("GET", "/api/episodes/"+ep.ID, nil, http.StatusOK, &info)
	_, raw := s.do("GET", "/api/episodes/"+ep.ID, nil)
	if info.Model != "no-price-model" || info.BaseURL != model.URL()+"?api_key=[redacted]" || info.PriceSource != "unknown" || info.GrueVersion == "" || info.GrueRevision == "" {
		t.Errorf("the episode says model %q, endpoint %q, price %q, grue %q revision %q", info.Model, info.BaseURL, info.PriceSource, info.GrueVersion, info.GrueRevision)
	}
	if strings.Contains(string(raw), "sk-inurlsecret") {
		t.Errorf("the episode's info shows the key: %s", raw)
	}
	var v trajectoryView
	s.json("GET", "/api/episodes/"+ep.ID+"/trajectory", nil, http.StatusOK, &v)
	if v.PriceSource != "unknown" {
		t.Errorf("the trajectory view's price source %q, want unknown", v.PriceSource)
	}
	var b struct{ ID string }
	s.json("POST", "/api/episodes", map[string]any{"game": "lantern", "policy": "walkthrough", "steps": 2}, http.StatusCreated, &b)
	s.events("/api/episodes/"+b.ID+"/events", "")
	var binfo EpisodeInfo
	s.json("GET", "/api/episodes/"+b.ID, nil, http.StatusOK, &binfo)
	if binfo.PriceSource != "none" || binfo.BaseURL != "" || binfo.GrueRevision == "" {
		t.Errorf("a baseline's episode says price %q, endpoint %q, revision %q", binfo.PriceSource, binfo.BaseURL, binfo.GrueRevision)
	}
}

// The Play page's live status says who plays, a model by its name or a
// baseline as one, while the episode plays and once it has ended; a
// model with no known price costs "unknown" there and in the viewer,
// never $0.0000; and the page shows no undefined, NaN or 0.0 ms.
func TestBrowserPlayStatusSaysWhoPlays(t *testing.T) {
	model := llmtest.NewServer().Models("no-price-model").Fallback(func(llmtest.Request) llmtest.Response {
		return llmtest.Text("THOUGHT: Looking around first.\nTOOL: play_action\nARGS: {\"action\": \"look\"}").WithUsage(100, 20).After(150 * time.Millisecond)
	})
	defer model.Close()
	s := newTestServer(t, Options{})
	b := newBrowser(t, s.ts.URL)
	status := `document.querySelector('#play-status').textContent`
	b.do("a model's episode on the Play page",
		chromedp.Navigate(b.url+"/#play"),
		chromedp.WaitReady(css(`#play-game option[value="lantern"]`)),
		chromedp.SetValue(css(`#play-policy`), "llm"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#play-policy').dispatchEvent(new Event('change'))`),
		chromedp.SetValue(css(`input[name="base_url"]`), model.URL()),
		chromedp.SetValue(css(`input[name="model"]`), "no-price-model"),
		chromedp.SetValue(css(`input[name="steps"]`), "6"),
		chromedp.Click(css(`#play-run`)),
		until(`/Step [1-5] /.test(`+status+`)`, wait),
	)
	live := b.text("#play-status")
	b.shot("play-status-live")
	if !strings.HasPrefix(live, "model: no-price-model · Step ") || !strings.Contains(live, "cost unknown") {
		t.Errorf("while the model plays the status reads %q: want who plays (model: no-price-model) and cost unknown", live)
	}
	b.do("the episode ends", chromedp.WaitVisible(css(`#play-final`)))
	end, final := b.text("#play-status"), b.text("#play-final")
	if !strings.HasPrefix(end, "model: no-price-model · ") || !strings.Contains(final, "cost unknown") || strings.Contains(final, "$0.0000") {
		t.Errorf("at the end the page says %q / %q: want who played and cost unknown", end, final)
	}
	text := eval[string](b, `document.body.innerText`)
	if m := badText.FindAllString(text, -1); len(m) > 0 || zeroMS.MatchString(text) {
		t.Errorf("the Play page shows %q (or a 0.0 ms timing):\n%s", m, text)
	}
	b.do("its trajectory", chromedp.Click(css(`#play-result a`)), chromedp.WaitVisible(css(`#traj-out .step`)))
	steps := b.text("#traj-out .steps")
	if !strings.Contains(steps, "cost unknown") || strings.Contains(steps, "$0.0000") {
		t.Errorf("the viewer's steps show the unknown cost as %q", steps)
	}

	b.do("a baseline's episode on the Play page",
		chromedp.Navigate(b.url+"/#play"),
		chromedp.WaitReady(css(`#play-game option[value="lantern"]`)),
		chromedp.SetValue(css(`#play-policy`), "walkthrough"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#play-policy').dispatchEvent(new Event('change'))`),
		chromedp.SetValue(css(`input[name="steps"]`), "4"),
		chromedp.Click(css(`#play-run`)),
		until(`/^baseline: walkthrough · Score /.test(`+status+`)`, wait),
	)
	if final := b.text("#play-final"); !strings.Contains(final, "cost $0.0000") {
		t.Errorf("a baseline's result %q: want its cost, $0.0000 (no model, nothing paid)", final)
	}
	// A baseline's steps take well under a millisecond: never shown as 0.0 ms.
	cards := eval[[]string](b, `[...document.querySelectorAll('#play-steps .step .head')].map((e) => e.innerText)`)
	for _, c := range cards {
		if zeroMS.MatchString(c) || badText.MatchString(c) {
			t.Errorf("a baseline's step card reads %q", c)
		}
	}
	if len(cards) != 4 {
		t.Errorf("%d step cards, want 4: %q", len(cards), cards)
	}
}

// An endpoint with no model, whose /models does not answer, is refused
// before anything plays, saying what the server said and how to name a
// model on the page; no baseline plays in the model's place.
func TestEpisodeEndpointWithoutModel(t *testing.T) {
	model := llmtest.NewServer()
	defer model.Close()
	s := newTestServer(t, Options{})
	code, out := s.do("POST", "/api/episodes", map[string]any{"game": "lantern", "base_url": model.Root() + "/nothing/v1", "steps": 2})
	var e apiError
	if err := json.Unmarshal(out, &e); err != nil {
		t.Fatalf("%d %s: %v", code, out, err)
	}
	if code != http.StatusBadRequest || e.Field != "model" || !strings.Contains(e.Error, "did not list its models") || !strings.Contains(e.Error, "give the model's name") {
		t.Errorf("POST an endpoint with no model: %d %+v", code, e)
	}
	var list []EpisodeInfo
	s.json("GET", "/api/episodes", nil, http.StatusOK, &list)
	if len(list) != 0 {
		t.Errorf("an episode was started: %+v", list)
	}
}
