package cluster

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/grue-lab/grue/harness"
)

// SlurmDir is the folder of a run directory that holds the sbatch scripts
// SlurmJob writes, the record of what it submitted and the array tasks'
// logs.
const SlurmDir = "slurm"

// SlurmOptions are what NewSlurmJob needs besides the config: each field
// is the grue exp slurm flag of the same name.
type SlurmOptions struct {
	// Out is the run directory, on a filesystem every node sees
	// (required).
	Out string
	// Shards is the number of array tasks, a shard each (required,
	// except with Resume, which takes the run's).
	Shards int
	// Partition, Time, Mem and Gres are sbatch's --partition, --time,
	// --mem and --gres; empty, Slurm's defaults.
	Partition, Time, Mem, Gres string
	// CPUs is sbatch's --cpus-per-task; 0, the larger of the config's
	// parallel and Parallel.
	CPUs int
	// Grue is the grue binary the tasks run, on the shared filesystem;
	// empty, the running program.
	Grue string
	// Parallel, when positive, is the episodes at once in each task
	// (grue exp run --parallel); 0, the config's.
	Parallel int
	// Resume submits only the incomplete shards of the run in Out.
	Resume bool
}

// SlurmJob is one submission of a run as a job array: NewSlurmJob makes
// it, WriteScript writes its script, Submit submits that.
type SlurmJob struct {
	Name      string // the experiment's name
	Dir       string // the run directory, absolute
	Config    string // the config file, absolute
	Grue      string // the grue binary, absolute
	Shards    int    // the run's shard count
	Tasks     []int  // the array task ids: the shards to run
	Array     string // Tasks as sbatch --array takes them: 0-3,5
	Partition string
	Time      string
	CPUs      int
	Mem       string
	Gres      string
	Parallel  int
	Resume    bool
}

// NewSlurmJob works out what to submit for the experiment cfg, read from
// cfgPath: every shard, or with o.Resume the incomplete ones of the run
// in o.Out. Every value that reaches the script is checked first: a
// value with a control character (a newline among them), or a Slurm
// setting with a space or a quote, is an *OptionError, as is a required
// option missing.
func NewSlurmJob(cfg *harness.Config, cfgPath string, o SlurmOptions) (*SlurmJob, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	if err := checkText("the config's name", cfg.Name); err != nil {
		return nil, err
	}
	j := &SlurmJob{Name: cfg.Name, Partition: o.Partition, Time: o.Time, CPUs: o.CPUs, Mem: o.Mem, Gres: o.Gres, Parallel: o.Parallel, Resume: o.Resume}
	var err error
	if j.Dir, err = filepath.Abs(o.Out); err != nil {
		return nil, fmt.Errorf("slurm job: --out: %w", err)
	}
	if j.Config, err = filepath.Abs(cfgPath); err != nil {
		return nil, fmt.Errorf("slurm job: the config: %w", err)
	}
	j.Grue = o.Grue
	if j.Grue == "" {
		if j.Grue, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("the grue binary for the tasks: %w; give --grue PATH", err)
		}
	}
	if j.Grue, err = filepath.Abs(j.Grue); err != nil {
		return nil, fmt.Errorf("slurm job: --grue: %w", err)
	}
	// The absolute paths hold the working directory's name too.
	for _, v := range []struct{ option, value string }{{"--out", j.Dir}, {"the config's path", j.Config}, {"--grue", j.Grue}} {
		if err := checkText(v.option, v.value); err != nil {
			return nil, err
		}
	}
	if j.CPUs == 0 {
		j.CPUs = max(1, cfg.Parallel, o.Parallel)
	}
	if !o.Resume {
		if harness.IsSharded(o.Out) {
			return nil, optionErrorf("--out", "%s already holds a sharded run: resubmit its incomplete shards with --resume, or choose another --out", o.Out)
		}
		j.Shards = o.Shards
		for i := range o.Shards {
			j.Tasks = append(j.Tasks, i)
		}
	} else if err := j.incomplete(cfg, o); err != nil {
		return nil, err
	}
	j.Array = arraySpec(j.Tasks)
	return j, nil
}

