package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/lazyregexp"
)

// SubmissionsFile is the file of a run directory's SlurmDir folder that
// records each job array Submit submitted, a Submission a line.
const SubmissionsFile = "submissions.jsonl"

// Submission is a line of DIR/slurm/submissions.jsonl: a job array
// submitted for the run.
type Submission struct {
	JobID  string    `json:"job_id"`
	Script string    `json:"script"`
	Shards int       `json:"shards"`
	Tasks  []int     `json:"tasks"`
	Time   time.Time `json:"time"`
}

// Submit submits the script (written by WriteScript) with sbatch, records
// the Submission in SubmissionsFile and returns the job's id.
func (j *SlurmJob) Submit(ctx context.Context, script string) (string, error) {
	out, err := exec.CommandContext(ctx, "sbatch", "--parsable", script).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("sbatch %s: %w: %s", script, err, strings.TrimSpace(string(out)))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";") // "id;cluster" on federations
	if _, err := strconv.Atoi(id); err != nil {
		return "", fmt.Errorf("sbatch %s: it answered %q, not a job id", script, out)
	}
	line, err := json.Marshal(Submission{JobID: id, Script: script, Shards: j.Shards, Tasks: j.Tasks, Time: time.Now().UTC().Truncate(time.Millisecond)})
	if err != nil {
		return id, fmt.Errorf("job %s submitted, but not recorded: %w", id, err)
	}
	f, err := os.OpenFile(filepath.Join(j.Dir, SlurmDir, SubmissionsFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err == nil {
		_, err = f.Write(append(line, '\n'))
		err = errors.Join(err, f.Close())
	}
	if err != nil {
		return id, fmt.Errorf("job %s submitted, but not recorded: %w", id, err)
	}
	return id, nil
}

// ErrIncomplete is what Follow returns (wrapped) when the job left the
// queue with shards it ran incomplete.
var ErrIncomplete = errors.New("the run ended with shards incomplete")

// UnfinishedTask is an array task that left the queue without finishing
// its shard.
type UnfinishedTask struct {
	Shard harness.Shard
	// State is how Slurm says the task ended ("CANCELLED", "FAILED
	// (exit 1:0)", "TIMEOUT"...), or "ended" when the controller no
	// longer remembers it.
	State    string
	Recorded int    // the shard's episodes with a record
	Episodes int    // the shard's episodes
	Log      string // the task's log
}

// FollowResult is how a job's run stood once no task of it was left in
// the queue.
type FollowResult struct {
	Status *harness.Status
	// Unfinished are the job's tasks whose shards are not done.
	Unfinished []UnfinishedTask
}

// Follow shows the run of job id on progress (harness.Follower) until
// none of its tasks is queued or running, polling squeue every poll, and
// then returns how the run stands: when a task of the job did not finish
// its shard, or episodes are missing, with an error wrapping
// ErrIncomplete. Cancelling ctx stops following, not the job.
func (j *SlurmJob) Follow(ctx context.Context, cfg *harness.Config, id string, poll time.Duration, progress io.Writer) (*FollowResult, error) {
	fl := harness.NewFollower(j.Dir, cfg, progress, false)
	for {
		if _, err := fl.Update(time.Now()); err != nil {
			fl.Close()
			return nil, err
		}
		queued, err := squeueTasks(ctx, id)
		if err != nil {
			fl.Close()
			return nil, err
		}
		if len(queued) == 0 {
			break
		}
		select {
		case <-ctx.Done():
			fl.Close()
			return nil, fmt.Errorf("stopped following job %s (it goes on): %w", id, ctx.Err())
		case <-time.After(poll):
		}
	}
	_, err := fl.Update(time.Now())
	fl.Close()
	if err != nil {
		return nil, err
	}
	st, err := harness.ReadStatus(j.Dir, time.Now())
	if err != nil {
		return nil, err
	}
	r := &FollowResult{Status: st}
	states := taskStates(ctx, id)
	for _, sh := range st.Shards {
		if sh.State == harness.ShardDone || !slices.Contains(j.Tasks, sh.Shard.Index) {
			continue
		}
		state := states[sh.Shard.Index]
		if state == "" {
			state = "ended"
		}
		r.Unfinished = append(r.Unfinished, UnfinishedTask{Shard: sh.Shard, State: state, Recorded: sh.Recorded, Episodes: sh.Episodes, Log: j.LogPath(id, sh.Shard.Index)})
	}
	if len(r.Unfinished) > 0 || !st.Done() {
		return r, fmt.Errorf("job %s: %d tasks did not finish their shards: %w", id, len(r.Unfinished), ErrIncomplete)
	}
	return r, nil
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
