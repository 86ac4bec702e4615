package bench

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/grue-lab/grue/harness"
)

// Unknown is what a summary shows for a value grue cannot know.
const Unknown = "unknown"

// Row is one episode of a protocol run as its summary shows it.
type Row struct {
	// Game is the protocol's name for the game; Seed the game seed.
	Game string
	Seed int64
	// Steps are the steps played; Resets, Wins and Losts TALES's
	// counts (0 for a protocol that stops at game over).
	Steps, Resets, Wins, Losts int
	// HighScore is the highest score reached at any step; MaxScore the
	// maximum it is measured against (0: unknown).
	HighScore, MaxScore int
	// Norm is HighScore / MaxScore; NormKnown is false when MaxScore is
	// unknown.
	Norm      float64
	NormKnown bool
	// Won says whether a game of the episode was won.
	Won bool
	// Invalid counts invalid actions; Duration is the episode's time.
	Invalid  int
	Duration time.Duration
	// Error is why the episode failed ("" when it did not).
	Error string
}

// Summary is a protocol run's results in the protocol's terms.
type Summary struct {
	Protocol *Protocol
	// Budget is the step budget the run played with.
	Budget int
	Rows   []Row
	// NotPlayed are the protocol's games the run did not play (missing,
	// or another file), as the manifest records them.
	NotPlayed []harness.BenchmarkGame
	// Deviations are the manifest's, then those the results show (a
	// maximum grue could not read).
	Deviations []string
}

// Summarize reads a protocol run: its manifest's Benchmark and its
// records. It fails for a run that is not a grue bench run.
func Summarize(m *harness.Manifest, rs *harness.ResultSet) (*Summary, error) {
	if m == nil || m.Benchmark == nil {
		return nil, fmt.Errorf("not a grue bench run: its manifest names no benchmark protocol")
	}
	p, err := Lookup(m.Benchmark.Protocol)
	if err != nil {
		return nil, err
	}
	s := &Summary{Protocol: p, Budget: p.Steps, Deviations: slices.Clone(m.Benchmark.Deviations)}
	if m.Config != nil {
		s.Budget = m.Config.Steps()
	}
	byFile := map[string]harness.BenchmarkGame{}
	for _, g := range m.Benchmark.Games {
		if g.Status == harness.GamePlayed {
			byFile[g.File] = g
		} else {
			s.NotPlayed = append(s.NotPlayed, g)
		}
	}
	recs := slices.Clone(rs.Records)
	slices.SortFunc(recs, func(a, b harness.EpisodeRecord) int {
		if c := strings.Compare(byFile[a.Game].Name, byFile[b.Game].Name); c != 0 {
			return c
		}
		return cmp.Compare(a.Seed, b.Seed)
	})
	for _, r := range recs {
		g, ok := byFile[r.Game]
		name := g.Name
		if !ok {
			name = r.Game
		}
		row := Row{Game: name, Seed: r.Seed, Steps: r.Steps, Resets: r.Restarts, Wins: r.Wins, Losts: r.Losses,
			Invalid: r.InvalidActions, Duration: r.Duration(), Error: r.Error, MaxScore: r.MaxScore}
		for _, sc := range r.ScoreByStep {
			row.HighScore = max(row.HighScore, sc)
		}
		if p.OnGameOver != harness.GameOverRestart && r.GameCompleted {
			// An episode that stopped at game over: its one game.
			if r.Victory {
				row.Wins = 1
			} else {
				row.Losts = 1
			}
		}
		row.Won = row.Wins > 0 || r.Victory
		if g.MaxScore > 0 {
			// The protocol states the maximum: its own is what counts.
			if r.MaxScore > 0 && r.MaxScore != g.MaxScore && !r.Failed() {
				s.note(fmt.Sprintf("%s: the game says its maximum is %d, %s's table %d: the table's is used", name, r.MaxScore, p.Name, g.MaxScore))
			}
			row.MaxScore = g.MaxScore
		}
		if row.MaxScore > 0 {
			row.Norm, row.NormKnown = float64(row.HighScore)/float64(row.MaxScore), true
		} else if !r.Failed() && !slices.Contains(g.Unread, harness.UnreadMaxScore) {
			// The manifest did not say so when the run was planned.
			s.note(fmt.Sprintf("%s: %s: its normalised score is unknown and left out of the mean", name, unreadMaxScoreText))
		}
		s.Rows = append(s.Rows, row)
	}
	// A maximum grue did not read when the run was planned but the game
	// gave in play: the manifest's sentence is no longer so.
	for _, g := range byFile {
		if !slices.Contains(g.Unread, harness.UnreadMaxScore) {
			continue
		}
		var maxima []int
		for _, r := range s.Rows {
			if r.Game == g.Name && r.NormKnown {
				maxima = append(maxima, r.MaxScore)
			}
		}
		if len(maxima) == 0 {
			continue
		}
		if i := slices.Index(s.Deviations, unreadDeviation(g.Name, harness.UnreadMaxScore)); i >= 0 {
			s.Deviations[i] = fmt.Sprintf("%s: grue read no maximum score when the run was planned; the game gave one in play (%d)", g.Name, slices.Max(maxima))
		}
	}
	slices.SortFunc(s.Rows, func(a, b Row) int {
		if c := strings.Compare(a.Game, b.Game); c != 0 {
			return c
		}
		return cmp.Compare(a.Seed, b.Seed)
	})
	return s, nil
}

