package cluster

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/harness"
)

// slurmConfig is a small experiment of two policies, five seeds.
const slurmConfig = `name: sharded
variants:
  - name: walkthrough
    policy: walkthrough
  - name: random
    policy: random
games: [lantern]
seeds: [1, 2, 3, 4, 5]
max_steps: 8
parallel: 2
`

// loadSlurmConfig writes slurmConfig into dir and loads it.
func loadSlurmConfig(t *testing.T, dir string) (*harness.Config, string) {
	t.Helper()
	p := filepath.Join(dir, "sharded.yaml")
	if err := os.WriteFile(p, []byte(slurmConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := harness.LoadConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	return cfg, p
}

func TestArraySpec(t *testing.T) {
	for _, c := range []struct {
		ids  []int
		want string
	}{{[]int{0, 1, 2, 3, 5, 7, 8}, "0-3,5,7-8"}, {[]int{4}, "4"}, {nil, ""}} {
		if got := arraySpec(c.ids); got != c.want {
			t.Errorf("arraySpec(%v) = %q, want %q", c.ids, got, c.want)
		}
	}
}

// The script holds the array, the resources asked for and the task's
// command line, and bash accepts it; a resumed job's array holds the
// incomplete shards only.
func TestSlurmScript(t *testing.T) {
	dir := t.TempDir()
	cfg, cfgPath := loadSlurmConfig(t, dir)
	out := filepath.Join(dir, "my run")
	job, err := NewSlurmJob(cfg, cfgPath, SlurmOptions{Out: out, Shards: 4, Partition: "gpu", Time: "1:00:00", Gres: "gpu:1", Mem: "4G", Grue: "/opt/grue/bin/grue", Parallel: 3})
	if err != nil {
		t.Fatal(err)
	}
	script, err := job.WriteScript()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(out, SlurmDir, "submit-1.sbatch"); script != want {
		t.Errorf("script %s, want %s", script, want)
	}
	b, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"#SBATCH --job-name=grue-sharded\n", "#SBATCH --array=0-3\n", "#SBATCH --partition=gpu\n", "#SBATCH --time=1:00:00\n",
		"#SBATCH --gres=gpu:1\n", "#SBATCH --mem=4G\n", "#SBATCH --cpus-per-task=3\n",
		`#SBATCH --output="` + out + `/slurm/%A_%a.out"` + "\n",
		"exec /opt/grue/bin/grue exp run " + cfgPath, "--out '" + out + "'", `--shard "${SLURM_ARRAY_TASK_ID}/4"`, "--resume", "--parallel 3",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("script lacks %q:\n%s", want, b)
		}
	}
	if out, err := exec.Command("bash", "-n", script).CombinedOutput(); err != nil {
		t.Errorf("bash -n: %v: %s", err, out)
	}
	if second, err := job.WriteScript(); err != nil || filepath.Base(second) != "submit-2.sbatch" {
		t.Errorf("a second script: %s, %v", second, err)
	}

	// Shard 0 played, the others not: a new array is refused, a resumed
	// one holds shards 1-3.
	if _, err := harness.Run(context.Background(), cfg, harness.RunOptions{Out: out, Shard: &harness.Shard{Index: 0, Count: 4}}); err != nil {
		t.Fatal(err)
	}
	var oe *OptionError
	if _, err := NewSlurmJob(cfg, cfgPath, SlurmOptions{Out: out, Shards: 4}); !errors.As(err, &oe) || oe.Option != "--out" || !strings.Contains(err.Error(), "--resume") {
		t.Errorf("a new array over a started run: %v", err)
	}
	job, err = NewSlurmJob(cfg, cfgPath, SlurmOptions{Out: out, Resume: true})
	if err != nil || job.Array != "1-3" || job.Shards != 4 {
		t.Fatalf("resume: %+v, %v", job, err)
	}
	if _, err := NewSlurmJob(cfg, cfgPath, SlurmOptions{Out: out, Resume: true, Shards: 5}); !errors.As(err, &oe) || oe.Option != "--shards" {
		t.Errorf("resume with --shards 5 on a run of 4: %v", err)
	}
}

// A value that could end a line of the script, or that sbatch would read
// as more than one word, is an *OptionError naming the option; nothing is
// written. Paths are quoted, for bash and for sbatch alike.
func TestSlurmValues(t *testing.T) {
	dir := t.TempDir()
	cfg, cfgPath := loadSlurmConfig(t, dir)
	base := SlurmOptions{Out: filepath.Join(dir, "run"), Shards: 2, Grue: "/opt/grue"}
	for _, c := range []struct {
		option string
		set    func(*SlurmOptions)
	}{
		{"--partition", func(o *SlurmOptions) { o.Partition = "gpu\ntouch PWNED" }},
		{"--partition", func(o *SlurmOptions) { o.Partition = "gpu --uid=0" }},
		{"--time", func(o *SlurmOptions) { o.Time = "1:00#x" }},
		{"--mem", func(o *SlurmOptions) { o.Mem = "4G\r\nexit" }},
		{"--gres", func(o *SlurmOptions) { o.Gres = `gpu:1\` }},
		{"--out", func(o *SlurmOptions) { o.Out = filepath.Join(dir, "a\nb") }},
		{"--out", func(o *SlurmOptions) { o.Out = "" }},
		{"--grue", func(o *SlurmOptions) { o.Grue = "/opt/grue\u0085x" }},
		{"--shards", func(o *SlurmOptions) { o.Shards = 0 }},
		{"--cpus", func(o *SlurmOptions) { o.CPUs = -1 }},
	} {
		o := base
		c.set(&o)
		_, err := NewSlurmJob(cfg, cfgPath, o)
		var oe *OptionError
		if !errors.As(err, &oe) || oe.Option != c.option || !strings.Contains(err.Error(), c.option) {
			t.Errorf("%+v: %v, want an OptionError about %s", o, err, c.option)
		}
	}
	odd := *cfg
	odd.Name = "x\ntouch PWNED" // past harness's own check of names
	if _, err := NewSlurmJob(&odd, cfgPath, base); err == nil {
		t.Errorf("a config name with a newline was taken")
	}
	if _, err := os.Stat(filepath.Join(dir, "run")); err == nil {
		t.Errorf("refused jobs made the run directory")
	}

	for s, want := range map[string]string{
		"plain-1.x:y":  "plain-1.x:y",
		`a b`:          `"a b"`,
		`say "hi" \ #`: `"say \"hi\" \\ #"`,
	} {
		if got := sbatchQuote(s); got != want {
			t.Errorf("sbatchQuote(%q) = %s, want %s", s, got, want)
		}
	}
	for s, want := range map[string]string{"/opt/grue": "/opt/grue", "it's $(x)": `'it'\''s $(x)'`} {
		if got := shellQuote(s); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", s, got, want)
		}
	}
}
