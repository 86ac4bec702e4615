package workbench

import (
	"bytes"
	"context"
	"fmt"
	"reflect"

	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/repl"
)

// plotMagic draws score by step (harness.PlotGame) for an episode, a
// slice of episodes or records, or a run's results: in a notebook front
// end (Jupyter) as PNG and SVG, in the terminal as files whose paths it
// prints.
func plotMagic() repl.Magic {
	return repl.Magic{
		Name: "plot", Usage: "EXPR", Code: true,
		Help: "score by step of an episode, episodes or a run's results: an image in Jupyter, else PNG and SVG files in the current folder, their paths printed",
		Run: func(ctx context.Context, s *repl.Session, args string) error {
			if args == "" {
				return fmt.Errorf("usage: :plot EXPR")
			}
			expr, dir := args, "."
			vals, err := s.EvalValues(ctx, expr)
			if err != nil {
				return err
			}
			if len(vals) == 0 {
				return fmt.Errorf(":plot: %s has no value", expr)
			}
			rs, err := resultSetOf(vals[0])
			if err != nil {
				return fmt.Errorf(":plot: %w", err)
			}
			opts := harness.PlotOptions{Bootstrap: harness.Bootstrap{Resamples: 500}}
			for _, game := range rs.Games() {
				if !s.Displays() {
					files, err := harness.PlotScores(rs.ByGame(game), dir, opts)
					if err != nil {
						return err
					}
					for _, f := range files {
						fmt.Fprintln(s.Stdout(), f)
					}
					continue
				}
				var png, svg bytes.Buffer
				if err := harness.PlotGame(rs, game, &png, "png", opts); err != nil {
					return err
				}
				if err := harness.PlotGame(rs, game, &svg, "svg", opts); err != nil {
					return err
				}
				s.Show(repl.Bundle{
					"text/plain":    []byte(fmt.Sprintf("<plot: score by step on %s, %d episodes>", game, len(rs.ByGame(game).Records))),
					"image/png":     png.Bytes(),
					"image/svg+xml": svg.Bytes(),
				}, false)
			}
			return nil
		},
	}
}

// resultSetOf makes the records of v: an episode, a record, a slice of
// either, or a result set.
func resultSetOf(v reflect.Value) (*harness.ResultSet, error) {
	if !v.IsValid() || !v.CanInterface() {
		return nil, fmt.Errorf("nil has no scores")
	}
	switch x := v.Interface().(type) {
	case *harness.ResultSet:
		return x, nil
	case *harness.Episode:
		return harness.NewResultSet(x.Record()), nil
	case harness.EpisodeRecord:
		return harness.NewResultSet(x), nil
	case []harness.EpisodeRecord:
		return harness.NewResultSet(x...), nil
	case []*harness.Episode:
		var recs []harness.EpisodeRecord
		for _, e := range x {
			recs = append(recs, e.Record())
		}
		return harness.NewResultSet(recs...), nil
	}
	return nil, fmt.Errorf("a %s has no scores to plot: give an episode, a record, a slice of them or a result set", v.Type())
}