// note adds a deviation once.
func (s *Summary) note(d string) {
	if !slices.Contains(s.Deviations, d) {
		s.Deviations = append(s.Deviations, d)
	}
}

// MeanNorm is the mean over games of each game's mean normalised score
// over its seeds, and the number of games it is over; failed episodes
// and unknown maxima are left out.
func (s *Summary) MeanNorm() (float64, int) {
	per := map[string][]float64{}
	var order []string
	for _, r := range s.Rows {
		if r.Error != "" || !r.NormKnown {
			continue
		}
		if _, ok := per[r.Game]; !ok {
			order = append(order, r.Game)
		}
		per[r.Game] = append(per[r.Game], r.Norm)
	}
	if len(order) == 0 {
		return 0, 0
	}
	sum := 0.0
	for _, g := range order {
		sum += harness.Mean(per[g])
	}
	return sum / float64(len(order)), len(order)
}

// SuccessRate is the share of episodes (not failed) that won a game.
func (s *Summary) SuccessRate() (float64, int) {
	n, won := 0, 0
	for _, r := range s.Rows {
		if r.Error != "" {
			continue
		}
		n++
		if r.Won {
			won++
		}
	}
	if n == 0 {
		return 0, 0
	}
	return float64(won) / float64(n), n
}

// Write prints the summary as the protocol publishes it: a Markdown
// table per game in its column names and its overall line, then the
// games not played and every deviation.
func (s *Summary) Write(w io.Writer) error {
	var b strings.Builder
	switch s.Protocol.Name {
	case TALES:
		s.writeTALES(&b)
	case TextQuests:
		s.writeTextQuests(&b)
	case AgentBoard:
		s.writeAgentBoard(&b)
	}
	if len(s.NotPlayed) > 0 {
		fmt.Fprintf(&b, "\nNot played (%d of the protocol's %d games):\n", len(s.NotPlayed), len(s.NotPlayed)+s.playedGames())
		for _, g := range s.NotPlayed {
			fmt.Fprintf(&b, "  %s: %s", g.Name, g.Status)
			if g.Status == harness.GameDifferent {
				fmt.Fprintf(&b, ": %s", g.Note)
			}
			b.WriteString("\n")
		}
	}
	if len(s.Deviations) > 0 {
		b.WriteString("\nWhere grue differs from the protocol:\n")
		for _, d := range s.Deviations {
			fmt.Fprintf(&b, "  - %s\n", d)
		}
	}
	fmt.Fprintf(&b, "\nProtocol source: %s\n", s.Protocol.Source)
	_, err := io.WriteString(w, b.String())
	return err
}

func (s *Summary) playedGames() int {
	seen := map[string]bool{}
	for _, r := range s.Rows {
		seen[r.Game] = true
	}
	return len(seen)
}

// table writes a Markdown table.
func table(b *strings.Builder, head []string, rows [][]string) {
	width := make([]int, len(head))
	for i, h := range head {
		width[i] = len(h)
	}
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len(c))
		}
	}
	line := func(cells []string) {
		b.WriteString("|")
		for i, c := range cells {
			fmt.Fprintf(b, " %-*s |", width[i], c)
		}
		b.WriteString("\n")
	}
	line(head)
	sep := make([]string, len(head))
	for i := range sep {
		sep[i] = strings.Repeat("-", width[i])
	}
	line(sep)
	for _, r := range rows {
		line(r)
	}
}

