package glk

import (
	"errors"
	"fmt"
)

var errNilState = errors.New("glk: restore of a nil state")

func funcName(sel uint32) string { return fmt.Sprintf("glk function 0x%X", sel) }

func (g *Glk) call(sel uint32, args []uint32) (uint32, error) {
	return 0, fmt.Errorf("glk: %s: not implemented yet", funcName(sel))
}

func (g *Glk) putChar(s *stream, c uint32, uni bool) error { return nil }

func (g *Glk) getChar(s *stream, uni bool) (uint32, bool, error) { return 0, false, nil }

func (g *Glk) statusLine() string { return "" }
