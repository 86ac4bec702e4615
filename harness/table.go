package harness

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Output formats of Comparison.Write.
const (
	FormatTable    = "table" // boxed terminal tables
	FormatMarkdown = "md"    // GitHub-flavoured Markdown tables
	FormatCSV      = "csv"   // one row per variant and game, for spreadsheets and pandas
	FormatJSON     = "json"  // the Comparison itself
)

// SparkWidth is the widest a score-by-step sparkline gets in the tables.
const SparkWidth = 20

// DefaultTableWidth is the width, in columns, the terminal tables fit
// when no other width is given.
const DefaultTableWidth = 120

// Write renders the comparison in format: "table", "md" (or "markdown"),
// "csv" or "json"; tables fit DefaultTableWidth columns.
func (c *Comparison) Write(w io.Writer, format string) error {
	return c.WriteWidth(w, format, DefaultTableWidth)
}

// WriteWidth is Write with the terminal tables fitted to width columns
// (see WriteTableWidth); the other formats hold every column.
func (c *Comparison) WriteWidth(w io.Writer, format string, width int) error {
	switch strings.ToLower(format) {
	case FormatTable, "":
		return c.WriteTableWidth(w, width)
	case FormatMarkdown, "markdown":
		return c.WriteMarkdown(w)
	case FormatCSV:
		return c.WriteCSV(w)
	case FormatJSON:
		return c.WriteJSON(w)
	}
	return fmt.Errorf("write comparison: unknown format %q (table, md, csv or json)", format)
}

// String returns the comparison as terminal tables.
func (c *Comparison) String() string {
	var b bytes.Buffer
	if err := c.WriteTable(&b); err != nil {
		return "comparison: " + err.Error()
	}
	return b.String()
}

// section is one table of a rendered comparison: a title, a header and
// rows of cells, which columns hold numbers (aligned right), and notes
// printed under the table. For a terminal too narrow for it, names are
// the columns whose cells may be cut short (names of variants and
// games) and drop the columns that may be left out, the first first.
type section struct {
	title   string
	header  []string
	rows    [][]string
	numeric []bool
	notes   []string
	names   []string
	drop    []string
}

// EstimateMark prefixes a token figure in the tables that is in part the
// agent's estimate (for model replies that came without usage).
const EstimateMark = "~"

func (c *Comparison) sections() []section {
	return []section{c.scoreSection(), c.pairedSection(), c.leaderboardSection()}
}

func (c *Comparison) scoreSection() section {
	pct := int(math.Round(100 * c.Bootstrap.Level))
	s := section{
		title: fmt.Sprintf("Scores (mean [%d%% CI])", pct),
		header: []string{"Game", "Variant", "Episodes", "Errors", "Won/ended", "Score", "% of max",
			"Moves", "Rooms", "First point", "Invalid", "Tokens", "Cost", "Score by step"},
		numeric: []bool{false, false, true, true, true, true, true, true, true, true, true, true, true, false},
		names:   []string{"Game", "Variant"},
		drop: []string{cutStep + "32", "Invalid", "Rooms", "First point", "Moves", cutStep + "24",
			"Score by step", cutStep + "16", "Tokens", "Cost", "Errors", cutStep + "12", "Won/ended", "% of max", "Episodes"},
	}
	scales := c.sparkScales()
	estimated := false
	for _, r := range c.Rows {
		tokens := fmt.Sprintf("%.0f", r.MeanTokens)
		if r.MeanEstimatedTokens > 0 {
			tokens, estimated = EstimateMark+tokens, true
		}
		first := "-"
		if r.Scored > 0 {
			first = fmt.Sprintf("%.1f (%d/%d)", r.MeanFirstPointStep, r.Scored, r.Score.N)
		}
		sc := scales[r.Game]
		s.rows = append(s.rows, []string{
			r.Game, r.Variant,
			strconv.Itoa(r.Episodes), strconv.Itoa(r.Errors),
			fmt.Sprintf("%d/%d", r.Won, r.Ended),
			summaryCell(r.Score, ""), summaryCell(r.Percent, "%"),
			fmt.Sprintf("%.1f", r.MeanMoves), fmt.Sprintf("%.1f", r.MeanRooms), first,
			fmt.Sprintf("%.1f%%", 100*r.InvalidRate),
			tokens, costCell(r),
			SparklineScaled(r.ScoreByStep, SparkWidth, sc[0], sc[1]),
		})
	}
	if slices.ContainsFunc(c.Rows, func(r VariantGame) bool { return r.CostUnknown > 0 }) {
		s.notes = append(s.notes, "Cost unknown: the model has no known price (price_source in results.jsonl); \"≥\" marks a lower bound, the episodes of unknown cost counted as 0.")
	}
	if c.RunsApart {
		s.notes = append(s.notes, "The runs share variant names: each variant is named RUN/NAME by its run (its config's label, else its directory's name), and no run's records replace another's.")
	}
	s.notes = append(s.notes, "Won/ended: episodes that won the game / whose game ended otherwise (the player died); the rest stopped at a limit or failed.")
	if estimated {
		s.notes = append(s.notes, EstimateMark+": the mean tokens include the agent's estimates for model replies that came without usage (mean_estimated_tokens in --format csv or json says how many).")
	}
	return s
}

