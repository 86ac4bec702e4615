package glulx_test

import (
	"encoding/binary"
	"strings"
)

// dictWords finds an Inform game's dictionary in a Glulx image, for
// random scripts: Inform 6 and 7 for Glulx lay it out as a word count,
// then entries of a fixed size, each a 0x60 byte and the word, padded with
// zeros. It looks for the longest such run and returns its words ("" if
// it finds none, as for a game not from Inform).
func dictWords(img []byte) []string {
	var best []string
	for size := 12; size <= 48; size++ {
		for p := 4; p+size <= len(img); p++ {
			if img[p] != 0x60 || !isWordStart(img[p+1]) {
				continue
			}
			n := int(binary.BigEndian.Uint32(img[p-4:]))
			if n < 20 || n > 20000 || p+n*size > len(img) || n <= len(best) {
				continue
			}
			words := make([]string, 0, n)
			for i := 0; i < n; i++ {
				e := img[p+i*size : p+(i+1)*size]
				if e[0] != 0x60 {
					words = nil
					break
				}
				w := strings.TrimRight(string(e[1:min(len(e), 10)]), "\x00")
				words = append(words, w)
			}
			if len(words) > len(best) {
				best = words
			}
		}
	}
	return best
}

func isWordStart(b byte) bool { return b > ' ' && b < 0x7F }
