package tools

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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

// At the time limit every process dies: the shell, its foreground child
// and a background sleeper that holds the output open.
func TestRunShellTimeoutKillsGroup(t *testing.T) {
	confinements(t, func(t *testing.T, w *Workspace, reg *Registry) {
		w.ShellTimeout = 2 * time.Second
		start := time.Now()
		r := wsCall(t, reg, "run_shell", map[string]any{"command": "echo started; sleep 3041 & sleep 3042"})
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("run_shell took %v with a 2s limit", took)
		}
		if !r.Bool("timed_out") || !strings.HasPrefix(r.Text, "started\n") || !strings.Contains(r.Text, "[killed: the command ran past its time limit of 2s]") {
			t.Errorf("timed out command = %+v", r)
		}
		waitGone(t, "3041", "3042")
	})
}

// A command that exits leaving a child behind returns at once, and the
// child does not outlive it.
func TestRunShellReapsLeftovers(t *testing.T) {
	confinements(t, func(t *testing.T, w *Workspace, reg *Registry) {
		start := time.Now()
		r := wsCall(t, reg, "run_shell", map[string]any{"command": "sleep 3051 & echo done"})
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("run_shell waited %v for a background child", took)
		}
		if r.Text != "done\n[exit status 0]" {
			t.Errorf("text = %q", r.Text)
		}
		waitGone(t, "3051")
	})
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

// SafeEnv drops secrets by the patterns of their names and values, not
// by a list: GH_PAT and a database URL with a password got through the
// old list.
func TestSafeEnv(t *testing.T) {
	secrets := []string{
		"OPENAI_API_KEY=a", "HF_TOKEN=b", "aws_secret_access_key=c", "DB_PASSWORD=d", "GH_CREDENTIALS=e",
		"GH_PAT=f", "GITHUB_TOKEN=g", "ANTHROPIC_API_KEY=h", "MY_APIKEY=i", "DB_PASS=j", "SSH_AUTH_SOCK=/tmp/agent",
		"GOOGLE_APPLICATION_CREDENTIALS=/k.json", "SSL_KEY_FILE=/l.pem", "AWS_SESSION_TOKEN=m", "ROOT_PW=n",
		"DATABASE_URL=postgres://user:hunter2@db:5432/x", "HTTPS_PROXY=http://me:pw@proxy:3128",
		"MIRRORS=https://a.example, https://u:p@b.example/", "SOME_VAR=sk-proj-0123456789abcdef",
		"OTHER=ghp_0123456789abcdefghij", "X_HF=hf_0123456789abcdefghij", "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/bus",
	}
	plain := []string{"PATH=/bin", "HOME=/h", "PWD=/w", "OLDPWD=/v", "KEYBOARD=us", "GOFLAGS=-mod=mod", "GOPRIVATE=example.com",
		"GOPROXY=https://proxy.golang.org", "URL=https://example.com/a@b", "EMAIL=me@example.com", "SKIP=sk-1", "X"}
	got := SafeEnv(append(append([]string{}, secrets...), plain...))
	if strings.Join(got, " ") != strings.Join(plain, " ") {
		t.Errorf("SafeEnv kept %q\nwant %q", got, plain)
	}
}

