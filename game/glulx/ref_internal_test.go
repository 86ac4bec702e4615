package glulx

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/internal/testgames"
)

// glulxeBinInternal builds the reference glulxe, as glulxeBin does for
// the external tests.
func glulxeBinInternal(t testing.TB) string {
	t.Helper()
	script := filepath.Join(testgames.Dir(), "..", "reference", "glulx", "build-glulxe")
	if _, err := os.Stat(script); err != nil {
		testgames.Missing(t, "the reference glulxe's sources are not at %s: %v", script, err)
	}
	testgames.Tool(t, "gcc", "apt-get install -y gcc make")
	out, err := exec.Command(script).Output()
	if err != nil {
		testgames.Missing(t, "build-glulxe failed: %v", err)
	}
	return strings.TrimSpace(string(out))
}

func runGlulxeImage(t *testing.T, bin string, img []byte) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "s.ulx"), img, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-q", "-w", "80", "--rngseed", "1", "s.ulx")
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout = &out
	_ = cmd.Run()
	return out.String()
}

func newMachineFromImage(img []byte) (*Machine, error) {
	return NewMachine(img, MachineOptions{Seed: 1})
}

// GlulxeBin is glulxeBinInternal for the external tests.
var GlulxeBin = glulxeBinInternal
