package tools

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// newWorkspace makes a workspace in a temp folder, next to a file outside
// it that no tool may read or change.
func newWorkspace(t *testing.T) (w *Workspace, reg *Registry, outside string) {
	t.Helper()
	base := t.TempDir()
	dir := filepath.Join(base, "ws")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	outside = filepath.Join(base, "outside.txt")
	if err := os.WriteFile(outside, []byte("the user's own file"), 0o644); err != nil {
		t.Fatal(err)
	}
	w = &Workspace{Dir: dir}
	return w, NewRegistry(w.Tools()...), outside
}

func wsCall(t *testing.T, reg *Registry, name string, args map[string]any) Result {
	t.Helper()
	r, err := reg.Call(context.Background(), name, args)
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return r
}

func TestWorkspaceReadWrite(t *testing.T) {
	w, reg, _ := newWorkspace(t)
	r := wsCall(t, reg, "write_file", map[string]any{"path": "src/pkg/main.go", "content": "package main\n"})
	if r.IsError || r.Text != "Wrote 13 bytes to src/pkg/main.go." {
		t.Fatalf("write_file = %+v", r)
	}
	if b, err := os.ReadFile(filepath.Join(w.Dir, "src", "pkg", "main.go")); err != nil || string(b) != "package main\n" {
		t.Errorf("on disk: %q, %v", b, err)
	}
	if r := wsCall(t, reg, "read_file", map[string]any{"path": "src/pkg/main.go"}); r.IsError || r.Text != "package main\n" {
		t.Errorf("read_file = %+v", r)
	}
	// An absolute path inside the workspace is the same file.
	abs := filepath.Join(w.Dir, "src", "pkg", "main.go")
	if r := wsCall(t, reg, "read_file", map[string]any{"path": abs}); r.IsError || r.Text != "package main\n" {
		t.Errorf("read_file %s = %+v", abs, r)
	}
	// ".." that stays inside is fine.
	if r := wsCall(t, reg, "read_file", map[string]any{"path": "src/../src/pkg/main.go"}); r.IsError {
		t.Errorf("read_file src/../src/pkg/main.go = %+v", r)
	}
	r = wsCall(t, reg, "read_file", map[string]any{"path": "."})
	if r.IsError || !strings.Contains(r.Text, "1 entries:\nsrc/") {
		t.Errorf("read_file . = %+v", r)
	}
	if r := wsCall(t, reg, "read_file", map[string]any{"path": "nope.txt"}); !r.IsError || !strings.Contains(r.Text, "no such file") {
		t.Errorf("read_file nope.txt = %+v", r)
	}
	if r := wsCall(t, reg, "write_file", map[string]any{"path": "x.txt"}); !r.IsError {
		t.Errorf("write_file without content = %+v", r)
	}
	// A relative symbolic link that stays inside is followed.
	if err := os.Symlink("src/pkg/main.go", filepath.Join(w.Dir, "main-link.go")); err != nil {
		t.Fatal(err)
	}
	if r := wsCall(t, reg, "read_file", map[string]any{"path": "main-link.go"}); r.IsError || r.Text != "package main\n" {
		t.Errorf("read_file through an inside link = %+v", r)
	}
}

