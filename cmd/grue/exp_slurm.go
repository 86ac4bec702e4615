package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"

	"slices"
	"strconv"
	"strings"
	"sync"
	"text/template"
	"time"

	"github.com/spf13/cobra"

	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/atomicfile"
	"github.com/grue-lab/grue/internal/cli"
	"github.com/grue-lab/grue/internal/lazyregexp"
)

// SlurmDir is the folder of a run directory that holds the sbatch scripts
// grue exp slurm writes, the record of what it submitted and the array
// tasks' logs.
const SlurmDir = "slurm"

// expSlurmFlags are grue exp slurm's command line.
type expSlurmFlags struct {
	out       string
	shards    int
	partition string
	time      string
	cpus      int
	mem       string
	gres      string
	grue      string
	parallel  int
	submit    bool
	wait      bool
	resume    bool
	poll      time.Duration
}

func newExpSlurmCmd(stdout, stderr io.Writer) *cobra.Command {
	var f expSlurmFlags
	cmd := &cobra.Command{
		Use:   "slurm CONFIG.yaml --out DIR --shards N",
		Short: "Run an experiment as a Slurm job array, a shard a task",
		Long: `Write a Slurm batch script into DIR/slurm/ that runs the experiment as a job
array of N tasks: task I runs "grue exp run CONFIG --out DIR --shard I/N
--resume", playing its part of the episodes into DIR/shards/. DIR must be
on a filesystem every node sees (NFS, Lustre, GPFS): the shards never
write to the same file. Each task's log is DIR/slurm/<job>_<task>.out.

--submit submits the script with sbatch; --wait then follows the run
(progress from the shards' results) until no task is left in the queue,
names the failed tasks with their logs, and merges the shards when every
episode is recorded (grue exp merge).

--resume, on a run directory that already has shards, resubmits only the
shards that are incomplete (killed, cancelled, timed out, failed); each
plays only the episodes it lacks.

Without --submit nothing is submitted: read the script, then sbatch it.`,
		Args: cli.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return slurmExp(cmd.Context(), args[0], f, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.out, "out", "", "the run directory, on a filesystem shared by the nodes (required)")
	fl.IntVar(&f.shards, "shards", 0, "the number of array tasks, each a shard of the episodes (required, except with --resume)")
	fl.StringVar(&f.partition, "partition", "", "sbatch --partition")
	fl.StringVar(&f.time, "time", "", "sbatch --time, a task's time limit (such as 4:00:00)")
	fl.IntVar(&f.cpus, "cpus", 0, "sbatch --cpus-per-task (default: the config's parallel)")
	fl.StringVar(&f.mem, "mem", "", "sbatch --mem, a task's memory (such as 4G)")
	fl.StringVar(&f.gres, "gres", "", "sbatch --gres (such as gpu:1, for a model served on the node)")
	fl.StringVar(&f.grue, "grue", "", "the grue binary the tasks run, on the shared filesystem (default: this one)")
	fl.IntVar(&f.parallel, "parallel", 0, "episodes at once in each task (default: the config's parallel)")
	fl.BoolVar(&f.submit, "submit", false, "submit the script with sbatch")
	fl.BoolVar(&f.wait, "wait", false, "with --submit: follow the run until it ends, then merge it")
	fl.BoolVar(&f.resume, "resume", false, "resubmit only the incomplete shards of the run in --out")
	fl.DurationVar(&f.poll, "poll", 5*time.Second, "with --wait: how often to look at the queue and the results")
	return cmd
}

func slurmExp(ctx context.Context, path string, f expSlurmFlags, stdout, stderr io.Writer) error {
	if f.out == "" {
		return cli.UsageError{Err: errors.New("--out DIR is required: the run directory the tasks share")}
	}
	if f.wait && !f.submit {
		return cli.UsageError{Err: errors.New("--wait goes with --submit")}
	}
	if f.poll <= 0 {
		return cli.UsageError{Err: fmt.Errorf("--poll must be positive, not %v", f.poll)}
	}
	cfg, err := harness.LoadConfig(path)
	if err != nil {
		return err
	}
	job, err := newSlurmJob(cfg, path, f)
	if err != nil {
		return err
	}
	if len(job.Tasks) == 0 {
		fmt.Fprintf(stdout, "Nothing to resubmit: every shard of %s is done.\n", job.Dir)
		return nil
	}
	script, err := job.write()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Wrote %s: %d array tasks (shards %s of %d)\n", script, len(job.Tasks), job.Array, job.Shards)
	if !f.submit {
		fmt.Fprintf(stdout, "Submit it with:\n  sbatch %s\n", script)
		return nil
	}
	id, err := job.submit(ctx, script)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Submitted job %s; logs in %s\nFollow it with: grue exp status %s\n", id, filepath.Join(job.Dir, SlurmDir), f.out)
	if !f.wait {
		return nil
	}
	return job.follow(ctx, cfg, id, f.poll, stdout, stderr)
}

// slurmJob is one submission of a run as a job array.
type slurmJob struct {
	Name      string
	Dir       string // the run directory, absolute
	Config    string // the config file, absolute
	Grue      string // the grue binary, absolute
	Shards    int
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

// newSlurmJob works out what to submit: every shard, or with --resume the
// incomplete ones of the run in f.out.
func newSlurmJob(cfg *harness.Config, path string, f expSlurmFlags) (*slurmJob, error) {
	j := &slurmJob{Name: cfg.Name, Partition: f.partition, Time: f.time, CPUs: f.cpus, Mem: f.mem, Gres: f.gres, Parallel: f.parallel, Resume: f.resume}
	var err error
	if j.Dir, err = filepath.Abs(f.out); err != nil {
		return nil, err
	}
	if j.Config, err = filepath.Abs(path); err != nil {
		return nil, err
	}
	j.Grue = f.grue
	if j.Grue == "" {
		if j.Grue, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("the grue binary for the tasks: %w; give --grue PATH", err)
		}
	}
	if j.Grue, err = filepath.Abs(j.Grue); err != nil {
		return nil, err
	}
	if j.CPUs == 0 {
		j.CPUs = max(1, cfg.Parallel, f.parallel)
	}
	if f.shards < 0 || (f.shards == 0 && !f.resume) {
		return nil, cli.UsageError{Err: errors.New("--shards N is required: the number of array tasks")}
	}
	if !f.resume {
		if harness.IsSharded(f.out) {
			return nil, cli.UsageError{Err: fmt.Errorf("%s already holds a sharded run: resubmit its incomplete shards with --resume, or choose another --out", f.out)}
		}
		j.Shards = f.shards
		for i := range f.shards {
			j.Tasks = append(j.Tasks, i)
		}
	} else if err := j.incomplete(cfg, f); err != nil {
		return nil, err
	}
	j.Array = arraySpec(j.Tasks)
	return j, nil
}

// incomplete sets the job's tasks to the shards of the run in f.out that
// are not done.
func (j *slurmJob) incomplete(cfg *harness.Config, f expSlurmFlags) error {
	st, err := harness.ReadStatus(f.out, time.Now())
	if err != nil {
		return fmt.Errorf("resume %s: %w", f.out, err)
	}
	if st.ConfigHash != cfg.Hash() {
		return fmt.Errorf("resume %s: %w (config hash %.12s, the run's %.12s)", f.out, harness.ErrHashMismatch, cfg.Hash(), st.ConfigHash)
	}
	for _, sh := range st.Shards {
		if j.Shards != 0 && sh.Shard.Count != j.Shards {
			return fmt.Errorf("resume %s: it holds shards of %d and of %d; resume with grue exp run --shard I/N --resume", f.out, j.Shards, sh.Shard.Count)
		}
		j.Shards = sh.Shard.Count
	}
	if f.shards != 0 && f.shards != j.Shards {
		return cli.UsageError{Err: fmt.Errorf("--shards %d, but the run in %s has %d shards", f.shards, f.out, j.Shards)}
	}
	for _, sh := range st.Shards {
		if sh.State == harness.ShardRunning {
			// Two processes on one shard would append to one file.
			return fmt.Errorf("resume %s: shard %s is still running (on %s, heartbeat %s): wait for it, or scancel it, before resubmitting",
				f.out, sh.Shard, sh.Host, sh.Heartbeat.Format(time.RFC3339))
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

// sbatchScript is the batch script: one array task a shard. It is parsed
// on first use, not at the start of every grue command.
var sbatchScript = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("sbatch").Funcs(template.FuncMap{"q": shellQuote}).Parse(sbatchText))
})

const sbatchText = `#!/bin/bash
# grue experiment {{.Name}} as a Slurm job array: task I plays shard I of
# {{.Shards}} into {{.Dir}}/shards/, its log in {{.Dir}}/slurm/.
# Written by grue exp slurm{{if .Resume}} --resume: only the incomplete shards{{end}}.
#
#SBATCH --job-name=grue-{{.Name}}
#SBATCH --array={{.Array}}
#SBATCH --output={{.Dir}}/slurm/%A_%a.out
#SBATCH --cpus-per-task={{.CPUs}}
{{- if .Partition}}
#SBATCH --partition={{.Partition}}{{end}}
{{- if .Time}}
#SBATCH --time={{.Time}}{{end}}
{{- if .Mem}}
#SBATCH --mem={{.Mem}}{{end}}
{{- if .Gres}}
#SBATCH --gres={{.Gres}}{{end}}
#SBATCH --signal=B:TERM@60
set -euo pipefail

# The model endpoint, key and story folder come from the environment of
# sbatch (Slurm passes it on): OPENAI_BASE_URL, GRUE_MODEL, GRUE_GAMES...
#
# --resume: a task that is requeued, or resubmitted, plays only the
# episodes its shard lacks; a shard that never started starts.
exec {{q .Grue}} exp run {{q .Config}} \
  --out {{q .Dir}} \
  --shard "${SLURM_ARRAY_TASK_ID}/{{.Shards}}" \
  --resume{{if .Parallel}} \
  --parallel {{.Parallel}}{{end}} \
  --quiet
`

// write writes the job's script into the run directory's slurm folder:
// submit-<k>.sbatch, k counting the submissions.
func (j *slurmJob) write() (string, error) {
	dir := filepath.Join(j.Dir, SlurmDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("slurm script: %w", err)
	}
	var b bytes.Buffer
	if err := sbatchScript().Execute(&b, j); err != nil {
		return "", fmt.Errorf("slurm script: %w", err)
	}
	for k := 1; ; k++ {
		path := filepath.Join(dir, fmt.Sprintf("submit-%d.sbatch", k))
		if _, err := os.Stat(path); err == nil {
			continue
		}
		if err := atomicfile.Write(path, b.Bytes(), 0o755); err != nil {
			return "", fmt.Errorf("slurm script: %w", err)
		}
		return path, nil
	}
}

// shellQuote quotes s for bash when it needs it.
func shellQuote(s string) string {
	if regexp.MustCompile(`^[A-Za-z0-9_./:=@%+-]+$`).MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Submission is a line of DIR/slurm/submissions.jsonl: a job array grue
// exp slurm submitted.
type Submission struct {
	JobID  string    `json:"job_id"`
	Script string    `json:"script"`
	Shards int       `json:"shards"`
	Tasks  []int     `json:"tasks"`
	Time   time.Time `json:"time"`
}

// submit submits the script with sbatch and returns the job's id.
func (j *slurmJob) submit(ctx context.Context, script string) (string, error) {
	out, err := exec.CommandContext(ctx, "sbatch", "--parsable", script).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("sbatch %s: %w: %s", script, err, strings.TrimSpace(string(out)))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";") // "id;cluster" on federations
	if _, err := strconv.Atoi(id); err != nil {
		return "", fmt.Errorf("sbatch %s: it answered %q, not a job id", script, out)
	}
	line, _ := json.Marshal(Submission{JobID: id, Script: script, Shards: j.Shards, Tasks: j.Tasks, Time: time.Now().UTC().Truncate(time.Millisecond)})
	f, err := os.OpenFile(filepath.Join(j.Dir, SlurmDir, "submissions.jsonl"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err == nil {
		_, err = f.Write(append(line, '\n'))
		err = errors.Join(err, f.Close())
	}
	if err != nil {
		return id, fmt.Errorf("job %s submitted, but not recorded: %w", id, err)
	}
	return id, nil
}

// logPath is the log of array task i of job id.
func (j *slurmJob) logPath(id string, i int) string {
	return filepath.Join(j.Dir, SlurmDir, fmt.Sprintf("%s_%d.out", id, i))
}

// follow shows the run of job id until none of its tasks is queued or
// running, then names the failed tasks with their logs, and merges the
// run when every episode is recorded.
func (j *slurmJob) follow(ctx context.Context, cfg *harness.Config, id string, poll time.Duration, stdout, stderr io.Writer) error {
	fl := harness.NewFollower(j.Dir, cfg, stderr, false)
	for {
		if _, err := fl.Update(time.Now()); err != nil {
			fl.Close()
			return err
		}
		queued, err := squeueTasks(ctx, id)
		if err != nil {
			fl.Close()
			return err
		}
		if len(queued) == 0 {
			break
		}
		select {
		case <-ctx.Done():
			fl.Close()
			return fmt.Errorf("stopped following job %s (it goes on): %w", id, ctx.Err())
		case <-time.After(poll):
		}
	}
	_, err := fl.Update(time.Now())
	fl.Close()
	if err != nil {
		return err
	}
	st, err := harness.ReadStatus(j.Dir, time.Now())
	if err != nil {
		return err
	}
	states := taskStates(ctx, id)
	failed := 0
	for _, sh := range st.Shards {
		if sh.State == harness.ShardDone || !slices.Contains(j.Tasks, sh.Shard.Index) {
			continue
		}
		failed++
		state := states[sh.Shard.Index]
		if state == "" {
			state = "ended"
		}
		fmt.Fprintf(stdout, "Task %s_%d (shard %s) %s with %d of %d episodes recorded; log %s\n",
			id, sh.Shard.Index, sh.Shard, state, sh.Recorded, sh.Episodes, j.logPath(id, sh.Shard.Index))
	}
	if failed > 0 || !st.Done() {
		fmt.Fprintf(stdout, "%d/%d episodes. Resubmit the incomplete shards with:\n  grue exp slurm %s --out %s --resume --submit --wait\n",
			st.Recorded, st.Episodes, j.Config, j.Dir)
		return fmt.Errorf("job %s: %d tasks did not finish their shards: %w", id, failed, errIncomplete)
	}
	return mergeAndCompare(j.Dir, cfg, stdout, stderr)
}

// mergeAndCompare merges a finished sharded run and prints its comparison.
func mergeAndCompare(dir string, cfg *harness.Config, stdout, stderr io.Writer) error {
	m, err := harness.MergeShards(dir)
	if err != nil {
		return err
	}
	for _, d := range m.Duplicates {
		fmt.Fprintf(stderr, "grue exp merge: %s recorded by more than one shard: kept %s, left %v\n", d.Key, d.Kept, d.Dropped)
	}
	if err := m.Write(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Results: %s (%d of %d episodes, merged)\n\n", filepath.Join(dir, harness.ResultsFile), m.Results.Len(), len(cfg.Episodes()))
	c, err := harness.Compare(m.Results, cfg.Variants[0].Name, harness.CompareOptions{})
	if err != nil {
		return err
	}
	return c.WriteWidth(stdout, harness.FormatTable, tableWidth(stdout))
}

// squeueTasks returns the array tasks of job id still queued or running,
// with their state; none once the job has left the queue.
func squeueTasks(ctx context.Context, id string) (map[int]string, error) {
	out, err := exec.CommandContext(ctx, "squeue", "--noheader", "--array", "--jobs", id, "--format", "%K|%T").CombinedOutput()
	if err != nil {
		if strings.Contains(string(out), "Invalid job id") {
			return nil, nil // purged: it ended a while ago
		}
		return nil, fmt.Errorf("squeue --jobs %s: %w: %s", id, err, strings.TrimSpace(string(out)))
	}
	tasks := map[int]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		k, state, ok := strings.Cut(line, "|")
		if !ok {
			continue
		}
		if i, err := strconv.Atoi(k); err == nil {
			tasks[i] = state
		} else {
			tasks[-1] = state // "[0-3]": tasks not yet split off the array
		}
	}
	return tasks, nil
}

// jobStateField matches an array task and its state in a line of
// scontrol show job --oneliner.
var jobStateField = lazyregexp.New(`ArrayTaskId=(\d+) .*?JobState=(\S+)(?: .*?ExitCode=(\S+))?`)

// taskStates asks Slurm how each array task of job id ended (CANCELLED,
// FAILED, TIMEOUT, ...), as long as the controller remembers it; a task
// it does not say is missing from the map.
func taskStates(ctx context.Context, id string) map[int]string {
	out, err := exec.CommandContext(ctx, "scontrol", "--oneliner", "show", "job", id).Output()
	states := map[int]string{}
	if err != nil {
		return states
	}
	for _, line := range strings.Split(string(out), "\n") {
		m := jobStateField.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		i, _ := strconv.Atoi(m[1])
		s := m[2]
		if m[3] != "" && m[3] != "0:0" {
			s += " (exit " + m[3] + ")"
		}
		states[i] = s
	}
	return states
}