// sparkScales puts every variant's sparkline of a game on one scale, so
// that their heights compare.
func (c *Comparison) sparkScales() map[string][2]float64 {
	scales := map[string][2]float64{}
	for _, r := range c.Rows {
		if len(r.ScoreByStep) == 0 {
			continue
		}
		sc, ok := scales[r.Game]
		if !ok {
			sc = [2]float64{0, 0}
		}
		sc[0] = min(sc[0], slices.Min(r.ScoreByStep))
		sc[1] = max(sc[1], slices.Max(r.ScoreByStep))
		scales[r.Game] = sc
	}
	return scales
}

func (c *Comparison) pairedSection() section {
	pct := int(math.Round(100 * c.Bootstrap.Level))
	s := section{
		title:   fmt.Sprintf("Against %s (paired by game and seed)", c.Baseline),
		header:  []string{"Variant", "Game", "Pairs", fmt.Sprintf("Difference [%d%% CI]", pct), "Wins/losses/ties", "Sign test p"},
		numeric: []bool{false, false, true, true, true, true},
		names:   []string{"Variant", "Game"},
		drop:    []string{cutStep + "32", "Wins/losses/ties", cutStep + "24", "Pairs", cutStep + "16", "Sign test p", cutStep + "12"},
	}
	if c.PairedWithinRuns {
		// Each run's variants against that run's own baseline: the
		// table names the baseline of every row.
		s.title = fmt.Sprintf("Within each run, against its baseline (%s; paired by game and seed)", strings.Join(c.Baselines, ", "))
		s.header = append([]string{"Variant", "Against"}, s.header[1:]...)
		s.numeric = append([]bool{false, false}, s.numeric[1:]...)
		s.notes = append(s.notes, "The runs share variant names, so each variant is named RUN/NAME and paired within its run; --pair-across pairs every variant with one baseline.")
	}
	for _, p := range c.Paired {
		game, unit := p.Game, ""
		if p.Metric == MetricPercent {
			game, unit = "all games (% of max)", "%"
		}
		diff := signed(p.MeanDiff) + unit
		if p.CI != nil {
			diff += fmt.Sprintf(" [%s, %s]", signed(p.CI.Lo), signed(p.CI.Hi))
		}
		row := []string{
			p.Variant, game, strconv.Itoa(p.N), diff,
			fmt.Sprintf("%d/%d/%d", p.Wins, p.Losses, p.Ties), formatP(p.SignP),
		}
		if c.PairedWithinRuns {
			row = append([]string{p.Variant, p.Baseline}, row[1:]...)
		}
		s.rows = append(s.rows, row)
	}
	return s
}

