package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/harness/cluster"
)

// sameOutcomes checks that two result sets hold the same episodes with the
// same outcomes: everything but times and where the trajectory is.
func sameOutcomes(t *testing.T, got, want *harness.ResultSet) {
	t.Helper()
	norm := func(rs *harness.ResultSet) *harness.ResultSet {
		out := &harness.ResultSet{}
		for _, r := range rs.Records {
			r.Trajectory = filepath.Base(filepath.Dir(r.Trajectory)) + "/" + filepath.Base(r.Trajectory)
			out.Add(r)
		}
		return out
	}
	sameRecords(t, norm(got), norm(want))
}

// Without --submit, grue exp slurm writes a script that bash accepts, with
// the array, the resources asked for and the task's command line; with
// --resume, one whose array holds the incomplete shards only. (The job
// itself, submitted to a one-node Slurm cluster, is package cluster's
// TestSlurmJob.)
func TestExpSlurmScript(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "sharded.yaml", shardedConfig)
	out := filepath.Join(dir, "my run")
	stdout, stderr, code := grueExp(t, "slurm", cfg, "--out", out, "--shards", "4", "--partition", "gpu", "--time", "1:00:00",
		"--gres", "gpu:1", "--mem", "4G", "--grue", "/opt/grue/bin/grue")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	script := filepath.Join(out, cluster.SlurmDir, "submit-1.sbatch")
	if !strings.Contains(stdout, "sbatch "+script) {
		t.Errorf("stdout does not say how to submit:\n%s", stdout)
	}
	b, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"#SBATCH --array=0-3\n", "#SBATCH --partition=gpu\n", "#SBATCH --time=1:00:00\n", "#SBATCH --gres=gpu:1\n",
		"#SBATCH --mem=4G\n", "#SBATCH --cpus-per-task=2\n", "#SBATCH --output=\"" + out + "/slurm/%A_%a.out\"\n",
		"exec /opt/grue/bin/grue exp run " + cfg, "--out '" + out + "'", `--shard "${SLURM_ARRAY_TASK_ID}/4"`, "--resume",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("script lacks %q:\n%s", want, b)
		}
	}
	if out, err := exec.Command("bash", "-n", script).CombinedOutput(); err != nil {
		t.Errorf("bash -n: %v: %s", err, out)
	}
	if _, stderr, code := grueExp(t, "slurm", cfg, "--out", out, "--shards", "4"); code != 0 {
		t.Errorf("a second script before any shard ran: exit %d: %s", code, stderr)
	}

	// Shard 0 done, 2 stopped part way, 1 and 3 never started.
	if _, stderr, code := grueExp(t, "run", cfg, "--out", out, "--shard", "0/4", "-q"); code != 0 {
		t.Fatal(stderr)
	}
	if _, stderr, code := grueExp(t, "slurm", cfg, "--out", out, "--shards", "4"); code != 2 || !strings.Contains(stderr, "--resume") {
		t.Errorf("a new array over a started run: exit %d: %s", code, stderr)
	}
	stdout, stderr, code = grueExp(t, "slurm", cfg, "--out", out, "--resume")
	if code != 0 || !strings.Contains(stdout, "3 array tasks (shards 1-3 of 4)") {
		t.Fatalf("--resume: exit %d\n%s\n%s", code, stdout, stderr)
	}
	b, _ = os.ReadFile(filepath.Join(out, cluster.SlurmDir, "submit-3.sbatch"))
	if !strings.Contains(string(b), "#SBATCH --array=1-3\n") {
		t.Errorf("resume script:\n%s", b)
	}
	if _, stderr, code := grueExp(t, "slurm", cfg, "--out", out, "--resume", "--shards", "5"); code != 2 {
		t.Errorf("--resume --shards 5 on a run of 4: exit %d: %s", code, stderr)
	}
}

