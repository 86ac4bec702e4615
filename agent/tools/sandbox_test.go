package tools

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// confinements runs f once as run_shell runs where user namespaces are
// allowed and once as where they are not.
func confinements(t *testing.T, f func(t *testing.T, w *Workspace, reg *Registry)) {
	for _, noNS := range []bool{false, true} {
		name := "namespaces"
		if noNS {
			name = "no-namespaces"
		}
		t.Run(name, func(t *testing.T) {
			w, reg, _ := newWorkspace(t)
			w.noNamespaces = noNS
			f(t, w, reg)
		})
	}
}

// The attack of issue 11, item 9: a command reads grue's own
// environment (or memory map) through /proc. grue here is the test
// binary started again with an API key in its environment; its shell
// tries its parent, every process it can see, and grue's pid directly,
// also after unmounting /proc.
func TestRunShellCannotReadGrue(t *testing.T) {
	const secret = "sk-grue-test-0123456789abcdef"
	attack := strings.Join([]string{
		`tr '\0' '\n' < /proc/$PPID/environ`,
		`for p in /proc/[0-9]*; do tr '\0' '\n' < $p/environ; done`,
		`tr '\0' '\n' < /proc/GRUEPID/environ`,
		`cat /proc/GRUEPID/maps`,
		`umount /proc; tr '\0' '\n' < /proc/GRUEPID/environ; cat /proc/GRUEPID/maps`,
		`env`,
		`echo END`,
	}, " 2>&1; ")
	for _, noNS := range []bool{false, true} {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), shellEnv+"="+attack, "OPENAI_API_KEY="+secret, "GH_PAT=ghp_"+secret)
		if noNS {
			cmd.Env = append(cmd.Env, shellNoNSEnv+"=1")
		}
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "END") {
			t.Fatalf("no namespaces %v: the command did not run: %v\n%s", noNS, err, out)
		}
		if strings.Contains(string(out), secret) || strings.Contains(string(out), "[stack]") {
			t.Errorf("no namespaces %v: the command read grue's environment or memory map:\n%s", noNS, out)
		}
	}
}

// In new namespaces the command sees only its own processes.
func TestRunShellSeesOnlyItsProcesses(t *testing.T) {
	_, reg, _ := newWorkspace(t)
	r := wsCall(t, reg, "run_shell", map[string]any{"command": "echo $PPID; ls -d /proc/[0-9]* | wc -l; cat /proc/self/status | grep CapEff"})
	f := strings.Fields(r.Text)
	if len(f) < 4 || f[0] != "1" || f[3] != "0000000000000000" {
		t.Errorf("the command's parent, number of processes and capabilities:\n%s", r.Text)
	}
	if n, err := strconv.Atoi(f[1]); err != nil || n > 5 {
		t.Errorf("the command sees %s processes:\n%s", f[1], r.Text)
	}
}

