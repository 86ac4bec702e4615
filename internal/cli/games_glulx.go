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

	"github.com/grue-lab/grue/game/glulx"
)

// glulxReport is what grue games says of a Glulx story: what its header,
// its Inform "Info" block and its banner give. Glulx stories are not yet
// research games (game.Game), so score, player, location and grammar are
// not read; Research says so.
type glulxReport struct {
	Name      string `json:"name"`
	Format    string `json:"format"`
	Title     string `json:"title"`
	TitleFrom string `json:"title_from"`
	Release   int    `json:"release"`
	Serial    string `json:"serial"`
	Compiler  string `json:"compiler"`
	Banner    string `json:"banner"`
	Research  string `json:"research"`
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
		Research:  "not read: a Glulx story is not yet a research game (score, moves, location, valid actions); grue play plays it",
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
	row("score", "%s", r.Research)
	return w.Flush()
}
