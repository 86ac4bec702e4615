package kernel

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
)

// DisplayName is the name Jupyter shows for the kernel.
const DisplayName = "Go (grue)"

// DefaultName is the kernelspec's default name: its folder under kernels/.
const DefaultName = "grue"

// Spec is a kernelspec's kernel.json.
type Spec struct {
	Argv          []string          `json:"argv"`
	DisplayName   string            `json:"display_name"`
	Language      string            `json:"language"`
	InterruptMode string            `json:"interrupt_mode"`
	Env           map[string]string `json:"env,omitempty"`
	Metadata      map[string]any    `json:"metadata,omitempty"`
}

// NewSpec is the kernelspec that runs exe (an absolute path) as
// `exe kernel [FLAGS] {connection_file}`. Interrupts come as messages on
// the control channel (interrupt_request), which every client sends and
// which works on every system; the kernel takes SIGINT as well.
func NewSpec(exe string, flags []string) Spec {
	argv := append([]string{exe, "kernel"}, flags...)
	argv = append(argv, "{connection_file}")
	return Spec{
		Argv: argv, DisplayName: DisplayName, Language: "go", InterruptMode: "message",
		Metadata: map[string]any{"debugger": false},
	}
}

// validName is what Jupyter accepts as a kernel's name.
var validName = regexp.MustCompile(`^[a-zA-Z0-9._-]+$`)

// UserDir is where Jupyter looks for a user's kernels, as jupyter_core
// says: $JUPYTER_DATA_DIR/kernels, else ~/Library/Jupyter/kernels on
// macOS, %APPDATA%\jupyter\kernels on Windows, and
// $XDG_DATA_HOME/jupyter/kernels (~/.local/share/jupyter/kernels)
// elsewhere.
func UserDir() (string, error) {
	if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
		return filepath.Join(d, "kernels"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("kernel install: %w", err)
	}
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join(home, "Library", "Jupyter", "kernels"), nil
	case "windows":
		if d := os.Getenv("APPDATA"); d != "" {
			return filepath.Join(d, "jupyter", "kernels"), nil
		}
		return "", errors.New("kernel install: %APPDATA% is not set")
	}
	data := os.Getenv("XDG_DATA_HOME")
	if data == "" {
		data = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(data, "jupyter", "kernels"), nil
}

// PrefixDir is where Jupyter looks for the kernels of an environment
// installed in prefix: PREFIX/share/jupyter/kernels.
func PrefixDir(prefix string) string {
	return filepath.Join(prefix, "share", "jupyter", "kernels")
}

// Install writes spec as kernels/NAME/kernel.json in dir (UserDir or
// PrefixDir) and returns the folder it wrote.
func Install(dir, name string, spec Spec) (string, error) {
	if !validName.MatchString(name) {
		return "", fmt.Errorf("kernel install: name %q: want letters, digits, '.', '_' and '-' only", name)
	}
	if !filepath.IsAbs(spec.Argv[0]) {
		return "", fmt.Errorf("kernel install: %s is not an absolute path", spec.Argv[0])
	}
	folder := filepath.Join(dir, name)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		return "", fmt.Errorf("kernel install: %w", err)
	}
	data, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		return "", fmt.Errorf("kernel install: %w", err)
	}
	if err := os.WriteFile(filepath.Join(folder, "kernel.json"), append(data, '\n'), 0o644); err != nil {
		return "", fmt.Errorf("kernel install: %w", err)
	}
	return folder, nil
}
