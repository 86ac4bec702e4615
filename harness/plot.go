package harness

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PlotOptions tune the score plots. The zero value draws each variant's
// mean score with its 95% bootstrap interval (2,000 resamples a step),
// 8 by 5 inches (768 by 480 pixels in PNG), as SVG and PNG.
type PlotOptions struct {
	Band      string    // BandCI (the default) or BandStd
	Bootstrap Bootstrap // for BandCI; zero Resamples means 2,000
	Width     float64   // inches; 0 means 8
	Height    float64   // inches; 0 means 5
	Formats   []string  // "svg", "png" (and anything gonum/plot writes: "pdf", "eps"); nil means svg and png
}

func (o PlotOptions) withDefaults() PlotOptions {
	if o.Band == "" {
		o.Band = BandCI
	}
	if o.Bootstrap.Resamples <= 0 {
		o.Bootstrap.Resamples = 2000
	}
	o.Bootstrap = o.Bootstrap.withDefaults()
	if o.Width <= 0 {
		o.Width = 8
	}
	if o.Height <= 0 {
		o.Height = 5
	}
	if len(o.Formats) == 0 {
		o.Formats = []string{"svg", "png"}
	}
	return o
}

// PlotScores draws score against step for each variant, one plot per game,
// and writes it in each format to dir as score_GAME.svg, score_GAME.png
// (the game's name made safe for a file name, with _2, _3 added when two
// games' names come out the same). It returns the files it
// wrote. Games whose episodes have no score history get no plot; when no
// game has one, it is an error.
func PlotScores(rs *ResultSet, dir string, opts PlotOptions) ([]string, error) {
	opts = opts.withDefaults()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("plot scores: %w", err)
	}
	var files []string
	used := map[string]bool{}
	for _, g := range rs.Games() {
		p, err := scorePlot(rs, g, opts)
		if err != nil {
			return files, err
		}
		if p == nil {
			continue
		}
		base := "score_" + fileSafe(g)
		for i := 2; used[base]; i++ {
			base = fmt.Sprintf("score_%s_%d", fileSafe(g), i)
		}
		used[base] = true
		for _, format := range opts.Formats {
			name := filepath.Join(dir, base+"."+strings.ToLower(format))
			if err := savePlot(p, name, format, opts); err != nil {
				return files, err
			}
			files = append(files, name)
		}
	}
	if len(files) == 0 {
		return nil, errors.New("plot scores: no episode has a score history (score_by_step)")
	}
	return files, nil
}

// PlotGame draws score against step for each variant on game and writes
// the plot to w in format ("svg", "png", ...).
func PlotGame(rs *ResultSet, game string, w io.Writer, format string, opts PlotOptions) error {
	opts = opts.withDefaults()
	p, err := scorePlot(rs, game, opts)
	if err != nil {
		return err
	}
	if p == nil {
		return fmt.Errorf("plot %s: no episode of it has a score history", game)
	}
	wt, err := p.WriterTo(vg.Length(opts.Width)*vg.Inch, vg.Length(opts.Height)*vg.Inch, strings.ToLower(format))
	if err != nil {
		return fmt.Errorf("plot %s: %w", game, err)
	}
	if _, err := wt.WriteTo(w); err != nil {
		return fmt.Errorf("plot %s: %w", game, err)
	}
	return nil
}

