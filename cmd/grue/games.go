package main

import (
	"fmt"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/game/zmachine"
)

func newGamesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "games",
		Short: "List the games grue knows: the built-in story and the files under GRUE_GAMES",
		Long: `games lists the games grue can play by name: its built-in default story,
and the story files in the folder that GRUE_GAMES names, recognised by their
header (release, serial number and checksum). A file the catalog does not
know is listed as unknown, with what its header says.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return listGames(cmd)
		},
	}
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
		title, max := "unknown", "-"
		if f.Known {
			title = f.Title
			if e, ok := entries[f.Name]; ok && e.MaxScore > 0 {
				max = strconv.Itoa(e.MaxScore)
			}
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%d/%s\t%s\t%s\n", f.Name, title, f.Version, f.Release, f.Serial, max, f.Path)
	}
	if ferr := w.Flush(); ferr != nil {
		return ferr
	}
	return err
}
