package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/agent/memory"
)

// chromium returns Debian's chromium (or another Chrome). Without one the
// browser test is skipped, except in CI (CI=true), where it fails: CI
// installs chromium to run it.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium on PATH: CI runs the browser tests (apt-get install chromium)")
	}
	t.Skip("no chromium on PATH: the browser tests need Debian's chromium (CI installs it)")
	return ""
}

// artifacts is where the browser test leaves its screenshots:
// $GRUE_ARTIFACTS when set, else the test's temporary folder.
func artifacts(t *testing.T) string {
	dir := os.Getenv("GRUE_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// browser is a headless chromium driven through the DevTools protocol.
type browser struct {
	t   *testing.T
	ctx context.Context
	url string
	art string
}

func newBrowser(t *testing.T, url string) *browser {
	exe := chromium(t)
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]), chromedp.ExecPath(exe),
		chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU, chromedp.WindowSize(1400, 1100))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 4*time.Minute)
	t.Cleanup(func() {
		cancelTime()
		cancelCtx()
		cancelAlloc()
	})
	return &browser{t: t, ctx: ctx, url: url, art: artifacts(t)}
}

// do runs actions; on failure it says what the page's message line
// held and keeps a screenshot of the page as it was.
func (b *browser) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.fail(what, err)
	}
}

// fail ends the test with err and what the page shows.
func (b *browser) fail(what string, err error) {
	b.t.Helper()
	fctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	flash, _ := chromedp.Run(fctx, chromedp.Text(chromedp.CSS("#flash")))
	cancel()
	b.shot("failed-" + strings.ReplaceAll(what, " ", "-"))
	b.t.Fatalf("%s: %v (the page says %q)", what, err, flash)
}

// text returns the text of the element sel (a CSS selector).
func (b *browser) text(sel string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		b.fail("read "+sel, err)
	}
	return s
}

// eval returns the value of a JavaScript expression in the page.
func eval[T any](b *browser, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.fail("evaluate "+expr, err)
	}
	return v
}

// until waits for a JavaScript condition to hold.
func until(expr string, timeout time.Duration) chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(timeout))
}

// shot saves a screenshot of the window as NAME.png.
func (b *browser) shot(name string) {
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return
	}
	path := filepath.Join(b.art, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Error(err)
	}
	b.t.Logf("screenshot: %s", path)
}

// The page, driven as a person would: the walkthrough wins Lantern with
// its steps streaming in; two small experiments are launched and
// compared; a model's episode shows its prompt in the trajectory viewer;
// a move is played by hand and undone; two episodes are shown side by
// side from their first difference.
func TestBrowser(t *testing.T) {
	model := llmtest.NewServer().Models("fake-model").Fallback(func(llmtest.Request) llmtest.Response {
		return llmtest.Text("THOUGHT: Looking around first.\nTOOL: play_action\nARGS: {\"action\": \"look\"}").After(20 * time.Millisecond)
	})
	defer model.Close()
	s := newTestServer(t, Options{})
	b := newBrowser(t, s.ts.URL)
	playWalkthrough(t, b)
	launchAndCompare(t, b)
	modelPrompt(t, b, model.URL())
	playByHand(b)
	sideBySide(t, b, s.experimentIDs())
}

// wait bounds each wait for the page.
const wait = time.Minute

// css is a CSS selector.
func css(sel string) chromedp.CSS { return chromedp.CSS(sel) }

// playWalkthrough plays the walkthrough on the page and checks that it
// shows 60/60 and victory, every step, and the map.
func playWalkthrough(t *testing.T, b *browser) {
	b.do("play the walkthrough",
		chromedp.Navigate(b.url+"/#play"),
		chromedp.WaitReady(css(`#play-game option[value="lantern"]`)),
		chromedp.SetValue(css(`#play-policy`), "walkthrough"),
		chromedp.Click(css(`#play-run`)),
		chromedp.WaitVisible(css(`#play-final`)),
	)
	status, final := b.text("#play-status"), b.text("#play-final")
	steps := eval[int](b, `document.querySelectorAll('#play-steps .step').length`)
	rooms := eval[int](b, `document.querySelectorAll('#play-map g[data-room]').length`)
	latencies := eval[[]float64](b, `window.grueLatencies.slice()`)
	b.shot("play-walkthrough")
	if !strings.Contains(status, "60/60") || !strings.Contains(status, "victory") || !strings.Contains(final, "victory true") {
		t.Errorf("after the walkthrough the page says %q / %q", status, final)
	}
	if steps != 38 || rooms < 10 {
		t.Errorf("%d steps shown (want 38), %d rooms on the map", steps, rooms)
	}
	if len(latencies) == 38 {
		slices.Sort(latencies)
		t.Logf("step end to browser event: median %.1f ms, max %.1f ms over %d steps", latencies[len(latencies)/2], latencies[len(latencies)-1], len(latencies))
	}
}