// The attack of issue 11, item 11: write_file on a hard link to a file
// outside overwrote that file; reading through one shows it.
func TestWorkspaceRefusesHardLinks(t *testing.T) {
	w, reg, outside := newWorkspace(t)
	if err := os.Link(outside, filepath.Join(w.Dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	r := wsCall(t, reg, "write_file", map[string]any{"path": "link.txt", "content": "pwned"})
	if !r.IsError || !strings.Contains(r.Text, "more than one hard link") {
		t.Errorf("write_file on a hard link = %+v", r)
	}
	if r := wsCall(t, reg, "read_file", map[string]any{"path": "link.txt"}); !r.IsError || strings.Contains(r.Text, "the user's own file") {
		t.Errorf("read_file on a hard link = %+v", r)
	}
	if err := w.WriteFile("link.txt", []byte("pwned")); err == nil {
		t.Error("Workspace.WriteFile on a hard link: no error")
	}
	if _, err := w.ReadFile("link.txt"); err == nil || !strings.Contains(err.Error(), "hard link") {
		t.Errorf("Workspace.ReadFile on a hard link: %v", err)
	}
	if _, err := w.Stat("link.txt"); err == nil {
		t.Error("Workspace.Stat on a hard link: no error")
	}
	if b, _ := os.ReadFile(outside); string(b) != "the user's own file" {
		t.Errorf("the file outside now holds %q", b)
	}
	// An ordinary file is still replaced, keeping its mode.
	if err := w.WriteFile("run.sh", []byte("#!/bin/sh\n")); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(w.Dir, "run.sh"), 0o755)
	if r := wsCall(t, reg, "write_file", map[string]any{"path": "run.sh", "content": "#!/bin/sh\necho hi\n"}); r.IsError {
		t.Errorf("write_file run.sh = %+v", r)
	}
	if info, err := os.Stat(filepath.Join(w.Dir, "run.sh")); err != nil || info.Mode().Perm() != 0o755 || info.Size() != 18 {
		t.Errorf("run.sh after write_file: %v, %v", info, err)
	}
}

// The attack of issue 11, item 11: read_file on a FIFO waited for a
// writer forever, past any deadline (and so did the FileContains check).
func TestWorkspaceRefusesFIFOs(t *testing.T) {
	w, reg, _ := newWorkspace(t)
	if err := syscall.Mkfifo(filepath.Join(w.Dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if r := wsCall(t, reg, "read_file", map[string]any{"path": "fifo"}); !r.IsError || !strings.Contains(r.Text, "not a regular file") {
			t.Errorf("read_file fifo = %+v", r)
		}
		if r := wsCall(t, reg, "write_file", map[string]any{"path": "fifo", "content": "x"}); !r.IsError || !strings.Contains(r.Text, "not a regular file") {
			t.Errorf("write_file fifo = %+v", r)
		}
		if _, err := w.ReadFile("fifo"); err == nil {
			t.Error("Workspace.ReadFile fifo: no error")
		}
		if err := w.WriteFile("fifo", []byte("x")); err == nil {
			t.Error("Workspace.WriteFile fifo: no error")
		}
		if _, err := w.Stat("fifo"); err == nil {
			t.Error("Workspace.Stat fifo: no error")
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the file tools blocked on a FIFO")
	}
}

// Issue 11, item 10: nothing capped the workspace's size. write_file
// holds all its files under MaxWorkspace.
func TestWorkspaceSizeCap(t *testing.T) {
	w, reg, _ := newWorkspace(t)
	w.MaxWorkspace = 1000
	if r := wsCall(t, reg, "write_file", map[string]any{"path": "a.txt", "content": strings.Repeat("a", 600)}); r.IsError {
		t.Fatalf("write_file a.txt = %+v", r)
	}
	r := wsCall(t, reg, "write_file", map[string]any{"path": "sub/b.txt", "content": strings.Repeat("b", 600)})
	if !r.IsError || !strings.Contains(r.Text, "over the 1000 allowed") {
		t.Errorf("write_file over the workspace's cap = %+v", r)
	}
	// Replacing a file counts its new size, not both.
	if r := wsCall(t, reg, "write_file", map[string]any{"path": "a.txt", "content": strings.Repeat("a", 900)}); r.IsError {
		t.Errorf("write_file replacing a.txt = %+v", r)
	}
	w.MaxWorkspace = -1
	if r := wsCall(t, reg, "write_file", map[string]any{"path": "sub/b.txt", "content": strings.Repeat("b", 600)}); r.IsError {
		t.Errorf("write_file without a cap = %+v", r)
	}
}

// The attack of issue 35, item 16: OPENAI_BASE_URL with the key in its
// query string reached run_shell's environment. A URL whose query (or user
// name) carries a credential, as llm.RedactURL masks it in logs, is
// dropped; a URL whose query holds none is kept.
func TestSafeEnvURLQueryCredentials(t *testing.T) {
	secrets := []string{
		"OPENAI_BASE_URL=https://proxy.example/v1?api_key=SECRET123",
		"MODEL_URL=https://host.example/v1?model=x&token=SECRET123",
		"AZURE_BLOB=https://acct.blob.example/c?sv=2020&sig=SECRET123",
		"BASE=https://ghp_0123456789abcdefghijkl@git.example/repo",
	}
	plain := []string{"OPENAI_BASE_URL=https://proxy.example/v1", "DOCS=https://example.com/search?q=grue&page=2"}
	got := SafeEnv(append(append([]string{}, secrets...), plain...))
	if strings.Join(got, " ") != strings.Join(plain, " ") {
		t.Errorf("SafeEnv kept %q\nwant %q", got, plain)
	}
	for _, kv := range got {
		if strings.Contains(kv, "SECRET123") {
			t.Errorf("a credential reached the shell: %s", kv)
		}
	}
}