// A flag's value with a newline would put a command line of its own into
// the sbatch script (issue 35, item 9): grue exp slurm refuses it, naming
// the flag and what is wrong, and writes no script. A value with a space
// or a quote in a Slurm setting is refused too (sbatch would read it as
// more than the value); a path with quotes and a $(...) is quoted, so
// that running the script runs nothing but grue.
func TestExpSlurmInjection(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "sharded.yaml", shardedConfig)
	for _, c := range []struct{ flag, value, want string }{
		{"--partition", "gpu\ntouch PWNED", "control character"},
		{"--out", filepath.Join(dir, "run\ntouch PWNED"), "control character"},
		{"--grue", "/opt/grue\rtouch PWNED", "control character"},
		{"--time", "1:00:00\u2028touch PWNED", "control character"},
		{"--gres", "gpu:1 --uid=0", "' '"},
		{"--mem", `4G"`, `'"'`},
	} {
		args := []string{"slurm", cfg, "--out", filepath.Join(dir, "run"), "--shards", "2", "--grue", "/opt/grue/bin/grue"}
		args = append(args, c.flag, c.value)
		stdout, stderr, code := grueExp(t, args...)
		if code != 2 || !strings.Contains(stderr, c.flag) || !strings.Contains(stderr, c.want) {
			t.Errorf("%s %q: exit %d, want 2 with a message naming %s and %s:\n%s\n%s", c.flag, c.value, code, c.flag, c.want, stdout, stderr)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*", cluster.SlurmDir, "*.sbatch")); len(m) > 0 {
		t.Errorf("scripts written for refused values: %v", m)
	}

	// Quotes, spaces and $(...) in paths are quoted for bash: the script
	// runs the grue named, with the run directory as one argument.
	odd := filepath.Join(dir, `it's "odd" $(touch PWNED) #x`)
	fake := filepath.Join(dir, "fake grue")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$(dirname \"$0\")/args\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := grueExp(t, "slurm", cfg, "--out", odd, "--shards", "2", "--grue", fake, "--partition", "gpu"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	script := filepath.Join(odd, cluster.SlurmDir, "submit-1.sbatch")
	b, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "#SBATCH --output=") && line != `#SBATCH --output="`+strings.ReplaceAll(odd, `"`, `\"`)+`/slurm/%A_%a.out"` {
			t.Errorf("the output line is not quoted for sbatch: %s", line)
		}
	}
	run := exec.Command("bash", script)
	run.Dir = dir
	run.Env = append(os.Environ(), "SLURM_ARRAY_TASK_ID=1")
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("bash %s: %v: %s", script, err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "PWNED")); err == nil {
		t.Errorf("running the script ran the $(...) of the run directory's name")
	}
	args, err := os.ReadFile(filepath.Join(dir, "args"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{"exp", "run", cfg, "--out", odd, "--shard", "1/2", "--resume", "--quiet"}, "\n") + "\n"
	if string(args) != want {
		t.Errorf("the task ran with\n%s\nwant\n%s", args, want)
	}
}

// fakeSlurm puts an sbatch, a squeue and an scontrol on PATH that stand
// for a cluster that has run the job already: sbatch answers job 42 and
// runs, one after the other, the array tasks listed in $FAKE_TASKS with
// bash; squeue says none is left in the queue; scontrol says task 1 was
// cancelled.
func fakeSlurm(t *testing.T) {
	t.Helper()
	bin := t.TempDir()
	for name, text := range map[string]string{
		"sbatch":   "#!/bin/sh\nfor i in $FAKE_TASKS; do SLURM_ARRAY_TASK_ID=$i bash \"$2\" >/dev/null 2>&1; done\necho 42\n",
		"squeue":   "#!/bin/sh\nexit 0\n",
		"scontrol": "#!/bin/sh\necho 'JobId=43 ArrayJobId=42 ArrayTaskId=1 JobName=grue-sharded JobState=CANCELLED Reason=None ExitCode=0:15'\n",
	} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// --submit --wait, against a stand-in for Slurm whose task 1 never ran:
// the command names the task with its state and log, says how to
// resubmit and exits 1; the resubmission of that shard alone merges the
// run and prints its comparison. (The real cluster is package cluster's
// TestSlurmJob.)
func TestExpSlurmWait(t *testing.T) {
	grue, err := exec.LookPath("grue") // this test binary, as testscript.Main set it up
	if err != nil {
		t.Fatal(err)
	}
	fakeSlurm(t)
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "sharded.yaml", shardedConfig)
	out := filepath.Join(dir, "run")
	t.Setenv("FAKE_TASKS", "0")
	stdout, stderr, code := grueExp(t, "slurm", cfg, "--out", out, "--shards", "2", "--grue", grue, "--submit", "--wait", "--poll", "10ms")
	log := filepath.Join(out, cluster.SlurmDir, "42_1.out")
	if code != 1 || !strings.Contains(stdout, "Submitted job 42") ||
		!strings.Contains(stdout, "Task 42_1 (shard 1/2) CANCELLED (exit 0:15) with 0 of 5 episodes recorded; log "+log) ||
		!strings.Contains(stdout, "5/10 episodes. Resubmit the incomplete shards with:\n  grue exp slurm "+cfg+" --out "+out+" --resume --submit --wait") ||
		!strings.Contains(stderr, "did not finish their shards") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}

	t.Setenv("FAKE_TASKS", "1")
	stdout, stderr, code = grueExp(t, "slurm", cfg, "--out", out, "--grue", grue, "--resume", "--submit", "--wait", "--poll", "10ms")
	if code != 0 || !strings.Contains(stdout, "1 array tasks (shards 1 of 2)") || !strings.Contains(stdout, "(10 of 10 episodes, merged)") ||
		!strings.Contains(stdout, "walkthrough") {
		t.Fatalf("resume: exit %d\n%s\n%s", code, stdout, stderr)
	}
	rs, err := harness.LoadResults(out)
	if err != nil || rs.Len() != 10 {
		t.Fatalf("merged results: %v, %v", rs, err)
	}
}
