package cli

import (
	"encoding/json"
	"fmt"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/game/zmachine"
)

func newGamesCmd() *cobra.Command {
	var asJSON bool
	var wf walkCheckFlags
	cmd := &cobra.Command{
		Use:   "games [STORY] [--json] [--check-walkthrough FILE [--seed N] [--reference TRANSCRIPT] [--valid-actions]]",
		Short: "List the games grue knows, or say what grue finds in one story",
		Long: `games lists the games grue can play by name: its built-in default story,
and the story files in the folder that GRUE_GAMES names and in its folders
(two levels down: corpus/candy), recognised by their header (release,
serial number and checksum). A file the catalog does not know is listed
under its path there (the name grue play takes), with the title its banner
prints and the maximum its SCORE command gives ("-" where the game says
neither), and what its header says.

games STORY says what grue finds in one story (a path, or a name as grue play
takes it): title, IFID (the iFiction record's, else the story file's by the
Treaty of Babel's rule), release and serial (and, for a Blorb file, the author
and headline its iFiction record gives), Z-machine version, compiler and
library, whether it keeps a score and its maximum, how score, moves and location are
read (the catalog, the status line globals, or globals found by probing the
game's SCORE command on a forked machine), the player object, the sizes of the
object table and the dictionary, and the verbs of its grammar. Check a game
with it before running many episodes on it. --json prints the same as JSON.

games STORY --check-walkthrough FILE replays the commands of FILE (one a
line, # starts a comment) with --seed and compares every state with a
reference transcript: --reference TRANSCRIPT, else dfrotz's, run here on
the same story and seed (dfrotz -m -p -q -s SEED -w 80). At each state the
location grue reads must agree with the room heading the reference prints,
the score with a score it prints, and grue must say the game is over exactly
where the reference ends it. Every state that disagrees is listed, then a
summary; the exit status is 1 when the check fails (a score or ending
disagrees, or under 95% of the headings). --valid-actions also asks for
the valid actions before every command and says how often the next one was
among them, and what a call cost.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return UsageError{fmt.Errorf("games takes at most one story, got %d arguments", len(args))}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if wf.file != "" {
				if len(args) != 1 {
					return UsageError{fmt.Errorf("--check-walkthrough needs a STORY")}
				}
				return checkWalkthrough(cmd, args[0], wf, asJSON)
			}
			if wf.reference != "" || wf.actions || cmd.Flags().Changed("seed") {
				return UsageError{fmt.Errorf("--reference, --valid-actions and --seed go with --check-walkthrough")}
			}
			if len(args) == 1 {
				return describeGame(cmd, args[0], asJSON)
			}
			if asJSON {
				return UsageError{fmt.Errorf("--json needs a STORY")}
			}
			return listGames(cmd)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report on STORY (or the walkthrough check) as JSON")
	cmd.Flags().StringVar(&wf.file, "check-walkthrough", "", "replay this command file and check every state against a reference transcript")
	cmd.Flags().Int64Var(&wf.seed, "seed", 1, "with --check-walkthrough: the game's seed, as dfrotz -s N")
	cmd.Flags().StringVar(&wf.reference, "reference", "", "with --check-walkthrough: the reference transcript (default: run dfrotz)")
	cmd.Flags().BoolVar(&wf.actions, "valid-actions", false, "with --check-walkthrough: measure whether each next command is among the valid actions")
	return cmd
}

// describeGame opens story, presses Return through any opening "press a
// key" screens (as a player would) and prints what grue finds in it.
func describeGame(cmd *cobra.Command, story string, asJSON bool) error {
	if path, data, err := readStory(story); err == nil && isGlulx(data) {
		return describeGlulx(cmd.OutOrStdout(), path, data, asJSON)
	}
	r, err := report(story)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	row := func(k, format string, a ...any) { fmt.Fprintf(w, "%s\t"+format+"\n", append([]any{k}, a...)...) }
	row("name", "%s", r.Name)
	row("title", "%s (from the %s)", orDash(r.Title), r.TitleFrom)
	if bib := r.Bibliographic; bib != nil {
		for _, f := range []struct{ k, v string }{{"author", bib.Author}, {"headline", bib.Headline},
			{"published", bib.FirstPublished}} {
			if f.v != "" {
				row(f.k, "%s", f.v)
			}
		}
	}
	row("ifid", "%s", r.IFID)
	row("release", "%d / serial %s / checksum %s", r.Release, r.Serial, r.Checksum)
	row("version", "%d", r.Version)
	row("compiler", "%s", orDash(r.Compiler))
	row("library", "%s", orDash(r.Library))
	row("catalogued", "%v", r.Known)
	if r.HasScore {
		row("score", "out of %d; score in global %d, moves in %s (%s)", r.MaxScore, r.ScoreGlobal, globalName(r.MovesGlobal), r.ScoreFrom)
	} else {
		row("score", "none: %s (max score %d, moves in %s, %s)", r.NoScoreWhy, r.MaxScore, globalName(r.MovesGlobal), r.ScoreFrom)
	}
	row("player", "%d %s", r.Player, orDash(r.PlayerName))
	row("location", "%s (%s)", orDash(r.Location), r.LocationFrom)
	row("objects", "%d", r.Objects)
	row("dictionary", "%d words", r.Dictionary)
	switch {
	case r.GrammarFormat == "infocom":
		row("grammar", "%d verb words (Infocom syntax table)", r.GrammarVerbs)
	case r.GrammarVerbs > 0:
		row("grammar", "%d verbs (Inform grammar version %d)", r.GrammarVerbs, r.GrammarVersion)
	default:
		row("grammar", "not read (%s)", orDash(r.GrammarWhy))
	}
	return w.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func globalName(n int) string {
	if n < 0 {
		return "no known global"
	}
	return "global " + strconv.Itoa(n)
}

func listGames(cmd *cobra.Command) error {
	entries := map[string]game.Entry{}
	for _, e := range game.Catalog() {
		entries[e.Name] = e
	}
	w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tTITLE\tVERSION\tRELEASE\tMAX SCORE\tPATH")
	name, data := stories.Default()
	if story, err := zmachine.Load(data); err == nil {
		title, max := "", "-"
		if e, ok := game.Lookup(story); ok {
			title, max = e.Title, strconv.Itoa(e.MaxScore)
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%d/%s\t%s\t%s\n", name, title, story.Version(),
			story.Release(), story.Serial(), max, "(built in)")
	}
	files, err := game.Games()
	for _, f := range files {
		title, max := "-", "-"
		if e, ok := entries[f.Name]; ok && f.Known {
			title = f.Title
			if e.MaxScore > 0 {
				max = strconv.Itoa(e.MaxScore)
			}
		} else {
			title, max = uncatalogued(f.Path)
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%d/%s\t%s\t%s\n", f.Name, title, f.Version, f.Release, f.Serial, max, f.Path)
	}
	if ferr := w.Flush(); ferr != nil {
		return ferr
	}
	return err
}

// uncatalogued reads the title and maximum score of a game the catalog
// does not know from the game itself, as grue games STORY does: the
// banner's title, and the maximum its score probe finds; "-" for what it
// cannot read.
func uncatalogued(path string) (title, max string) {
	title, max = "-", "-"
	r, err := report(path)
	if err != nil {
		return title, max
	}
	if r.Title != "" {
		title = r.Title
	}
	if r.HasScore && r.MaxScore > 0 {
		max = strconv.Itoa(r.MaxScore)
	}
	return title, max
}

// report opens story and reads its report once the game waits for a
// command: a game that first waits for a key (a title screen) gets Return,
// up to five times, so that the banner after it is read too.
func report(story string) (game.Report, error) {
	g, err := game.Open(story)
	if err != nil {
		return game.Report{}, err
	}
	for i := 0; i < 5 && g.KeyExpected(); i++ {
		if _, err := g.Step(""); err != nil {
			return game.Report{}, err
		}
	}
	return g.Report(), nil
}
