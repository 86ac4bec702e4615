package repl

import "github.com/grue-lab/grue/internal/boundedfile"

// MaxSourceBytes is the largest script or notebook RunFile and :load
// read.
const MaxSourceBytes = 8 << 20

// readSource reads the script or notebook at path that the user named: a
// named pipe, a device (or a link to one) or a file larger than
// MaxSourceBytes is refused at once, with an error that says which and
// why, rather than read for ever.
func readSource(path string) ([]byte, error) {
	return boundedfile.ReadFile(path, MaxSourceBytes)
}