func savePlot(p *plot.Plot, name, format string, opts PlotOptions) error {
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	wt, err := p.WriterTo(vg.Length(opts.Width)*vg.Inch, vg.Length(opts.Height)*vg.Inch, strings.ToLower(format))
	if err == nil {
		_, err = wt.WriteTo(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return fmt.Errorf("plot %s: %w", name, err)
	}
	return nil
}

// scorePlot builds the plot of game, nil when no variant has a curve.
func scorePlot(rs *ResultSet, game string, opts PlotOptions) (*plot.Plot, error) {
	curves, err := ScoreCurves(rs, game, opts.Band, opts.Bootstrap)
	if err != nil {
		return nil, fmt.Errorf("plot %s: %w", game, err)
	}
	if len(curves) == 0 {
		return nil, nil
	}
	p := plot.New()
	band := "± 1 std"
	if opts.Band == BandCI {
		band = fmt.Sprintf("%.0f%% CI of the mean", 100*opts.Bootstrap.Level)
	}
	p.Title.Text = fmt.Sprintf("%s: score by step (mean, band %s)", game, band)
	// gonum/plot puts the title's top a descent above the canvas, which
	// cuts its top off: align it lower by as much, and pad it from the axes.
	ext := p.Title.TextStyle.FontExtents()
	p.Title.TextStyle.YAlign = draw.YTop - draw.YAlignment(ext.Descent/p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y)
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = "step"
	p.Y.Label.Text = "score"
	p.Add(plotter.NewGrid())
	ymin, ymax := 0.0, 0.0
	for i, c := range curves {
		col := plotutil.Color(i)
		poly, err := plotter.NewPolygon(bandRing(c))
		if err != nil {
			return nil, fmt.Errorf("plot %s: band of %s: %w", game, c.Variant, err)
		}
		poly.Color = translucent(col)
		poly.LineStyle.Width = 0
		line, err := plotter.NewLine(meanPoints(c))
		if err != nil {
			return nil, fmt.Errorf("plot %s: line of %s: %w", game, c.Variant, err)
		}
		line.Color = col
		line.Width = vg.Points(2)
		p.Add(poly, line)
		p.Legend.Add(fmt.Sprintf("%s (n=%d)", c.Variant, c.Episodes), line)
		for i := range c.Lo {
			ymin, ymax = math.Min(ymin, c.Lo[i]), math.Max(ymax, c.Hi[i])
		}
	}
	// Some room above the highest band, so that a curve at the top (a
	// walkthrough at the maximum) does not run along the frame.
	// The game's maximum score as a dashed line, when it is near enough
	// the scores reached not to flatten them (or none was reached); else
	// the legend says it.
	maxScore, steps, maxLine := 0, 1, 0.0
	for _, r := range rs.Records {
		if r.Game == game {
			maxScore = max(maxScore, r.MaxScore)
		}
	}
	for _, c := range curves {
		steps = max(steps, len(c.Mean))
	}
	if maxScore > 0 {
		m := float64(maxScore)
		if ymax <= 0 || m <= 2*ymax {
			line, err := plotter.NewLine(plotter.XYs{{X: 1, Y: m}, {X: float64(steps), Y: m}})
			if err != nil {
				return nil, fmt.Errorf("plot %s: maximum score line: %w", game, err)
			}
			line.Color = color.Gray{Y: 0x60}
			line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			p.Add(line)
			p.Legend.Add(fmt.Sprintf("max score %d", maxScore), line)
			ymax = max(ymax, m)
			maxLine = m
		} else {
			p.Legend.Add(fmt.Sprintf("max score %d (above the axis)", maxScore))
		}
	}
	// A run that never scored still shows a score axis from 0 to 1, not
	// a degenerate one.
	if ymax-ymin < 1 {
		ymax = ymin + 1
	}
	p.Y.Min, p.Y.Max = ymin, ymax+0.05*(ymax-ymin)
	p.X.Min = 1
	// The legend goes in the corner where it hides the least of the lines.
	p.Legend.Top, p.Legend.Left = legendCorner(curves, maxLine, 1, float64(steps), p.Y.Min, p.Y.Max)
	p.X.Tick.Marker = integerTicks{}
	p.Y.Tick.Marker = integerTicks{}
	return p, nil
}

// integerTicks marks whole numbers only: steps and scores are integers,
// so a tick at 0.25 would name a value no episode can have.
type integerTicks struct{}

// Ticks returns gonum/plot's default ticks that fall on whole numbers,
// or a tick at every whole number when too few of those do.
func (integerTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for _, t := range (plot.DefaultTicks{}).Ticks(lo, hi) {
		if t.Value == math.Trunc(t.Value) {
			out = append(out, t)
		}
	}
	if countLabels(out) >= 2 {
		return out
	}
	out = out[:0]
	for v := math.Ceil(lo); v <= hi; v++ {
		out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	return out
}

func countLabels(ts []plot.Tick) int {
	n := 0
	for _, t := range ts {
		if t.Label != "" {
			n++
		}
	}
	return n
}

func meanPoints(c ScoreCurve) plotter.XYs {
	xys := make(plotter.XYs, len(c.Mean))
	for i, m := range c.Mean {
		xys[i] = plotter.XY{X: float64(i + 1), Y: m}
	}
	return xys
}

// bandRing is the band's outline: along the low edge, back along the high.
func bandRing(c ScoreCurve) plotter.XYs {
	n := len(c.Mean)
	xys := make(plotter.XYs, 0, 2*n)
	for i := range n {
		xys = append(xys, plotter.XY{X: float64(i + 1), Y: c.Lo[i]})
	}
	for i := n - 1; i >= 0; i-- {
		xys = append(xys, plotter.XY{X: float64(i + 1), Y: c.Hi[i]})
	}
	return xys
}

func translucent(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	const a = 0x38
	// Premultiplied alpha: scale the channels with it.
	return color.RGBA{R: uint8(r >> 8 * a / 0xff), G: uint8(g >> 8 * a / 0xff), B: uint8(b >> 8 * a / 0xff), A: a}
}

// fileSafe turns a game's name (perhaps a story path) into a file name.
func fileSafe(name string) string {
	name = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	out := []rune(name)
	for i, r := range out {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			out[i] = '_'
		}
	}
	if len(out) == 0 {
		return "game"
	}
	return string(out)
}
