package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grue-lab/grue/agent/llm/llmtest"
	"github.com/grue-lab/grue/harness"
)

// TestMain makes the test binary the grue of the array tasks too: run as
// "BINARY exp run CONFIG --out DIR --shard I/N --resume [--parallel P]
// --quiet", the command line the sbatch script gives, it plays the shard
// with harness.Run, as grue exp run does, stopping at SIGTERM.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == "exp" && os.Args[2] == "run" {
		if err := taskMain(os.Args[3:]); err != nil {
			fmt.Fprintln(os.Stderr, "task:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// taskMain is an array task: grue exp run's part that the script uses.
func taskMain(args []string) error {
	if len(args) == 0 {
		return errors.New("no config")
	}
	cfg, err := harness.LoadConfig(args[0])
	if err != nil {
		return err
	}
	opts := harness.RunOptions{Version: "cluster-test"}
	for i := 1; i < len(args); i++ {
		switch args[i] {
		case "--out":
			i++
			opts.Out = args[i]
		case "--shard":
			i++
			sh, err := harness.ParseShard(args[i])
			if err != nil {
				return err
			}
			opts.Shard = &sh
		case "--resume":
			opts.Resume = true
		case "--quiet":
		default:
			return fmt.Errorf("unknown argument %q", args[i])
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	_, err = harness.Run(ctx, cfg, opts)
	return err
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago,
// for a daemon that must be told its port in a configuration file
// (slurmctld and slurmd) and cannot report one it chose.
func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

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
// shards, from a run directory whose path has a space and a quote (which
// the #SBATCH lines and the command must carry whole); the merged results
// are those of the same experiment run on one machine, times aside. Then,
// in a second run, one array task is cancelled (scancel) part way: Follow
// names it with its log, and a Resume job resubmits that shard alone,
// which completes the run with no episode twice.
func TestSlurmJob(t *testing.T) {
	startSlurm(t)
	srv := llmtest.NewServer()
	t.Cleanup(srv.Close)
	srv.Fallback(func(llmtest.Request) llmtest.Response {
		return llmtest.Text("THOUGHT: I look.\nTOOL: play_action\nARGS: {\"action\": \"look\"}").After(150 * time.Millisecond)
	})
	t.Setenv("OPENAI_BASE_URL", srv.URL())
	t.Setenv("GRUE_MODEL", "scripted-model")
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("HF_TOKEN", "")
	t.Setenv("GRUE_PRICES", "")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "it's a run")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
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
	whole, err := harness.Run(context.Background(), cfg, harness.RunOptions{Out: filepath.Join(dir, "whole"), Version: "cluster-test"})
	if err != nil {
		t.Fatal(err)
	}
	submit := func(o SlurmOptions) (*SlurmJob, string) {
		t.Helper()
		o.Grue = self
		job, err := NewSlurmJob(cfg, cfgPath, o)
		if err != nil {
			t.Fatal(err)
		}
		script, err := job.WriteScript()
		if err != nil {
			t.Fatal(err)
		}
		id, err := job.Submit(context.Background(), script)
		if err != nil {
			t.Fatal(err)
		}
		return job, id
	}

	// 1. Submit, follow, merge.
	out := filepath.Join(dir, "sharded")
	job, id := submit(SlurmOptions{Out: out, Shards: 3})
	var progress bytes.Buffer
	res, err := job.Follow(context.Background(), cfg, id, 300*time.Millisecond, &progress)
	if err != nil {
		t.Fatalf("Follow: %v\n%s\n%s", err, progress.String(), slurmLogs(out))
	}
	if !res.Status.Done() || len(res.Unfinished) != 0 {
		t.Fatalf("after the job: %d/%d episodes, unfinished %v", res.Status.Recorded, res.Status.Episodes, res.Unfinished)
	}
	merged := mergeRun(t, out)
	sameOutcomes(t, merged, whole)
	if s := submittedJob(t, out); s.JobID != id || s.Shards != 3 || !slices.Equal(s.Tasks, []int{0, 1, 2}) {
		t.Errorf("submissions.jsonl: %+v, want job %s of shards 0-2", s, id)
	}

	// 2. Submit, cancel task 1 once it has recorded an episode, resume.
	out = filepath.Join(dir, "cancelled")
	job, id = submit(SlurmOptions{Out: out, Shards: 3})
	shard1 := filepath.Join(out, harness.Shard{Index: 1, Count: 3}.Dir(), harness.ResultsFile)
	waitFor(t, 60*time.Second, "shard 1's first record", func() bool {
		b, _ := os.ReadFile(shard1)
		return bytes.Count(b, []byte("\n")) >= 1
	})
	if b, err := exec.Command("scancel", id+"_1").CombinedOutput(); err != nil {
		t.Fatalf("scancel %s_1: %v: %s", id, err, b)
	}
	res, err = job.Follow(context.Background(), cfg, id, 300*time.Millisecond, &progress)
	if !errors.Is(err, ErrIncomplete) || res == nil {
		t.Fatalf("Follow after scancel: %v, want ErrIncomplete", err)
	}
	want := UnfinishedTask{Shard: harness.Shard{Index: 1, Count: 3}, State: "CANCELLED", Log: filepath.Join(out, SlurmDir, id+"_1.out")}
	if len(res.Unfinished) != 1 || res.Unfinished[0].Shard != want.Shard || !strings.HasPrefix(res.Unfinished[0].State, want.State) || res.Unfinished[0].Log != want.Log {
		t.Errorf("unfinished after scancel: %+v, want %+v", res.Unfinished, want)
	}
	if _, err := os.Stat(want.Log); err != nil {
		t.Errorf("the task's log is not where #SBATCH --output says: %v", err)
	}
	st, err := harness.ReadStatus(out, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if st.Done() || len(st.Incomplete()) != 1 || st.Incomplete()[0] != want.Shard {
		t.Fatalf("status after scancel: %d/%d, incomplete %v", st.Recorded, st.Episodes, st.Incomplete())
	}
	before := st.Recorded

	job, id = submit(SlurmOptions{Out: out, Resume: true})
	if job.Array != "1" || job.Shards != 3 {
		t.Errorf("the resumed job: array %q of %d shards, want shard 1 of 3 alone", job.Array, job.Shards)
	}
	if _, err = job.Follow(context.Background(), cfg, id, 300*time.Millisecond, &progress); err != nil {
		t.Fatalf("Follow of the resumed job: %v\n%s", err, slurmLogs(out))
	}
	merged = mergeRun(t, out)
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

// mergeRun merges the shards of the run in out and returns the results.
func mergeRun(t *testing.T, out string) *harness.ResultSet {
	t.Helper()
	m, err := harness.MergeShards(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Write(); err != nil {
		t.Fatal(err)
	}
	return m.Results
}

// submittedJob is the last job recorded in run directory out's
// submissions.jsonl.
func submittedJob(t *testing.T, out string) Submission {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, SlurmDir, SubmissionsFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var s Submission
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &s); err != nil {
		t.Fatal(err)
	}
	return s
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
	strip := func(rs *harness.ResultSet) []string {
		var out []string
		for _, r := range rs.Records {
			r.Trajectory = filepath.Base(filepath.Dir(r.Trajectory)) + "/" + filepath.Base(r.Trajectory)
			r.Started, r.Finished, r.DurationMS = time.Time{}, time.Time{}, 0
			out = append(out, fmt.Sprintf("%+v", r))
		}
		slices.Sort(out)
		return out
	}
	g, w := strip(got), strip(want)
	if len(g) != len(w) {
		t.Fatalf("%d records, want %d", len(g), len(w))
	}
	for i := range g {
		if g[i] != w[i] {
			t.Errorf("records differ:\n got %s\nwant %s", g[i], w[i])
		}
	}
}