func pct(x float64) string { return fmt.Sprintf("%.2f%%", 100*x) }

func (r Row) norm() string {
	switch {
	case r.Error != "":
		return "failed"
	case !r.NormKnown:
		return Unknown
	}
	return pct(r.Norm)
}

func (r Row) maxScore() string {
	if r.MaxScore <= 0 {
		return Unknown
	}
	return fmt.Sprint(r.MaxScore)
}

// writeTALES writes benchmark.py's per-game figures under their W&B
// names (total/Env. Steps, total/Resets, total/Wins, total/Losts,
// final/Highscore, final/Game Max Score, final/Normalized Score) and its
// closing lines ("Mean score (over N games) = X% of total possible").
func (s *Summary) writeTALES(b *strings.Builder) {
	var rows [][]string
	var total time.Duration
	steps, invalid := 0, 0
	for _, r := range s.Rows {
		rows = append(rows, []string{r.Game, fmt.Sprint(r.Seed), fmt.Sprintf("%d/%d", r.Steps, s.Budget), fmt.Sprint(r.Resets), fmt.Sprint(r.Wins), fmt.Sprint(r.Losts),
			fmt.Sprint(r.HighScore), r.maxScore(), r.norm()})
		total += r.Duration
		steps += r.Steps
		invalid += r.Invalid
	}
	table(b, []string{"Game", "Seed", "Env. Steps", "Resets", "Wins", "Losts", "Highscore", "Game Max Score", "Normalized Score"}, rows)
	mean, n := s.MeanNorm()
	b.WriteString("\n")
	if n == 0 {
		fmt.Fprintf(b, "Mean score: %s (no game with a known maximum was played)\n", Unknown)
	} else {
		fmt.Fprintf(b, "Mean score (over %d games) = %s of total possible\n", n, pct(mean))
	}
	fmt.Fprintf(b, "Total time %.2f seconds\n", total.Seconds())
	fmt.Fprintf(b, "Total %d invalid actions\n", invalid)
	if total > 0 {
		fmt.Fprintf(b, "Avg. speed: %.2f steps per second\n", float64(steps)/total.Seconds())
	}
}

// writeTextQuests writes the Inspect port's metrics (progress, points,
// harm, finished, steps, restores) per game and their mean over games.
func (s *Summary) writeTextQuests(b *strings.Builder) {
	var rows [][]string
	for _, r := range s.Rows {
		points := r.norm()
		if r.NormKnown && r.Error == "" {
			points = fmt.Sprintf("%.1f", 100*r.Norm)
		}
		rows = append(rows, []string{r.Game, Unknown, points, Unknown, Unknown, fmt.Sprint(r.Steps), "0"})
	}
	mean, n := s.MeanNorm()
	points := Unknown
	if n > 0 {
		points = fmt.Sprintf("%.1f", 100*mean)
	}
	rows = append(rows, []string{fmt.Sprintf("mean (%d games)", n), Unknown, points, Unknown, Unknown, "", ""})
	table(b, []string{"game", "progress", "points", "harm", "finished", "steps", "restores"}, rows)
}

// writeAgentBoard writes AgentBoard's Success Rate and Progress Rate per
// game and over all.
func (s *Summary) writeAgentBoard(b *strings.Builder) {
	var rows [][]string
	for _, r := range s.Rows {
		success := "0.00"
		switch {
		case r.Error != "":
			success = "failed"
		case r.Won:
			success = "100.00"
		}
		rows = append(rows, []string{r.Game, success, Unknown, fmt.Sprint(r.Steps)})
	}
	rate, n := s.SuccessRate()
	rows = append(rows, []string{fmt.Sprintf("all (%d)", n), fmt.Sprintf("%.2f", 100*rate), Unknown, ""})
	table(b, []string{"Game", "Success Rate", "Progress Rate", "Steps"}, rows)
}

// List writes what each protocol is, its rules and its source: grue
// bench --list.
func List(w io.Writer) error {
	var b strings.Builder
	for i, p := range Protocols() {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s: %s\n", p.Name, p.Title)
		fmt.Fprintf(&b, "  games: %d; steps: %d; counts: %s\n", len(p.Games), p.Steps, p.Measure)
		for _, r := range p.Rules {
			fmt.Fprintf(&b, "  - %s\n", r)
		}
		fmt.Fprintf(&b, "  source: %s\n", p.Source)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