// check checks the options that do not depend on the config or the run.
func (o SlurmOptions) check() error {
	switch {
	case o.Out == "":
		return optionErrorf("--out", "--out DIR is required: the run directory the tasks share")
	case o.Shards < 0 || (o.Shards == 0 && !o.Resume):
		return optionErrorf("--shards", "--shards N is required: the number of array tasks")
	case o.CPUs < 0:
		return optionErrorf("--cpus", "--cpus must not be negative, not %d", o.CPUs)
	case o.Parallel < 0:
		return optionErrorf("--parallel", "--parallel must not be negative, not %d", o.Parallel)
	}
	for _, v := range []struct{ option, value string }{{"--out", o.Out}, {"--grue", o.Grue}} {
		if err := checkText(v.option, v.value); err != nil {
			return err
		}
	}
	for _, v := range []struct{ option, value string }{{"--partition", o.Partition}, {"--time", o.Time}, {"--mem", o.Mem}, {"--gres", o.Gres}} {
		if err := checkText(v.option, v.value); err != nil {
			return err
		}
		if i := strings.IndexAny(v.value, " \"'\\#"); i >= 0 {
			return optionErrorf(v.option, "%s %q: holds %q, which no Slurm %s has (and sbatch would read as more than the value)", v.option, v.value, v.value[i], strings.TrimPrefix(v.option, "--"))
		}
	}
	return nil
}

// incomplete sets the job's tasks to the shards of the run in o.Out that
// are not done.
func (j *SlurmJob) incomplete(cfg *harness.Config, o SlurmOptions) error {
	st, err := harness.ReadStatus(o.Out, time.Now())
	if err != nil {
		return fmt.Errorf("resume %s: %w", o.Out, err)
	}
	if st.ConfigHash != cfg.Hash() {
		return fmt.Errorf("resume %s: %w (config hash %.12s, the run's %.12s)", o.Out, harness.ErrHashMismatch, cfg.Hash(), st.ConfigHash)
	}
	for _, sh := range st.Shards {
		if j.Shards != 0 && sh.Shard.Count != j.Shards {
			return fmt.Errorf("resume %s: it holds shards of %d and of %d; resume with grue exp run --shard I/N --resume", o.Out, j.Shards, sh.Shard.Count)
		}
		j.Shards = sh.Shard.Count
	}
	if o.Shards != 0 && o.Shards != j.Shards {
		return optionErrorf("--shards", "--shards %d, but the run in %s has %d shards", o.Shards, o.Out, j.Shards)
	}
	for _, sh := range st.Shards {
		if sh.State == harness.ShardRunning {
			// Two processes on one shard would append to one file.
			return fmt.Errorf("resume %s: shard %s is still running (on %s, heartbeat %s): wait for it, or scancel it, before resubmitting",
				o.Out, sh.Shard, sh.Host, sh.Heartbeat.Format(time.RFC3339))
		}
	}
	for _, sh := range st.Incomplete() {
		j.Tasks = append(j.Tasks, sh.Index)
	}
	return nil
}

// arraySpec writes task ids as sbatch --array takes them: runs of
// consecutive ids as ranges, "0-3,5,7-8".
func arraySpec(ids []int) string {
	var parts []string
	for i := 0; i < len(ids); {
		k := i
		for k+1 < len(ids) && ids[k+1] == ids[k]+1 {
			k++
		}
		if k > i {
			parts = append(parts, fmt.Sprintf("%d-%d", ids[i], ids[k]))
		} else {
			parts = append(parts, strconv.Itoa(ids[i]))
		}
		i = k + 1
	}
	return strings.Join(parts, ",")
}

// LogPath is the log of array task i of job id.
func (j *SlurmJob) LogPath(id string, i int) string {
	return filepath.Join(j.Dir, SlurmDir, fmt.Sprintf("%s_%d.out", id, i))
}