// launchAndCompare launches two small experiments from pasted YAML and
// compares them.
func launchAndCompare(t *testing.T, b *browser) {

	b.do("launch two experiments",
		chromedp.Navigate(b.url+"/#experiments"),
		chromedp.WaitReady(css(`#exp-yaml`)),
		chromedp.SetValue(css(`#exp-yaml`), quickYAML("walk", 2, 60, "walkthrough")),
		chromedp.Click(css(`#exp-launch`)),
		until(`document.querySelectorAll('#exp-table tbody tr').length === 1`, wait),
		chromedp.SetValue(css(`#exp-yaml`), quickYAML("short", 2, 10, "short=walkthrough")),
		chromedp.Click(css(`#exp-launch`)),
		until(`document.querySelectorAll('#exp-table td.st-complete').length === 2`, wait),
	)
	b.shot("experiments")
	b.do("compare",
		chromedp.Click(css(`#exp-table tbody tr:nth-child(1) input`)),
		chromedp.Click(css(`#exp-table tbody tr:nth-child(2) input`)),
		chromedp.Click(css(`#exp-compare`)),
		chromedp.WaitVisible(css(`#cmp-rows`)),
		until(`[...document.querySelectorAll('#cmp-out img')].every(i => i.complete && i.naturalWidth > 0)`, wait),
	)
	rows, paired := b.text("#cmp-rows"), b.text("#cmp-paired")
	b.shot("compare")
	if !strings.Contains(rows, "walkthrough") || !strings.Contains(rows, "short") || !strings.Contains(paired, "percent") {
		t.Errorf("compare tables: %q / %q", rows, paired)
	}
}