func (c *Comparison) leaderboardSection() section {
	s := section{
		title:   "Leaderboard (mean % of max over games)",
		header:  []string{"Rank", "Variant", "% of max", "Games", "Episodes", "Won", "Ended", "Errors"},
		numeric: []bool{true, false, true, true, true, true, true, true},
		names:   []string{"Variant"},
		drop:    []string{cutStep + "32", "Ended", "Won", "Errors", cutStep + "24", "Episodes", "Games", cutStep + "16", cutStep + "12"},
		notes:   []string{"Won: episodes that won the game. Ended: episodes whose game ended otherwise (the player died). The rest stopped at a limit (steps, tokens, cost, time) or failed (Errors)."},
	}
	for _, e := range c.Leaderboard {
		p := "-"
		if e.PercentGames > 0 {
			p = fmt.Sprintf("%.1f%%", e.MeanPercent)
		}
		s.rows = append(s.rows, []string{
			strconv.Itoa(e.Rank), e.Variant, p, strconv.Itoa(e.Games),
			strconv.Itoa(e.Episodes), strconv.Itoa(e.Won), strconv.Itoa(e.Ended), strconv.Itoa(e.Errors),
		})
	}
	return s
}

// costNum is a cost for the CSV: empty when no episode's is known.
func costNum(r VariantGame, x float64) string {
	if r.CostUnknown >= r.Episodes {
		return ""
	}
	return num(x)
}

// costCell is a row's mean cost: "unknown" when no episode's cost is
// known, "≥$x" when only some are.
func costCell(r VariantGame) string {
	switch {
	case r.CostUnknown >= r.Episodes:
		return "unknown"
	case r.CostUnknown > 0:
		return fmt.Sprintf("≥$%.4f", r.MeanCost)
	}
	return fmt.Sprintf("$%.4f", r.MeanCost)
}

// summaryCell is "mean [lo, hi]" with one decimal, "-" for no values.
func summaryCell(s Summary, unit string) string {
	if s.N == 0 {
		return "-"
	}
	out := fmt.Sprintf("%.1f%s", s.Mean, unit)
	if s.CI != nil && s.N > 1 {
		out += fmt.Sprintf(" [%.1f, %.1f]", s.CI.Lo, s.CI.Hi)
	}
	return out
}

// signed formats a difference with its sign and two decimals.
func signed(x float64) string {
	if x == 0 {
		return "0.00"
	}
	return fmt.Sprintf("%+.2f", x)
}

// formatP gives a p-value four decimals, and "<0.0001" below that.
func formatP(p float64) string {
	if p < 0.0001 {
		return "<0.0001"
	}
	return fmt.Sprintf("%.4f", p)
}

// WriteTable renders the comparison as boxed tables for a terminal of
// DefaultTableWidth columns: the scores of each variant and game with a
// sparkline of the mean score by step, the paired differences against
// the baseline, and the leaderboard.
func (c *Comparison) WriteTable(w io.Writer) error {
	return c.WriteTableWidth(w, DefaultTableWidth)
}

// WriteTableWidth is WriteTable for a terminal of width columns. A table
// wider than that has its long names cut in the middle ("…") and then
// its less important columns left out, as the REPL's :table leaves out
// columns; a line under the table says which (--format csv or json holds
// them all). Notes are wrapped to the width.
func (c *Comparison) WriteTableWidth(w io.Writer, width int) error {
	for i, s := range c.sections() {
		if len(s.rows) == 0 {
			continue
		}
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, wrapText(s.title, width))
		out, notes, err := s.fit(width)
		if err != nil {
			return fmt.Errorf("write comparison table: %w", err)
		}
		if _, err := w.Write(out); err != nil {
			return fmt.Errorf("write comparison table: %w", err)
		}
		for _, n := range append(notes, s.notes...) {
			fmt.Fprintln(w, wrapText(n, width))
		}
	}
	return nil
}