func TestWorkspaceNoEscape(t *testing.T) {
	w, reg, outside := newWorkspace(t)
	base := filepath.Dir(w.Dir)
	links := map[string]string{
		"abs-link.txt": outside,                            // absolute, to a file outside
		"rel-link.txt": "../outside.txt",                   // relative, to a file outside
		"dir-link":     base,                               // to the folder above
		"etc":          "/etc",                             // to a system folder
		"new-link.txt": filepath.Join(base, "created.txt"), // to a file not there yet
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(w.Dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	reads := []string{"../outside.txt", outside, "/etc/passwd", "abs-link.txt", "rel-link.txt", "dir-link/outside.txt", "etc/passwd", "dir-link", "src/../../outside.txt"}
	for _, p := range reads {
		r := wsCall(t, reg, "read_file", map[string]any{"path": p})
		if !r.IsError || strings.Contains(r.Text, "the user's own file") || strings.Contains(r.Text, "root:") {
			t.Errorf("read_file %s = %+v, want a refusal", p, r)
		}
	}
	for _, p := range reads {
		if _, err := w.Stat(p); err == nil {
			t.Errorf("Stat(%s) found a file outside the workspace", p)
		}
	}
	if info, err := w.Stat("."); err != nil || !info.IsDir() {
		t.Errorf("Stat(.) = %v, %v; want the workspace folder", info, err)
	}
	writes := []string{"../outside.txt", outside, "abs-link.txt", "rel-link.txt", "dir-link/outside.txt", "dir-link/new/x.txt", "new-link.txt", "../created.txt", "/tmp/created-by-agent.txt"}
	for _, p := range writes {
		r := wsCall(t, reg, "write_file", map[string]any{"path": p, "content": "pwned"})
		if !r.IsError || !strings.Contains(r.Text, "outside the workspace") {
			t.Errorf("write_file %s = %+v, want a refusal saying it is outside", p, r)
		}
	}
	if b, _ := os.ReadFile(outside); string(b) != "the user's own file" {
		t.Errorf("the file outside now holds %q", b)
	}
	for _, p := range []string{filepath.Join(base, "created.txt"), filepath.Join(base, "new"), "/tmp/created-by-agent.txt"} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was created outside the workspace", p)
			os.RemoveAll(p)
		}
	}
	if _, err := w.ReadFile("../outside.txt"); err == nil {
		t.Error("Workspace.ReadFile ../outside.txt: no error")
	}
	if err := w.WriteFile("rel-link.txt", []byte("x")); err == nil {
		t.Error("Workspace.WriteFile through a link outside: no error")
	}
}

func TestWorkspaceCaps(t *testing.T) {
	w, reg, _ := newWorkspace(t)
	w.MaxRead, w.MaxWrite = 100, 50
	if err := w.WriteFile("big.txt", []byte(strings.Repeat("0123456789", 30))); err != nil {
		t.Fatal(err)
	}
	r := wsCall(t, reg, "read_file", map[string]any{"path": "big.txt"})
	if r.IsError || !strings.HasPrefix(r.Text, strings.Repeat("0123456789", 10)+"\n[file truncated: 100 of 300 bytes shown]") {
		t.Errorf("read_file big.txt = %q", r.Text)
	}
	r = wsCall(t, reg, "write_file", map[string]any{"path": "big2.txt", "content": strings.Repeat("x", 51)})
	if !r.IsError || !strings.Contains(r.Text, "51 bytes is more than the 50 allowed") {
		t.Errorf("write_file over the cap = %+v", r)
	}
	if _, err := os.Stat(filepath.Join(w.Dir, "big2.txt")); err == nil {
		t.Error("a refused write left a file")
	}
	w.WriteFile("bin.dat", []byte{0x7f, 'E', 'L', 'F', 0, 1, 2})
	if r := wsCall(t, reg, "read_file", map[string]any{"path": "bin.dat"}); r.IsError || r.Text != "bin.dat is a binary file of 7 bytes." {
		t.Errorf("read_file bin.dat = %q", r.Text)
	}
}

func TestRunShell(t *testing.T) {
	w, reg, _ := newWorkspace(t)
	t.Setenv("GRUE_TEST_API_KEY", "sk-do-not-leak")
	t.Setenv("GRUE_TEST_AUTH_TOKEN", "tok-do-not-leak")
	t.Setenv("GRUE_TEST_PLAIN", "visible")
	w.Env = []string{"EXTRA=given"}
	r := wsCall(t, reg, "run_shell", map[string]any{"command": "echo out; echo err >&2; pwd; env; exit 3"})
	if r.IsError {
		t.Fatalf("run_shell = %+v", r)
	}
	real, _ := filepath.EvalSymlinks(w.Dir)
	if !strings.HasPrefix(r.Text, "out\nerr\n"+real+"\n") || !strings.HasSuffix(r.Text, "\n[exit status 3]") || r.Int("exit_code") != 3 {
		t.Errorf("run_shell text:\n%s", r.Text)
	}
	if strings.Contains(r.Text, "do-not-leak") || !strings.Contains(r.Text, "GRUE_TEST_PLAIN=visible") || !strings.Contains(r.Text, "EXTRA=given") {
		t.Errorf("environment: secrets shown or plain variables missing:\n%s", r.Text)
	}
	if r := wsCall(t, reg, "run_shell", map[string]any{"command": "true"}); r.Text != "[exit status 0]" {
		t.Errorf("true = %q", r.Text)
	}
	if r := wsCall(t, reg, "run_shell", map[string]any{"command": " "}); !r.IsError {
		t.Errorf("empty command = %+v", r)
	}
	if r := wsCall(t, reg, "run_shell", map[string]any{"command": "kill -TERM $$"}); !strings.Contains(r.Text, "[killed by signal: terminated]") {
		t.Errorf("a command killed by a signal = %q", r.Text)
	}
}