// running returns the processes on the machine whose command line holds
// marker as an argument (sleep's, say).
func running(marker string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && strings.Contains(string(b), "\x00"+marker+"\x00") && alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// waitGone fails t when a process with one of markers still runs after a
// few seconds, and kills it.
func waitGone(t *testing.T, markers ...string) {
	t.Helper()
	deadline := time.After(3 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	late := false
	for _, m := range markers {
		for pids := running(m); len(pids) > 0; pids = running(m) {
			if !late {
				select {
				case <-tick.C:
				case <-deadline:
					late = true // look once more, then give up
				}
				continue
			}
			t.Errorf("a process with %q is still running: %v", m, pids)
			for _, pid := range pids {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			break
		}
	}
}

// The attack of issue 11, item 10: setsid and a double fork escaped the
// time limit's kill of the process group.
func TestRunShellSetsidCannotEscape(t *testing.T) {
	confinements(t, func(t *testing.T, w *Workspace, reg *Registry) {
		// The children sleep for most of an hour: ending within a minute
		// shows they were not waited for, with room for a loaded machine
		// (CI runs packages in parallel on two cores), where even starting
		// the shell can take longer than a short timeout.
		w.ShellTimeout = 3 * time.Second
		start := time.Now()
		r := wsCall(t, reg, "run_shell", map[string]any{"command": "setsid sleep 3011 & (setsid sleep 3012 &); sh -c 'sleep 3013 &'; (sleep 3014 &); echo started; sleep 3015"})
		if took := time.Since(start); took > time.Minute {
			t.Errorf("run_shell took %v with a 3s limit", took)
		}
		if !r.Bool("timed_out") || !strings.HasPrefix(r.Text, "started\n") {
			t.Errorf("timed out command = %+v", r)
		}
		waitGone(t, "3011", "3012", "3013", "3014", "3015")

		// A command that exits at once leaves nothing running either.
		w.ShellTimeout = 0
		start = time.Now()
		r = wsCall(t, reg, "run_shell", map[string]any{"command": "setsid sleep 3021 & (setsid sleep 3022 &); echo done"})
		if took := time.Since(start); took > time.Minute {
			t.Errorf("run_shell waited %v for detached children", took)
		}
		if r.Text != "done\n[exit status 0]" {
			t.Errorf("text = %q", r.Text)
		}
		waitGone(t, "3021", "3022")
	})
}

// Issue 11, item 10: a 300 MB write succeeded; nothing capped memory,
// CPU time or processes.
func TestRunShellResourceLimits(t *testing.T) {
	confinements(t, func(t *testing.T, w *Workspace, reg *Registry) {
		w.MaxFileSize = 1 << 20
		r := wsCall(t, reg, "run_shell", map[string]any{"command": "head -c 300000000 /dev/zero > big; echo status $?"})
		info, err := os.Stat(filepath.Join(w.Dir, "big"))
		if err != nil || info.Size() > 1<<20 || !strings.Contains(r.Text, "status 153") {
			t.Errorf("a 300 MB write under a 1 MiB cap: %q, file %v", r.Text, info.Size())
		}

		w.MaxMemory = 64 << 20
		r = wsCall(t, reg, "run_shell", map[string]any{"command": `awk 'BEGIN { s = "x"; for (i = 0; i < 27; i++) s = s s; print length(s) }'`})
		if strings.Contains(r.Text, "134217728") || r.Int("exit_code") == 0 {
			t.Errorf("128 MiB allocated under a 64 MiB cap: %q", r.Text)
		}

		// The wall-clock timeout is far above the CPU limit: on a loaded
		// machine (CI runs packages in parallel on two cores) one second
		// of CPU can take many seconds of wall time, and only the CPU
		// limit may end the loop.
		w.MaxCPU, w.ShellTimeout = time.Second, 2*time.Minute
		start := time.Now()
		r = wsCall(t, reg, "run_shell", map[string]any{"command": "while :; do :; done"})
		if took := time.Since(start); r.Bool("timed_out") || took > 100*time.Second || !strings.Contains(r.Text, "CPU time limit exceeded") {
			t.Errorf("a busy loop under 1s of CPU time ran %v: %q", took, r.Text)
		}
	})
}

// Processes are capped: by RLIMIT_NPROC for an ordinary user, and by the
// helper's count of the PID namespace for root too.
func TestRunShellProcessCap(t *testing.T) {
	w, reg, _ := newWorkspace(t)
	w.MaxProcs = 30
	r := wsCall(t, reg, "run_shell", map[string]any{"command": "for i in $(seq 1 100); do sleep 3031 & done; wait; echo all-ran"})
	if strings.Contains(r.Text, "all-ran\n[exit status 0]") {
		t.Errorf("100 processes ran under a cap of 30: %q", r.Text)
	}
	if syscall.Getuid() == 0 && !strings.Contains(r.Text, "more than the 30 allowed") {
		t.Errorf("as root, the helper's count did not end the command: %q", r.Text)
	}
	waitGone(t, "3031")
}

// A limit of -1 means none, and 0 the default.
func TestRunShellNoLimits(t *testing.T) {
	w, _, _ := newWorkspace(t)
	w.MaxCPU, w.MaxMemory, w.MaxFileSize, w.MaxProcs = -1, -1, -1, -1
	r, err := w.Run(context.Background(), "ulimit -f; ulimit -v; ulimit -t")
	if err != nil || !strings.HasPrefix(r.Output, "unlimited\nunlimited\nunlimited\n") {
		t.Errorf("without limits: %q, %v", r.Output, err)
	}
	w.MaxCPU, w.MaxMemory, w.MaxFileSize = 0, 0, 0
	r, err = w.Run(context.Background(), "ulimit -f; ulimit -v; ulimit -t")
	want := strconv.Itoa(DefaultMaxFileSize/512) + "\n" + strconv.Itoa(DefaultMaxMemory/1024) + "\n" + strconv.Itoa(int(DefaultMaxCPU/time.Second)) + "\n"
	if err != nil || r.Output != want {
		t.Errorf("default limits: %q, %v; want %q", r.Output, err, want)
	}
}

// Root can run commands as an unprivileged uid, to which root-owned
// files outside the workspace are out of reach; others cannot ask.
func TestRunShellAsOtherUser(t *testing.T) {
	if os.Getuid() != 0 {
		w, _, _ := newWorkspace(t)
		w.ShellUID = 65534
		if _, err := w.Run(context.Background(), "true"); err == nil || !strings.Contains(err.Error(), "only root") {
			t.Errorf("ShellUID for an ordinary user: %v", err)
		}
		return
	}
	confinements(t, func(t *testing.T, w *Workspace, reg *Registry) {
		w.ShellUID = 65534
		base := filepath.Dir(w.Dir)
		for _, d := range []string{filepath.Dir(base), base} {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chmod(w.Dir, 0o777); err != nil {
			t.Fatal(err)
		}
		r := wsCall(t, reg, "run_shell", map[string]any{"command": "echo pwned >> ../outside.txt; touch made-here && echo made"})
		if !strings.Contains(r.Text, "made\n") || !strings.Contains(r.Text, "ermission denied") {
			t.Errorf("as uid 65534: %q", r.Text)
		}
		if b, _ := os.ReadFile(filepath.Join(base, "outside.txt")); string(b) != "the user's own file" {
			t.Errorf("root's file outside now holds %q", b)
		}
		info, err := os.Stat(filepath.Join(w.Dir, "made-here"))
		if err != nil || info.Sys().(*syscall.Stat_t).Uid != 65534 {
			t.Errorf("the file the command made: %v, %v", info, err)
		}
	})
}

// The attack of issue 35, item 17: a run_shell command reached the
// network (a GET to 127.0.0.1 succeeded). Where namespaces can be made a
// command has no network unless the workspace allows it (ShellNetwork).
func TestRunShellHasNoNetwork(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash (for /dev/tcp) is needed: %v", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	got := make(chan string, 4)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			b := make([]byte, 64)
			n, _ := c.Read(b)
			got <- string(b[:n])
			c.Close()
		}
	}()
	port := l.Addr().(*net.TCPAddr).Port
	cmd := bash + ` -c 'echo reached > /dev/tcp/127.0.0.1/` + strconv.Itoa(port) + `' 2>&1; echo END`
	for _, allow := range []bool{false, true} {
		w, reg, _ := newWorkspace(t)
		w.ShellNetwork = allow
		r := wsCall(t, reg, "run_shell", map[string]any{"command": cmd})
		if !strings.Contains(r.Text, "END") {
			t.Fatalf("the command did not run: %+v", r)
		}
		select {
		case s := <-got:
			if !allow {
				t.Errorf("a command without ShellNetwork reached 127.0.0.1 (%q)", s)
			}
		case <-time.After(2 * time.Second):
			if allow {
				t.Errorf("with ShellNetwork the command did not reach 127.0.0.1: %s", r.Text)
			}
		}
	}
}
