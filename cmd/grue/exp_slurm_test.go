package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/cli"
)

// slurmBinaries are the programs a one-node Slurm cluster needs.
var slurmBinaries = []string{"munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "scontrol", "sinfo"}

// startSlurm starts a one-node Slurm cluster for the test: munged,
// slurmctld and slurmd, as root, with a slurm.conf generated in a temp
// dir (SLURM_CONF points the client commands at it); they are stopped at
// the end of the test. It skips the test when not root or when Slurm is
// not installed, except under CI=true, where that fails it.
func startSlurm(t *testing.T) {
	t.Helper()
	var missing []string
	for _, b := range slurmBinaries {
		if _, err := exec.LookPath(b); err != nil {
			if _, err := os.Stat(filepath.Join("/usr/sbin", b)); err != nil {
				missing = append(missing, b)
			}
		}
	}
	why := ""
	switch {
	case os.Getuid() != 0:
		why = "a Slurm cluster is started as root"
	case len(missing) > 0:
		why = fmt.Sprintf("Slurm is not installed (missing %v): apt-get install slurm-wlm munge", missing)
	}
	if why != "" {
		if os.Getenv("CI") == "true" {
			t.Fatal(why)
		}
		t.Skip(why)
	}
	t.Setenv("PATH", os.Getenv("PATH")+":/usr/sbin")
	dir, err := os.MkdirTemp("", "grue-slurm-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for _, d := range []string{"munge", "state", "spool", "log"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	key := bytes.Repeat([]byte("grue-test-munge-key-"), 52)
	if err := os.WriteFile(filepath.Join(dir, "munge", "munge.key"), key, 0o600); err != nil {
		t.Fatal(err)
	}
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	host, _, _ = strings.Cut(host, ".")
	sock := filepath.Join(dir, "munge", "munge.socket")
	conf := fmt.Sprintf(`ClusterName=grue-test
SlurmctldHost=%[1]s(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=%[2]s
CredType=cred/munge
SlurmctldPort=%[3]d
SlurmdPort=%[4]d
StateSaveLocation=%[5]s/state
SlurmdSpoolDir=%[5]s/spool
SlurmctldPidFile=%[5]s/slurmctld.pid
SlurmdPidFile=%[5]s/slurmd.pid
SlurmctldLogFile=%[5]s/log/slurmctld.log
SlurmdLogFile=%[5]s/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
SchedulerParameters=sched_interval=1
ReturnToService=2
MpiDefault=none
MinJobAge=600
KillWait=5
NodeName=%[1]s NodeAddr=127.0.0.1 CPUs=4 RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=%[1]s Default=YES MaxTime=INFINITE State=UP
`, host, sock, freePort(t), freePort(t), dir)
	confPath := filepath.Join(dir, "slurm.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SLURM_CONF", confPath)
	daemon := func(name string, args ...string) {
		cmd := exec.Command(name, args...)
		logf, err := os.Create(filepath.Join(dir, "log", filepath.Base(name)+".out"))
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = logf, logf
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatalf("start %s: %v", name, err)
		}
		t.Cleanup(func() {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
			done := make(chan struct{})
			go func() { _ = cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				<-done
			}
			logf.Close()
			if t.Failed() {
				b, _ := os.ReadFile(logf.Name())
				t.Logf("%s log:\n%s", name, tail(string(b), 3000))
			}
		})
	}
	// The cleanups run last first: slurmd, slurmctld, then munged.
	daemon("munged", "-F", "--force", "--socket="+sock, "--key-file="+filepath.Join(dir, "munge", "munge.key"),
		"--log-file="+filepath.Join(dir, "log", "munged.log"), "--pid-file="+filepath.Join(dir, "munge", "munged.pid"),
		"--seed-file="+filepath.Join(dir, "munge", "munged.seed"))
	waitFor(t, 10*time.Second, "munged's socket", func() bool { _, err := os.Stat(sock); return err == nil })
	daemon("slurmctld", "-D", "-i", "-f", confPath)
	daemon("slurmd", "-D", "-N", host, "-f", confPath)
	// Cleanups run last first: the test's jobs go before the daemons.
	t.Cleanup(func() {
		out, _ := exec.Command("squeue", "--noheader", "--format", "%A").Output()
		if ids := strings.Fields(string(out)); len(ids) > 0 {
			_ = exec.Command("scancel", append([]string{"--signal=KILL"}, ids...)...).Run()
			time.Sleep(time.Second)
		}
	})
	waitFor(t, 30*time.Second, "the node to be idle", func() bool {
		out, err := exec.Command("sinfo", "--noheader", "--format", "%t").Output()
		return err == nil && strings.TrimSpace(string(out)) == "idle"
	})
}

// waitFor polls ok until it holds, failing the test after limit.
func waitFor(t *testing.T, limit time.Duration, what string, ok func() bool) {
	t.Helper()
	end := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(end) {
			t.Fatalf("waited %v for %s", limit, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// tail is the last n bytes of s.
func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// A real one-node Slurm cluster runs an experiment as a job array of 3
// shards; the merged results are those of the same experiment run on one
// machine, times aside. Then, in a second run, one array task is
// cancelled (scancel) part way: --wait names it with its log, and
// --resume resubmits that shard alone, which completes the run with no
// episode twice.
func TestExpSlurm(t *testing.T) {
	startSlurm(t)
	srv := playerServer(t, 150*time.Millisecond)
	modelEnv(t, srv)
	grue, err := exec.LookPath("grue") // this test binary, as testscript.Main set it up
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "small.yaml")
	config := `name: small
variants:
  - name: walkthrough
    policy: walkthrough
  - name: random
    policy: random
  - name: model
    memory: window
    window: 3
games: [lantern]
seeds: [1, 2, 3, 4]
max_steps: 6
parallel: 1
`
	if err := os.WriteFile(cfgPath, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := harness.LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	// Version: as the grue the array tasks run records it.
	whole, err := harness.Run(context.Background(), cfg, harness.RunOptions{Out: filepath.Join(dir, "whole"), Version: cli.Version()})
	if err != nil {
		t.Fatal(err)
	}

	// 1. Submit, wait, merge.
	out := filepath.Join(dir, "sharded")
	stdout, stderr, code := grueExp(t, "slurm", cfgPath, "--out", out, "--shards", "3", "--grue", grue, "--submit", "--wait", "--poll", "300ms")
	if code != 0 {
		t.Fatalf("grue exp slurm --submit --wait: exit %d\n%s\n%s\n%s", code, stdout, stderr, slurmLogs(out))
	}
	if !strings.Contains(stdout, "Submitted job") || !strings.Contains(stdout, "12 of 12 episodes, merged") {
		t.Errorf("stdout:\n%s", stdout)
	}
	merged, err := harness.LoadResults(out) // the merged results file
	if err != nil {
		t.Fatal(err)
	}
	sameOutcomes(t, merged, whole)
	script, err := os.ReadFile(filepath.Join(out, SlurmDir, "submit-1.sbatch"))
	if err != nil || !strings.Contains(string(script), "#SBATCH --array=0-2") {
		t.Errorf("the script: %v\n%s", err, script)
	}

	// 2. Submit, cancel task 1 once it has recorded an episode, resume.
	out = filepath.Join(dir, "cancelled")
	type result struct {
		stdout, stderr string
		code           int
	}
	first := make(chan result, 1)
	go func() {
		var o, e bytes.Buffer
		code := run([]string{"exp", "slurm", cfgPath, "--out", out, "--shards", "3", "--grue", grue, "--submit", "--wait", "--poll", "300ms"}, strings.NewReader(""), &o, &e)
		first <- result{o.String(), e.String(), code}
	}()
	shard1 := filepath.Join(out, harness.Shard{Index: 1, Count: 3}.Dir(), harness.ResultsFile)
	waitFor(t, 60*time.Second, "shard 1's first record", func() bool {
		b, _ := os.ReadFile(shard1)
		return bytes.Count(b, []byte("\n")) >= 1
	})
	job := submittedJob(t, out)
	if b, err := exec.Command("scancel", job+"_1").CombinedOutput(); err != nil {
		t.Fatalf("scancel %s_1: %v: %s", job, err, b)
	}
	res := <-first
	logPath := filepath.Join(out, SlurmDir, job+"_1.out")
	if res.code == 0 || !strings.Contains(res.stdout, "Task "+job+"_1 (shard 1/3) CANCELLED") || !strings.Contains(res.stdout, logPath) {
		t.Errorf("after scancel, --wait: exit %d, want the cancelled task with its log %s:\n%s\n%s", res.code, logPath, res.stdout, res.stderr)
	}
	st, err := harness.ReadStatus(out, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if st.Done() || len(st.Incomplete()) != 1 || st.Incomplete()[0] != (harness.Shard{Index: 1, Count: 3}) {
		t.Fatalf("status after scancel: %d/%d, incomplete %v", st.Recorded, st.Episodes, st.Incomplete())
	}
	before := st.Recorded

	stdout, stderr, code = grueExp(t, "slurm", cfgPath, "--out", out, "--grue", grue, "--resume", "--submit", "--wait", "--poll", "300ms")
	if code != 0 {
		t.Fatalf("--resume: exit %d\n%s\n%s\n%s", code, stdout, stderr, slurmLogs(out))
	}
	if !strings.Contains(stdout, "1 array tasks (shards 1 of 3)") {
		t.Errorf("--resume did not resubmit shard 1 alone:\n%s", stdout)
	}
	merged, err = harness.LoadResults(out)
	if err != nil {
		t.Fatal(err)
	}
	sameOutcomes(t, merged, whole)
	rs, err := harness.LoadResults(filepath.Dir(shard1))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(shard1)
	if lines := bytes.Count(b, []byte("\n")); lines != rs.Len() || len(rs.Problems) != 0 || rs.Len() != 4 {
		t.Errorf("shard 1: %d lines, %d records (problems %v); want its 4 episodes once each (%d recorded before the cancel)", lines, rs.Len(), rs.Problems, before)
	}
}

// submittedJob is the id of the (last) job grue exp slurm submitted for
// run directory out.
func submittedJob(t *testing.T, out string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, SlurmDir, "submissions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var s Submission
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &s); err != nil {
		t.Fatal(err)
	}
	return s.JobID
}

// slurmLogs is the array tasks' logs of run directory out, for a failure.
func slurmLogs(out string) string {
	files, _ := filepath.Glob(filepath.Join(out, SlurmDir, "*.out"))
	var b strings.Builder
	for _, f := range files {
		s, _ := os.ReadFile(f)
		fmt.Fprintf(&b, "== %s\n%s\n", f, tail(string(s), 2000))
	}
	return b.String()
}

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
// --resume, one whose array holds the incomplete shards only.
func TestExpSlurmScript(t *testing.T) {
	if got := arraySpec([]int{0, 1, 2, 3, 5, 7, 8}); got != "0-3,5,7-8" {
		t.Errorf("arraySpec = %q", got)
	}
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "sharded.yaml", shardedConfig)
	out := filepath.Join(dir, "my run")
	stdout, stderr, code := grueExp(t, "slurm", cfg, "--out", out, "--shards", "4", "--partition", "gpu", "--time", "1:00:00",
		"--gres", "gpu:1", "--mem", "4G", "--grue", "/opt/grue/bin/grue")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	script := filepath.Join(out, SlurmDir, "submit-1.sbatch")
	if !strings.Contains(stdout, "sbatch "+script) {
		t.Errorf("stdout does not say how to submit:\n%s", stdout)
	}
	b, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"#SBATCH --array=0-3\n", "#SBATCH --partition=gpu\n", "#SBATCH --time=1:00:00\n", "#SBATCH --gres=gpu:1\n",
		"#SBATCH --mem=4G\n", "#SBATCH --cpus-per-task=2\n", "#SBATCH --output=" + out + "/slurm/%A_%a.out\n",
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
	b, _ = os.ReadFile(filepath.Join(out, SlurmDir, "submit-3.sbatch"))
	if !strings.Contains(string(b), "#SBATCH --array=1-3\n") {
		t.Errorf("resume script:\n%s", b)
	}
	if _, stderr, code := grueExp(t, "slurm", cfg, "--out", out, "--resume", "--shards", "5"); code != 2 {
		t.Errorf("--resume --shards 5 on a run of 4: exit %d: %s", code, stderr)
	}
}
