package harness

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestScoreCurves(t *testing.T) {
	rs := smallExperiment()
	curves, err := ScoreCurves(rs, "lantern", BandStd, Bootstrap{})
	if err != nil {
		t.Fatal(err)
	}
	if len(curves) != 2 || curves[0].Variant != "memory" || curves[0].Episodes != 3 {
		t.Fatalf("curves %+v, want memory and none with 3 episodes each", curves)
	}
	m := curves[0]
	// memory's scores after step 4 are 10, 15, 20: mean 15, std 5.
	if m.Mean[3] != 15 || m.Lo[3] != 10 || m.Hi[3] != 20 {
		t.Errorf("step 4: mean %v band [%v, %v], want 15 [10, 20]", m.Mean[3], m.Lo[3], m.Hi[3])
	}
	ci, _ := ScoreCurves(rs, "lantern", BandCI, Bootstrap{Resamples: 500})
	for i := range ci[0].Mean {
		if !(ci[0].Lo[i] <= ci[0].Mean[i] && ci[0].Mean[i] <= ci[0].Hi[i]) {
			t.Errorf("step %d: the interval [%v, %v] misses the mean %v", i+1, ci[0].Lo[i], ci[0].Hi[i], ci[0].Mean[i])
		}
	}
	// The crashed episode on cave is left out; an episode shorter than
	// the others keeps its last score.
	rs.Add(func() EpisodeRecord {
		r := rec("none", "cave", 4, 2)
		r.ScoreByStep = []int{2}
		return r
	}())
	cave, _ := ScoreCurves(rs, "cave", BandStd, Bootstrap{})
	none := cave[1]
	if none.Variant != "none" || none.Episodes != 3 || len(none.Mean) != 3 || none.Mean[2] != 1 {
		t.Errorf("none on cave: %+v, want 3 episodes and mean (1+0+2)/3 = 1 at step 3", none)
	}
	if _, err := ScoreCurves(rs, "cave", "quartiles", Bootstrap{}); err == nil {
		t.Error("an unknown band was accepted")
	}
}

func TestPlotScoresWritesValidFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "plots")
	rs := smallExperiment()
	files, err := PlotScores(rs, dir, PlotOptions{Bootstrap: Bootstrap{Resamples: 200}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	want := []string{"score_cave.svg", "score_cave.png", "score_lantern.svg", "score_lantern.png"}
	if !slices.Equal(names, want) {
		t.Fatalf("wrote %v, want %v", names, want)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		switch filepath.Ext(f) {
		case ".svg":
			checkSVG(t, f, b)
		case ".png":
			checkPNG(t, f, b)
		}
	}
}

// checkSVG parses the whole file as XML and looks for the legend.
func checkSVG(t *testing.T, name string, b []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	root := ""
	var text strings.Builder
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s is not well-formed XML: %v", name, err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = tok.Name.Local
			}
		case xml.CharData:
			text.Write(tok)
		}
	}
	if root != "svg" {
		t.Errorf("%s: root element %q, want svg", name, root)
	}
	for _, want := range []string{"memory (n=", "none (n=", "step", "score"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("%s: no text %q in the plot", name, want)
		}
	}
}

// checkPNG decodes the image and checks its size and that the lines were
// drawn in colour.
func checkPNG(t *testing.T, name string, b []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s does not decode as PNG: %v", name, err)
	}
	if sz := img.Bounds().Size(); sz.X != 768 || sz.Y != 480 {
		t.Errorf("%s is %dx%d, want 768x480 (8x5 inches at 96 dpi)", name, sz.X, sz.Y)
	}
	colored := 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if math.Abs(float64(r)-float64(g)) > 0x2000 || math.Abs(float64(g)-float64(b)) > 0x2000 {
				colored++
			}
		}
	}
	if colored < 500 {
		t.Errorf("%s has %d coloured pixels: the curves were not drawn", name, colored)
	}
}

func TestPlotGameAndErrors(t *testing.T) {
	rs := smallExperiment()
	var b bytes.Buffer
	if err := PlotGame(rs, "lantern", &b, "svg", PlotOptions{Band: BandStd, Width: 4, Height: 3}); err != nil {
		t.Fatal(err)
	}
	checkSVG(t, "lantern.svg", b.Bytes())
	if err := PlotGame(rs, "lantern", io.Discard, "bmp", PlotOptions{}); err == nil {
		t.Error("an unknown image format was accepted")
	}
	if err := PlotGame(rs, "zork1", io.Discard, "svg", PlotOptions{}); err == nil || !strings.Contains(err.Error(), "zork1") {
		t.Errorf("a game without episodes: err %v", err)
	}
	bare := NewResultSet(rec("a", "g", 1, 3))
	if _, err := PlotScores(bare, t.TempDir(), PlotOptions{}); err == nil {
		t.Error("results without score histories gave no error")
	}
	// Two games whose names come out the same get two files.
	same := smallExperiment().ByGame("lantern")
	for _, r := range same.Records {
		r.Game = "/stories/lantern.z5"
		same.Add(r)
	}
	files, err := PlotScores(same, t.TempDir(), PlotOptions{Formats: []string{"svg"}, Band: BandStd})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0] == files[1] {
		t.Errorf("games lantern and /stories/lantern.z5 wrote %v, want two files", files)
	}
}
