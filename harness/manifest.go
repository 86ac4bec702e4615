package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/internal/atomicfile"
	"github.com/grue-lab/grue/internal/boundedfile"
)

// DefaultVersion is the grue version stored with a result or manifest
// when none is given ([RunOptions.Version], [Episode.Version]): a program
// that runs experiments through the API rather than the grue command.
const DefaultVersion = "dev"

// versionOr is v, or DefaultVersion when v is empty.
func versionOr(v string) string {
	if v == "" {
		return DefaultVersion
	}
	return v
}

// ManifestFile is the name of the file in a run directory that says what
// was run: the config, its hash, grue's version, when and how.
const ManifestFile = "manifest.json"

// Manifest describes a run directory: what experiment was run, by which
// grue, when and with which command line. A resumed run keeps the
// manifest and adds a Resume to it.
type Manifest struct {
	Config      *Config `json:"config"`
	ConfigHash  string  `json:"config_hash"`
	ConfigFile  string  `json:"config_file,omitempty"`
	GrueVersion string  `json:"grue_version"`
	// GrueRevision is the VCS revision of that grue (BuildRevision):
	// "unknown" when its build did not record one.
	GrueRevision string    `json:"grue_revision,omitempty"`
	Started      time.Time `json:"started"`
	Command      []string  `json:"command,omitempty"`
	// Episodes is how many episodes the experiment has in all.
	Episodes int `json:"episodes"`
	// Baseline is the variant the others are compared with (Compare's
	// default for this run): the config's first variant unless the run
	// was given another (RunOptions.Baseline). Older manifests have none:
	// their config's first variant is theirs.
	Baseline string `json:"baseline,omitempty"`
	// Endpoints are the model and endpoint each llm variant was run with,
	// taken from the config or the environment (never an API key).
	Endpoints []Endpoint `json:"endpoints,omitempty"`
	// Benchmark is the published protocol a grue bench run follows,
	// with its games as found and where grue differs from it; nil for an
	// ordinary experiment.
	Benchmark *Benchmark `json:"benchmark,omitempty"`
	// Resumes lists the times the run was resumed.
	Resumes []Resume `json:"resumes,omitempty"`
	// RunInfo says where the run was last played and how it ended.
	RunInfo
}

// Endpoint is the model an llm variant was run with: the model, the
// endpoint (its credentials masked by llm.RedactURL) and the name of the
// environment variable whose value was sent as the API key ("" when none
// was), never the key.
type Endpoint struct {
	Variant   string `json:"variant"`
	Model     string `json:"model"`
	BaseURL   string `json:"base_url"`
	APIKeyEnv string `json:"api_key_env,omitempty"`
	// SeedIgnored says why the endpoint does not honour the model's seed
	// (llm.Config.SeedIgnored), so that the run is not seed-reproducible
	// there; empty when nothing is known against it.
	SeedIgnored string `json:"seed_ignored,omitempty"`
	// PriceSource says whether the model's price is known (PriceTable),
	// not (PriceUnknown: its costs are unknown, not free) or not needed
	// (PriceReplay).
	PriceSource string `json:"price_source,omitempty"`
	// Dropped are the request parameters the variant's client left out
	// when the run last returned (openai.Client.Dropped): configured in
	// drop_params, ruled out by a reasoning model's name, or learned from
	// the endpoint's 400s ("refused: status 400: ..."), so that a reader
	// knows what the model was really sent. A resumed run keeps those of
	// the runs before.
	Dropped []llm.Dropped `json:"dropped,omitempty"`
}

// Resume is one resumption of a run: when, by which grue, with which
// command line, how many episodes were left to play, and how many of them
// had failed and were played again (RunOptions.RetryFailed).
type Resume struct {
	Time         time.Time `json:"time"`
	GrueVersion  string    `json:"grue_version"`
	GrueRevision string    `json:"grue_revision,omitempty"`
	Command      []string  `json:"command,omitempty"`
	Remaining    int       `json:"remaining"`
	Retried      int       `json:"retried,omitempty"`
	Host         string    `json:"host,omitempty"`
}

// MaxManifestBytes is the largest manifest ReadManifest reads.
const MaxManifestBytes = 64 << 20

// ReadManifest reads the manifest of run directory dir.
func ReadManifest(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestFile)
	b, err := boundedfile.ReadFileIn(dir, ManifestFile, MaxManifestBytes)
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
// Its times are written in UTC to the millisecond, as a record's are.
func (m *Manifest) Write(dir string) error {
	out := *m
	out.Started = stamp(m.Started)
	out.Resumes = slices.Clone(m.Resumes)
	for i := range out.Resumes {
		out.Resumes[i].Time = stamp(out.Resumes[i].Time)
	}
	if m.Finished != nil {
		f := stamp(*m.Finished)
		out.Finished = &f
	}
	b, err := json.MarshalIndent(&out, "", "  ")
	if err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, ManifestFile), append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	return nil
}

// redacted returns a copy of c for a record: the credentials in its base
// URLs masked (llm.RedactURL).
func (c *Config) redacted() *Config {
	r := *c
	r.Variants = slices.Clone(c.Variants)
	for i := range r.Variants {
		r.Variants[i].BaseURL = llm.RedactURL(r.Variants[i].BaseURL)
	}
	return &r
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, fs.ErrNotExist)
}
