package cli

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"text/tabwriter"

	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/game/glulx"
)

// glulxReport is what grue games says of a Glulx story: what its header,
// its Inform "Info" block and its banner give, and what the research game
// (game.Game) reads of it: the score, its maximum and the location, and
// how. Research says what is not read yet.
type glulxReport struct {
	Name         string `json:"name"`
	Format       string `json:"format"`
	Title        string `json:"title"`
	TitleFrom    string `json:"title_from"`
	Release      int    `json:"release"`
	Serial       string `json:"serial"`
	Compiler     string `json:"compiler"`
	Banner       string `json:"banner"`
	HasScore     bool   `json:"has_score"`
	MaxScore     int    `json:"max_score"`
	ScoreFrom    string `json:"score_from"`
	NoScoreWhy   string `json:"no_score_reason,omitempty"`
	Location     string `json:"location"`
	LocationFrom string `json:"location_from"`
	Research     string `json:"research"`
}

var glulxBannerRE = regexp.MustCompile(`Release (\d+) / Serial number (\d{6}) / (.*)`)

func readGlulxReport(path string, data []byte) (glulxReport, error) {
	image, res, err := glulx.StoryBytes(data)
	if err != nil {
		return glulxReport{}, err
	}
	h, err := glulx.ParseHeader(image)
	if err != nil {
		return glulxReport{}, err
	}
	base := filepath.Base(path)
	r := glulxReport{
		Name:      strings.TrimSuffix(base, filepath.Ext(base)),
		Format:    fmt.Sprintf("Glulx %d.%d.%d", h.Version>>16, h.Version>>8&0xFF, h.Version&0xFF),
		TitleFrom: "unknown",
		Research:  "not read yet for Glulx: valid actions, the map and the dictionary",
	}
	if res != nil {
		r.Format += " in a Blorb file"
	}
	// Inform's Info block after the header: its version, the compiler's,
	// the release number and the serial number.
	if len(image) >= 64 && string(image[36:40]) == "Info" {
		r.Compiler = "Inform " + strings.TrimRight(string(image[44:48]), "\x00")
		r.Release = int(binary.BigEndian.Uint16(image[52:54]))
		r.Serial = string(image[54:60])
	}
	m, err := glulx.NewMachine(data, glulx.MachineOptions{Seed: 1, Budget: 50_000_000})
	if err != nil {
		return r, err
	}
	text, err := m.Start()
	if err != nil {
		return r, err
	}
	if gs, err := game.NewGlulxStory(data); err == nil {
		g, err := game.NewGlulx(gs, r.Name, game.Seed(1))
		if err != nil {
			return r, err
		}
		rep := g.Report()
		r.HasScore, r.MaxScore, r.ScoreFrom, r.NoScoreWhy = rep.HasScore, rep.MaxScore, rep.ScoreFrom, rep.NoScoreWhy
		r.Location, r.LocationFrom = rep.Location, rep.LocationFrom
	}
	if b := glulxBannerRE.FindStringSubmatch(text); b != nil {
		r.Banner = strings.TrimSpace(b[0])
		r.Compiler = strings.TrimSpace(b[3])
	}
	for _, p := range strings.Split(strings.ReplaceAll(text, "\r", ""), "\n\n") {
		if !strings.Contains(p, "Serial number") {
			continue
		}
		for _, line := range strings.Split(p, "\n") {
			line = strings.TrimSpace(line)
			if strings.Contains(line, "Serial") {
				break
			}
			if line != "" && len(line) <= 60 && !strings.ContainsAny(line[len(line)-1:], ".:)]") {
				r.Title, r.TitleFrom = line, "banner"
				break
			}
		}
		break
	}
	return r, nil
}

func describeGlulx(out io.Writer, path string, data []byte, asJSON bool) error {
	r, err := readGlulxReport(path, data)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	row := func(k, format string, a ...any) { fmt.Fprintf(w, "%s\t"+format+"\n", append([]any{k}, a...)...) }
	row("name", "%s", r.Name)
	row("title", "%s (from the %s)", orDash(r.Title), r.TitleFrom)
	row("format", "%s", r.Format)
	row("release", "%d / serial %s", r.Release, orDash(r.Serial))
	row("compiler", "%s", orDash(r.Compiler))
	row("catalogued", "false")
	switch {
	case r.HasScore && r.MaxScore > 0:
		row("score", "yes, max %d (%s)", r.MaxScore, r.ScoreFrom)
	case r.HasScore:
		row("score", "yes, max unknown (%s; %s)", r.ScoreFrom, r.NoScoreWhy)
	default:
		row("score", "none found (%s)", r.NoScoreWhy)
	}
	row("location", "%s (%s)", orDash(r.Location), r.LocationFrom)
	row("not read", "%s", r.Research)
	return w.Flush()
}