// WriteMarkdown renders the comparison as GitHub-flavoured Markdown: a
// heading and a table for each part.
func (c *Comparison) WriteMarkdown(w io.Writer) error {
	var b bytes.Buffer
	for i, s := range c.sections() {
		if len(s.rows) == 0 {
			continue
		}
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "### %s\n\n", mdEscape(s.title))
		b.WriteString("|")
		for _, h := range s.header {
			fmt.Fprintf(&b, " %s |", mdEscape(h))
		}
		b.WriteString("\n|")
		for _, n := range s.numeric {
			if n {
				b.WriteString("---:|")
			} else {
				b.WriteString("---|")
			}
		}
		b.WriteString("\n")
		for _, row := range s.rows {
			b.WriteString("|")
			for _, cell := range row {
				fmt.Fprintf(&b, " %s |", mdEscape(cell))
			}
			b.WriteString("\n")
		}
		for _, n := range s.notes {
			fmt.Fprintf(&b, "\n%s\n", n)
		}
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write comparison markdown: %w", err)
	}
	return nil
}

// mdEscape keeps a cell's pipes and line breaks from breaking the table.
func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

// csvHeader names the columns of WriteCSV.
var csvHeader = []string{
	"variant", "game", "episodes", "errors", "won", "ended", "completed", "max_score",
	"score_n", "score_mean", "score_std", "score_lo", "score_hi",
	"percent_n", "percent_mean", "percent_lo", "percent_hi",
	"mean_moves", "mean_steps", "mean_rooms", "scored", "mean_first_point_step",
	"invalid_rate", "mean_tokens", "mean_estimated_tokens", "mean_cost", "total_cost", "mean_duration_s",
	"baseline", "pairs", "diff_mean", "diff_lo", "diff_hi", "wins", "losses", "ties", "sign_p",
}

// WriteCSV writes one row per variant and game with the full-precision
// statistics and, for variants other than the baseline, the paired
// difference from the baseline on that game. Empty cells mean no value.
func (c *Comparison) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(csvHeader)
	for _, r := range c.Rows {
		lo, hi := ciCells(r.Score.CI)
		plo, phi := ciCells(r.Percent.CI)
		pmean := ""
		if r.Percent.N > 0 {
			pmean = num(r.Percent.Mean)
		}
		smean, sstd := "", ""
		if r.Score.N > 0 {
			smean, sstd = num(r.Score.Mean), num(r.Score.Std)
		}
		first := ""
		if r.Scored > 0 {
			first = num(r.MeanFirstPointStep)
		}
		row := []string{
			r.Variant, r.Game, strconv.Itoa(r.Episodes), strconv.Itoa(r.Errors),
			strconv.Itoa(r.Won), strconv.Itoa(r.Ended), strconv.Itoa(r.Completed), strconv.Itoa(r.MaxScore),
			strconv.Itoa(r.Score.N), smean, sstd, lo, hi,
			strconv.Itoa(r.Percent.N), pmean, plo, phi,
			num(r.MeanMoves), num(r.MeanSteps), num(r.MeanRooms), strconv.Itoa(r.Scored), first,
			num(r.InvalidRate), num(r.MeanTokens), num(r.MeanEstimatedTokens), costNum(r, r.MeanCost), costNum(r, r.TotalCost), num(r.MeanDurationS),
			c.baselineOf(r.Variant),
		}
		if p, ok := c.PairedFor(r.Variant, r.Game); ok {
			dlo, dhi := ciCells(p.CI)
			row = append(row, strconv.Itoa(p.N), num(p.MeanDiff), dlo, dhi,
				strconv.Itoa(p.Wins), strconv.Itoa(p.Losses), strconv.Itoa(p.Ties), num(p.SignP))
		} else {
			row = append(row, "", "", "", "", "", "", "", "")
		}
		cw.Write(row)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write comparison csv: %w", err)
	}
	return nil
}

func ciCells(iv *Interval) (lo, hi string) {
	if iv == nil {
		return "", ""
	}
	return num(iv.Lo), num(iv.Hi)
}

// num formats x to 12 significant digits: enough for any statistic here,
// and free of the last-bit noise of floating point (77.30249999999997
// reads 77.3025).
func num(x float64) string { return strconv.FormatFloat(x, 'g', 12, 64) }

// WriteJSON writes the comparison as indented JSON.
func (c *Comparison) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(c); err != nil {
		return fmt.Errorf("write comparison json: %w", err)
	}
	return nil
}
