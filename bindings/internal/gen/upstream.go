package gen

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// grue builds with a patched copy of yaegi's packages (internal/yaegi,
// inside grue's module), which leaves out yaegi's stdlib package: its
// hand-written files (upstreamFiles) are read from the upstream module,
// which the go command downloads into the module cache.

// yaegiModule is the upstream module, at the version the copy is of.
const yaegiModule = "github.com/traefik/yaegi@v0.16.1"

// yaegiSum is the module's hash: go mod download does not consult the
// checksum database for the module here (go.sum does not list a module
// the build does not require, and the database may be out of reach), so
// the download is checked against it.
const yaegiSum = "h1:f1De3DVJqIDKmnasUF6MwmWv1dSEEat0wcpXhD2On3E="

// upstreamStdlib returns the folder of the upstream module's stdlib
// package, downloading the module when the cache lacks it.
func upstreamStdlib() (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", yaegiModule)
	cmd.Env = append(os.Environ(), "GONOSUMDB=github.com/traefik/yaegi")
	out, err := cmd.Output()
	var m struct{ Dir, Sum, Error string }
	if jerr := json.Unmarshal(out, &m); jerr != nil && err == nil {
		err = jerr
	}
	switch {
	case m.Error != "":
		return "", fmt.Errorf("download %s: %s", yaegiModule, m.Error)
	case err != nil:
		return "", fmt.Errorf("download %s: %w", yaegiModule, err)
	case m.Sum != yaegiSum:
		return "", fmt.Errorf("download %s: its hash is %s, not %s", yaegiModule, m.Sum, yaegiSum)
	}
	return filepath.Join(m.Dir, "stdlib"), nil
}
