package glulx

import (
	"errors"
	"fmt"

	"github.com/grue-lab/grue/game/blorb"
)

// StoryBytes returns the Glulx image in data (data itself for a .ulx
// file, the GLUL chunk of a Blorb file) and the Blorb's resources (nil
// for a .ulx file).
func StoryBytes(data []byte) ([]byte, *blorb.File, error) {
	switch {
	case len(data) >= 4 && string(data[:4]) == "Glul":
		return data, nil, nil
	case len(data) >= 12 && string(data[:4]) == "FORM" && string(data[8:12]) == "IFRS":
		f, err := blorb.Parse(data)
		if err != nil {
			return nil, nil, fmt.Errorf("glulx: %w", err)
		}
		typ, exec, ok := f.Exec()
		if !ok {
			return nil, nil, errors.New("glulx: blorb file: no executable resource")
		}
		if typ != "GLUL" {
			return nil, nil, fmt.Errorf("glulx: blorb file: the game is a %q chunk, not a Glulx one", typ)
		}
		return exec, f, nil
	}
	return nil, nil, errors.New("glulx: not a Glulx story (neither a .ulx file nor a Blorb file)")
}