// modelPrompt plays a model's episode (the scripted model at url) and
// reads its first step's prompt in the trajectory viewer.
func modelPrompt(t *testing.T, b *browser, url string) {

	b.do("a model's episode and its prompt",
		chromedp.Navigate(b.url+"/#play"),
		chromedp.WaitReady(css(`#play-game option[value="lantern"]`)),
		chromedp.SetValue(css(`#play-policy`), "llm"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#play-policy').dispatchEvent(new Event('change'))`),
		chromedp.SetValue(css(`input[name="base_url"]`), url),
		chromedp.SetValue(css(`input[name="model"]`), "fake-model"),
		chromedp.SetValue(css(`input[name="steps"]`), "10"),
		chromedp.SetValue(css(`#play-memory`), "conversation"),
		chromedp.Click(css(`#play-run`)),
		until(`/tokens [1-9]/.test((document.querySelector('#play-final') || {}).textContent)`, wait),
		chromedp.Click(css(`#play-result a`)),
		chromedp.WaitVisible(css(`#traj-out .step details.prompt summary`)),
		chromedp.Click(css(`#traj-out .step details.prompt summary`)),
	)
	prompt := b.text("#traj-out .step details.prompt")
	// The memory choices are agent/memory's, filled in from GET /api/games.
	if offered := eval[[]string](b, `[...document.querySelectorAll('#play-memory option')].map((o) => o.value)`); !slices.Equal(offered, append([]string{""}, memory.Names()...)) {
		t.Errorf("the page offers the memory strategies %q, want default and %q", offered, memory.Names())
	}
	if modelLat := eval[[]float64](b, `window.grueLatencies.slice()`); len(modelLat) == 10 {
		slices.Sort(modelLat)
		t.Logf("model steps (20ms replies), step end to browser event: median %.1f ms, max %.1f ms", modelLat[5], modelLat[9])
	}
	b.shot("trajectory-prompt")
	if !strings.Contains(strings.ToLower(prompt), "system") || !strings.Contains(prompt, "Meadow") {
		t.Errorf("the first step's prompt shows %q", prompt)
	}
}

// playByHand plays a move by hand and takes it back.
func playByHand(b *browser) {

	handHas := func(want string) string {
		return `document.querySelector('#hand-status').textContent.includes(` + "`" + want + "`" + `)`
	}
	b.do("play by hand",
		chromedp.Navigate(b.url+"/#hand"),
		chromedp.WaitReady(css(`#hand-game option[value="lantern"]`)),
		chromedp.Click(css(`#hand-form button`)),
		until(handHas("Meadow"), wait),
		chromedp.SetValue(css(`#hand-command`), "west"),
		chromedp.Click(css(`#hand-input button[type="submit"]`)),
		until(handHas("Wooden Shed")+" && "+handHas("Moves: 1"), wait),
	)
	b.shot("play-by-hand")
	b.do("undo", chromedp.Click(css(`#hand-undo`)), until(handHas("Meadow")+" && "+handHas("Moves: 0"), wait))
}

// sideBySide shows the two experiments' first episodes side by side: the
// short one stops after 10 steps.
func sideBySide(t *testing.T, b *browser, ids map[string]string) {
	b.do("two episodes side by side",
		chromedp.Navigate(b.url+fmt.Sprintf("/#trajectory?a=%s&b=%s",
			urlQuery("run="+ids["walk"]+"&variant=walkthrough&game=lantern&seed=1"),
			urlQuery("run="+ids["short"]+"&variant=short&game=lantern&seed=1"))),
		chromedp.WaitVisible(css(`#traj-note`)),
	)
	note := b.text("#traj-note")
	b.shot("trajectory-side-by-side")
	if !strings.Contains(note, "differ from step 11") {
		t.Errorf("side by side: %q", note)
	}
}

// experimentIDs maps each experiment's name to its id.
func (s *testServer) experimentIDs() map[string]string {
	var list []ExperimentInfo
	s.json("GET", "/api/experiments", nil, 200, &list)
	out := map[string]string{}
	for _, x := range list {
		out[x.Name] = x.ID
	}
	return out
}

// urlQuery escapes a trajectory reference for a hash's query.
func urlQuery(s string) string {
	r := strings.NewReplacer("&", "%26", "=", "%3D")
	return r.Replace(s)
}

// TestBrowserToken: with a token, the page opened at the address grue
// web prints (/?token=T) takes the token out of the address bar, keeps
// no cookie, and works: its posts carry the token in a header, its event
// streams and images in their query.
func TestBrowserToken(t *testing.T) {
	s := newTestServer(t, Options{Token: "sesame"})
	b := newBrowser(t, s.ts.URL)
	b.do("open the printed address",
		chromedp.Navigate(b.url+"/?token=sesame#play"),
		chromedp.WaitReady(css(`#play-game option[value="lantern"]`)),
	)
	if search, cookie := eval[string](b, `location.search`), eval[string](b, `document.cookie`); search != "" || cookie != "" {
		t.Errorf("after opening /?token=: location.search %q, document.cookie %q: want both empty", search, cookie)
	}
	playWalkthrough(t, b) // opens /#play, without the token in the address
	launchAndCompare(t, b)
	playByHand(b)
}

// TestBrowserCSRF is the attack of issue 35, item 1, in a browser: a page
// on another port of 127.0.0.1, opened in the browser that holds the
// workbench, posts to its API with a no-cors fetch, credentials
// included, as text/plain. Nothing starts.
func TestBrowserCSRF(t *testing.T) {
	s := newTestServer(t, Options{Token: "sesame"})
	attack := `fetch(` + "`" + s.ts.URL + "/api/episodes`" + `, {method: "POST", mode: "no-cors", credentials: "include", body: '{"policy":"walkthrough"}'}).then(() => { document.title = "sent"; }, () => { document.title = "sent"; });`
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<!doctype html><title>evil</title><script>%s</script>", attack)
	}))
	defer evil.Close()
	b := newBrowser(t, s.ts.URL)
	b.do("open the workbench, then the other port's page",
		chromedp.Navigate(b.url+"/?token=sesame#play"),
		chromedp.WaitReady(css(`#play-game option[value="lantern"]`)),
		chromedp.Navigate(evil.URL+"/"),
		until(`document.title === "sent"`, wait),
	)
	var eps []EpisodeInfo
	code, body := s.send("GET", "/api/episodes", "", map[string]string{"Authorization": "Bearer sesame"})
	if err := json.Unmarshal([]byte(body), &eps); code != 200 || err != nil {
		t.Fatalf("GET /api/episodes: %d %s", code, body)
	}
	if len(eps) != 0 {
		t.Errorf("a page on another port started %d episodes", len(eps))
	}
}
