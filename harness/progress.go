package harness

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"
)

// progress shows a run as it goes: for each variant, the episodes done,
// running and failed and the mean score so far. On a terminal it draws a
// bar a variant (mpb); elsewhere (a log file, CI, a pipe) it prints one
// plain line for each episode that ends and each retry, which reads well
// in a log and is easy to grep.
type progress struct {
	mu       sync.Mutex // guards the counts
	writeMu  sync.Mutex // one line at a time
	w        io.Writer
	total    int
	finished int
	order    []string
	stats    map[string]*variantProgress

	bars *mpb.Progress // nil when plain
	bar  map[string]*mpb.Bar
}

// variantProgress is one variant's count so far.
type variantProgress struct {
	total, done, running, failed int
	// scores and percents of the episodes that did not fail
	scoreSum, percentSum float64
	scored, percents     int
}

func (v *variantProgress) add(r EpisodeRecord) {
	v.done++
	if r.Failed() {
		v.failed++
		return
	}
	v.scoreSum += float64(r.FinalScore)
	v.scored++
	if p, ok := r.PercentOfMax(); ok {
		v.percentSum += p
		v.percents++
	}
}

// status is "done 6/20  running 2  failed 0  mean 12.3 (3.5%)".
func (v *variantProgress) status() string {
	s := fmt.Sprintf("running %d  failed %d  mean ", v.running, v.failed)
	if v.scored == 0 {
		return s + "-"
	}
	s += fmt.Sprintf("%.1f", v.scoreSum/float64(v.scored))
	if v.percents == v.scored {
		s += fmt.Sprintf(" (%.1f%%)", v.percentSum/float64(v.percents))
	}
	return s
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newProgress starts reporting a run of the episodes in all, of which the
// records in done were played before (a resumed run). w nil reports
// nothing. bars draws progress bars (on a terminal) instead of lines.
func newProgress(w io.Writer, variants []string, all []EpisodeSpec, done []EpisodeRecord, bars bool) *progress {
	p := &progress{w: w, total: len(all), order: variants, stats: map[string]*variantProgress{}}
	for _, v := range variants {
		p.stats[v] = &variantProgress{}
	}
	for _, s := range all {
		if v := p.stats[s.Variant]; v != nil {
			v.total++
		}
	}
	for _, r := range done {
		if v := p.stats[r.Variant]; v != nil {
			v.add(r)
			p.finished++
		}
	}
	if w == nil || !bars {
		return p
	}
	opts := []mpb.ContainerOption{mpb.WithOutput(w), mpb.WithRefreshRate(200 * time.Millisecond)}
	if !isTerminal(w) {
		// Bars asked for on something else (a test, a log viewer that
		// understands escapes): draw anyway, lines 120 wide.
		opts = append(opts, mpb.WithAutoRefresh(), mpb.WithWidth(120))
	}
	p.bars = mpb.New(opts...)
	p.bar = map[string]*mpb.Bar{}
	width := 0
	for _, v := range variants {
		width = max(width, len(v))
	}
	for _, name := range variants {
		v := p.stats[name]
		b := p.bars.AddBar(int64(v.total), mpb.BarWidth(30),
			mpb.PrependDecorators(decor.Name(name, decor.WC{W: width + 1, C: decor.DindentRight}), decor.CountersNoUnit("%d/%d", decor.WC{W: 8})),
			mpb.AppendDecorators(decor.Any(func(decor.Statistics) string {
				p.mu.Lock()
				defer p.mu.Unlock()
				return v.status()
			})),
		)
		b.SetCurrent(int64(v.done))
		p.bar[name] = b
	}
	return p
}

// printf writes a plain line (when not drawing bars).
func (p *progress) printf(format string, args ...any) {
	if p.w == nil {
		return
	}
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	if p.bars != nil {
		fmt.Fprintf(p.bars, format, args...) // printed above the bars
		return
	}
	fmt.Fprintf(p.w, format, args...)
}

// begin counts an episode as running.
func (p *progress) begin(s EpisodeSpec) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if v := p.stats[s.Variant]; v != nil {
		v.running++
	}
}

// retry reports that an episode errored and will be played again.
func (p *progress) retry(s EpisodeSpec, attempt, attempts int, msg string) {
	p.printf("retry %s (attempt %d of %d failed: %s)\n", s.Key(), attempt, attempts, clipLine(msg, 160))
}

// abandon counts an episode that stopped running without a record (the
// run was cancelled while it played).
func (p *progress) abandon(s EpisodeSpec) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if v := p.stats[s.Variant]; v != nil {
		v.running--
	}
}

// end counts a finished episode and reports it.
func (p *progress) end(r EpisodeRecord) {
	p.mu.Lock()
	v := p.stats[r.Variant]
	if v == nil {
		p.mu.Unlock()
		return
	}
	v.running--
	v.add(r)
	p.finished++
	line := fmt.Sprintf("[%*d/%d] %s: %s  (%s: %d/%d, %s)\n", len(fmt.Sprint(p.total)), p.finished, p.total,
		r.Key(), outcome(r), r.Variant, v.done, v.total, v.status())
	p.mu.Unlock()
	if p.bars != nil {
		p.bar[r.Variant].Increment()
		if r.Failed() {
			p.printf("%s: FAILED: %s\n", r.Key(), clipLine(r.Error, 160))
		}
		return
	}
	p.printf("%s", line)
}

// outcome says how an episode ended, in a few words.
func outcome(r EpisodeRecord) string {
	if r.Failed() {
		return fmt.Sprintf("FAILED after %d attempt(s): %s", r.Attempts, clipLine(r.Error, 160))
	}
	score := fmt.Sprint(r.FinalScore)
	if r.MaxScore > 0 {
		score += fmt.Sprintf("/%d", r.MaxScore)
	}
	s := fmt.Sprintf("score %s in %d steps, %s", score, r.Steps, r.Duration().Round(time.Millisecond))
	switch {
	case r.Victory:
		s += ", won"
	case r.GameCompleted:
		s += ", game over"
	}
	return s
}

// close stops the bars: those of episodes never played (a drained or
// cancelled run) are left where they are.
func (p *progress) close() {
	if p.bars == nil {
		return
	}
	for _, b := range p.bar {
		if !b.Completed() {
			b.Abort(false)
		}
	}
	p.bars.Wait()
}

// clipLine makes s one line of at most n bytes.
func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n] + "..."
	}
	return s
}
