package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/grue-lab/grue/internal/atomicfile"
)

// Version is grue's version, stored with every result and manifest. The
// grue command sets it to its own version; a program that runs
// experiments through the API may set it too.
var Version = "dev"

// ManifestFile is the name of the file in a run directory that says what
// was run: the config, its hash, grue's version, when and how.
const ManifestFile = "manifest.json"

// Manifest describes a run directory: what experiment was run, by which
// grue, when and with which command line. A resumed run keeps the
// manifest and adds a Resume to it.
type Manifest struct {
	Config      *Config   `json:"config"`
	ConfigHash  string    `json:"config_hash"`
	ConfigFile  string    `json:"config_file,omitempty"`
	GrueVersion string    `json:"grue_version"`
	Started     time.Time `json:"started"`
	Command     []string  `json:"command,omitempty"`
	// Episodes is how many episodes the experiment has in all.
	Episodes int `json:"episodes"`
	// Endpoints are the model and endpoint each llm variant was run with,
	// taken from the config or the environment (never an API key).
	Endpoints []Endpoint `json:"endpoints,omitempty"`
	// Resumes lists the times the run was resumed.
	Resumes []Resume `json:"resumes,omitempty"`
	// RunInfo says where the run was last played and how it ended.
	RunInfo
}

// Endpoint is the model an llm variant was run with.
type Endpoint struct {
	Variant string `json:"variant"`
	Model   string `json:"model"`
	BaseURL string `json:"base_url"`
}

// Resume is one resumption of a run: when, by which grue, with which
// command line, how many episodes were left to play, and how many of them
// had failed and were played again (RunOptions.RetryFailed).
type Resume struct {
	Time        time.Time `json:"time"`
	GrueVersion string    `json:"grue_version"`
	Command     []string  `json:"command,omitempty"`
	Remaining   int       `json:"remaining"`
	Retried     int       `json:"retried,omitempty"`
	Host        string    `json:"host,omitempty"`
}

// ReadManifest reads the manifest of run directory dir.
func ReadManifest(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("read manifest %s: %w", path, err)
	}
	return &m, nil
}

// Write writes the manifest into run directory dir, atomically: a crash
// leaves the old manifest or the new one.
func (m *Manifest) Write(dir string) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, ManifestFile), append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	return nil
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, fs.ErrNotExist)
}