func TestRunShellOutputCap(t *testing.T) {
	w, reg, _ := newWorkspace(t)
	w.MaxOutput = 100
	r := wsCall(t, reg, "run_shell", map[string]any{"command": "echo BEGIN; seq 1 10000; echo END"})
	if !r.Bool("truncated") || !strings.HasPrefix(r.Text, "BEGIN\n1\n2\n") || !strings.HasSuffix(r.Text, "10000\nEND\n[exit status 0]") {
		t.Errorf("capped output:\n%s", r.Text)
	}
	total := len("BEGIN\nEND\n")
	for i := 1; i <= 10000; i++ {
		total += len(strconv.Itoa(i)) + 1
	}
	if want := "[output truncated: " + strconv.Itoa(total-100) + " bytes]"; !strings.Contains(r.Text, want) {
		t.Errorf("capped output lacks %q:\n%s", want, r.Text)
	}
	// Multi-byte runes are not cut in two.
	r = wsCall(t, reg, "run_shell", map[string]any{"command": "for i in $(seq 1 200); do printf 'é'; done"})
	if !strings.Contains(r.Text, "[output truncated") || strings.ContainsRune(r.Text, '\uFFFD') || !strings.HasPrefix(r.Text, "éé") {
		t.Errorf("capped multi-byte output: %q", r.Text)
	}
}

// alive reports whether pid is a process that has not exited (a zombie
// waiting for a parent to reap it has exited).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || (s[i+2] != 'Z' && s[i+2] != 'X')
}

func waitDead(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Errorf("process %d is still running", pid)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func readPID(t *testing.T, w *Workspace, name string) int {
	t.Helper()
	b, err := w.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("%s: %q", name, b)
	}
	return pid
}

// At the time limit the whole process group dies: the shell, its
// foreground child and a background sleeper that holds the output open.
func TestRunShellTimeoutKillsGroup(t *testing.T) {
	w, reg, _ := newWorkspace(t)
	w.ShellTimeout = 300 * time.Millisecond
	start := time.Now()
	r := wsCall(t, reg, "run_shell", map[string]any{"command": "echo started; sleep 300 & echo $! > bg.pid; echo $$ > sh.pid; sleep 300"})
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("run_shell took %v with a 300ms limit", took)
	}
	if !r.Bool("timed_out") || !strings.HasPrefix(r.Text, "started\n") || !strings.Contains(r.Text, "[killed: the command ran past its time limit of 300ms]") {
		t.Errorf("timed out command = %+v", r)
	}
	waitDead(t, readPID(t, w, "bg.pid"))
	waitDead(t, readPID(t, w, "sh.pid"))
}

// A command that exits leaving a child behind returns at once, and the
// child does not outlive it.
func TestRunShellReapsLeftovers(t *testing.T) {
	w, reg, _ := newWorkspace(t)
	start := time.Now()
	r := wsCall(t, reg, "run_shell", map[string]any{"command": "sleep 300 & echo $! > bg.pid; echo done"})
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("run_shell waited %v for a background child", took)
	}
	if r.Text != "done\n[exit status 0]" {
		t.Errorf("text = %q", r.Text)
	}
	waitDead(t, readPID(t, w, "bg.pid"))
}

func TestRunShellCancelled(t *testing.T) {
	w, _, _ := newWorkspace(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := w.Run(ctx, "sleep 300"); err == nil {
		t.Error("a cancelled command: no error")
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("cancelling took %v", took)
	}
	bad := &Workspace{Dir: filepath.Join(w.Dir, "missing")}
	if _, err := bad.Run(context.Background(), "true"); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("a workspace that is not there: err = %v", err)
	}
}

func TestSafeEnv(t *testing.T) {
	got := SafeEnv([]string{"PATH=/bin", "OPENAI_API_KEY=a", "HF_TOKEN=b", "aws_secret_access_key=c", "DB_PASSWORD=d", "HOME=/h", "GH_CREDENTIALS=e", "X"})
	if strings.Join(got, " ") != "PATH=/bin HOME=/h X" {
		t.Errorf("SafeEnv = %q", got)
	}
}
