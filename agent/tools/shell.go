package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/tools/internal/sandbox"
)

// RunShellTool is run_shell: one `sh -c` command in the workspace.
type RunShellTool struct{ W *Workspace }

// Spec describes run_shell.
func (t *RunShellTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name:        "run_shell",
		Description: "Run a shell command (sh -c) in the workspace and get its combined output and exit status. Commands have a time limit.",
		Parameters: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"command": map[string]any{"type": "string", "description": `e.g. "go test ./..." or "ls -la"`},
			},
			"required": []any{"command"},
		},
	}
}

// Call runs args["command"]. The text is the output (stdout and stderr
// together, the middle cut past MaxOutput) and a last line with the exit
// status, or saying the command was killed at the time limit; the
// structured content has exit_code, timed_out and truncated. A command
// that fails is not a tool error: its status is the answer. Only a
// cancelled ctx or a workspace that cannot run commands is a Go error.
func (t *RunShellTool) Call(ctx context.Context, args map[string]any) (Result, error) {
	command, _ := stringArg(args, "command")
	if strings.TrimSpace(command) == "" {
		return Errorf(`run_shell needs a command: {"command": "ls"}`), nil
	}
	r, err := t.W.Run(ctx, command)
	if err != nil {
		return Result{}, err
	}
	return Result{Text: r.Text(), Structured: map[string]any{
		"exit_code": r.ExitCode, "timed_out": r.TimedOut, "truncated": r.Truncated,
	}}, nil
}

// ShellResult is what one command did.
type ShellResult struct {
	Command string `json:"command"`
	// Output is stdout and stderr as they interleaved, capped.
	Output string `json:"output"`
	// ExitCode is the command's exit status; -1 when a signal ended it.
	ExitCode  int    `json:"exit_code"`
	Signal    string `json:"signal,omitempty"`
	TimedOut  bool   `json:"timed_out,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
	// Killed says why the sandbox ended the command early, other than
	// the time limit (too many processes).
	Killed   string        `json:"killed,omitempty"`
	Duration time.Duration `json:"duration"`
	// Limit is the time limit the command ran under.
	Limit time.Duration `json:"limit"`
}

// Text renders r for the model: the output, then one status line.
func (r ShellResult) Text() string {
	var b strings.Builder
	b.WriteString(r.Output)
	if r.Output != "" && !strings.HasSuffix(r.Output, "\n") {
		b.WriteByte('\n')
	}
	switch {
	case r.TimedOut:
		fmt.Fprintf(&b, "[killed: the command ran past its time limit of %v]", r.Limit)
	case r.Killed != "":
		fmt.Fprintf(&b, "[killed: %s]", r.Killed)
	case r.Signal != "":
		fmt.Fprintf(&b, "[killed by signal: %s]", r.Signal)
	default:
		fmt.Fprintf(&b, "[exit status %d]", r.ExitCode)
	}
	return b.String()
}

// Run runs command with `sh -c` in the workspace, confined as the
// Workspace's doc says: with stdin empty, SafeEnv's environment plus
// w.Env, the resource limits and w.ShellTimeout. At the time limit every
// process the command started is killed, and so is whatever it left
// running when it exits. The error is for a command that could not
// start or a cancelled ctx; a failing command is a ShellResult.
func (w *Workspace) Run(ctx context.Context, command string) (ShellResult, error) {
	limit := w.ShellTimeout
	if limit <= 0 {
		limit = DefaultShellTimeout
	}
	res := ShellResult{Command: command, Limit: limit}
	if w.Dir == "" {
		return res, errors.New("workspace: no Dir")
	}
	if info, err := os.Stat(w.Dir); err != nil || !info.IsDir() {
		return res, fmt.Errorf("workspace: %s is not a folder", w.Dir)
	}
	if err := sandbox.MakeUndumpable(); err != nil {
		return res, fmt.Errorf("run_shell: %w", err)
	}
	cfg := w.sandboxConfig()
	r, err := w.runSandboxed(ctx, res, cfg)
	if errors.Is(err, errNoNamespaces) {
		// User namespaces are not allowed here: the helper confines
		// the command without them.
		cfg.NS = false
		r, err = w.runSandboxed(ctx, res, cfg)
	}
	return r, err
}

// errNoNamespaces says the helper could not be started in new
// namespaces.
var errNoNamespaces = errors.New("run_shell: no user namespaces")

// runSandboxed runs res.Command under the sandbox helper with cfg.
func (w *Workspace) runSandboxed(ctx context.Context, res ShellResult, cfg sandbox.Config) (ShellResult, error) {
	out := &headTail{max: orDefault(w.MaxOutput, DefaultMaxOutput)}
	pr, pw, err := os.Pipe()
	if err != nil {
		return res, fmt.Errorf("run_shell: %w", err)
	}
	defer pr.Close()
	sr, sw, err := os.Pipe()
	if err != nil {
		pw.Close()
		return res, fmt.Errorf("run_shell: %w", err)
	}
	defer sr.Close()
	env := append(append(SafeEnv(os.Environ()), "PWD="+w.Dir), w.Env...)
	cmd, err := sandbox.Command(w.Dir, res.Command, cfg, env, pw, sw)
	if err == nil {
		err = cmd.Start()
	}
	pw.Close() // the command's processes hold the only write ends now
	sw.Close()
	if err != nil {
		if cfg.NS {
			return res, fmt.Errorf("%w: %v", errNoNamespaces, err)
		}
		return res, fmt.Errorf("run_shell: %w", err)
	}
	start := time.Now()
	copied := make(chan struct{})
	go func() {
		io.Copy(out, pr)
		close(copied)
	}()
	statusc := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(sr, 4096))
		statusc <- string(b)
	}()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()

	timer := time.NewTimer(res.Limit)
	defer timer.Stop()
	select {
	case <-waited:
	case <-timer.C:
		res.TimedOut = true
		stopHelper(cmd.Process.Pid, cfg.NS, waited)
	case <-ctx.Done():
		stopHelper(cmd.Process.Pid, cfg.NS, waited)
	}
	// Whatever is left in the helper's group goes too; that also closes
	// the pipes' last write ends.
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	select {
	case <-copied:
	case <-time.After(2 * time.Second):
		// A process that escaped still holds the pipe open.
	}
	pr.Close()
	<-copied
	res.Duration = time.Since(start)
	res.Output, res.Truncated = out.String()
	if err := ctx.Err(); err != nil && !res.TimedOut {
		return res, fmt.Errorf("run_shell: %w", err)
	}
	var status string
	select {
	case status = <-statusc:
	case <-time.After(time.Second):
	}
	return res.withStatus(status, cmd.ProcessState, cfg)
}

// stopHelper ends a command at its time limit: in a PID namespace,
// killing the helper kills every process in it; outside, the helper is
// asked to kill its descendants first, then killed with its group.
func stopHelper(pid int, ns bool, waited <-chan error) {
	if !ns {
		syscall.Kill(pid, syscall.SIGUSR1)
		select {
		case <-waited:
			syscall.Kill(-pid, syscall.SIGKILL)
			return
		case <-time.After(2 * time.Second):
		}
	}
	syscall.Kill(pid, syscall.SIGKILL)
	syscall.Kill(-pid, syscall.SIGKILL)
	<-waited
}

// withStatus fills in how the command ended from the helper's report
// (see sandboxMain) and, without one, the helper's own end.
func (res ShellResult) withStatus(status string, ps *os.ProcessState, cfg sandbox.Config) (ShellResult, error) {
	line, _, _ := strings.Cut(status, "\n")
	kind, detail, _ := strings.Cut(line, " ")
	n, _ := strconv.Atoi(detail)
	res.ExitCode = -1
	switch {
	case res.TimedOut:
	case kind == sandbox.StatusNSFail && cfg.NS:
		return res, fmt.Errorf("%w: %s", errNoNamespaces, detail)
	case kind == sandbox.StatusNSFail, kind == sandbox.StatusFail:
		return res, fmt.Errorf("run_shell: the sandbox could not start the command: %s", detail)
	case kind == sandbox.StatusExit:
		res.ExitCode = n
	case kind == sandbox.StatusSignal:
		res.Signal = syscall.Signal(n).String()
	case kind == sandbox.StatusProcs:
		res.Killed = fmt.Sprintf("it ran %d processes, more than the %d allowed", n, cfg.Procs)
	default:
		// The helper itself was killed (by the command, outside a PID
		// namespace).
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.Signal = ws.Signal().String()
		} else {
			res.Killed = "the sandbox ended without a report"
		}
	}
	return res, nil
}

// SafeEnv returns env without the variables that may hold secrets, so
// that OPENAI_API_KEY or HF_TOKEN never reach a command an agent wrote.
// A variable is dropped by its name or by its value:
//
//   - a name (in any case) that holds SECRET, TOKEN, PASSWORD, PASSWD,
//     CREDENTIAL, APIKEY, COOKIE or SESSION anywhere, or ends in KEY
//     (OPENAI_API_KEY, AWS_ACCESS_KEY), or has one of KEY, PAT, PASS,
//     PW, AUTH, CREDS, SIG, BEARER or PRIVATE as a word between
//     underscores (GH_PAT, DB_PASS, SSH_AUTH_SOCK, SSL_KEY_FILE);
//   - a value that is a URL with a user name or password in it
//     (postgres://user:pw@host, https://user:pw@proxy), or whose query
//     carries a credential, as [llm.RedactURL] masks it in logs
//     (OPENAI_BASE_URL=https://host/v1?api_key=...), or that starts
//     the way well-known keys do (sk-, ghp_, github_pat_, hf_, xoxb-,
//     glpat-, AKIA, AIza, ...).
//
// An entry without "=" is kept as it is.
func SafeEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, value, ok := strings.Cut(kv, "=")
		if ok && (secretName(name) || secretValue(value)) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// secretName reports whether a variable's name says it holds a secret.
func secretName(name string) bool {
	up := strings.ToUpper(name)
	for _, s := range []string{"SECRET", "TOKEN", "PASSWORD", "PASSWD", "CREDENTIAL", "APIKEY", "COOKIE", "SESSION"} {
		if strings.Contains(up, s) {
			return true
		}
	}
	if strings.HasSuffix(up, "KEY") {
		return true
	}
	for _, word := range strings.FieldsFunc(up, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		switch word {
		case "KEY", "KEYS", "PAT", "PASS", "PW", "AUTH", "CREDS", "SIG", "SIGNATURE", "BEARER", "PRIVATE":
			return true
		}
	}
	return false
}

// keyPrefixes start the values of well-known API keys and tokens.
var keyPrefixes = [...]string{
	"sk-", "sk_live_", "sk_test_", "rk_live_", "pk_live_", // OpenAI, Anthropic, Stripe
	"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", // GitHub
	"glpat-", "hf_", "xoxb-", "xoxp-", "xoxa-", "xapp-", // GitLab, Hugging Face, Slack
	"AKIA", "ASIA", "AIza", "ya29.", "npm_", "pypi-", // AWS, Google, npm, PyPI
}

// secretValue reports whether a variable's value looks like a secret: a
// URL with credentials or a well-known key.
func secretValue(v string) bool {
	for _, p := range keyPrefixes {
		if strings.HasPrefix(v, p) && len(v) >= len(p)+12 {
			return true
		}
	}
	// A URL whose query carries a credential (?api_key=, &token=, &sig=)
	// or whose user name is one: what llm.RedactURL masks in logs.
	if llm.RedactURL(v) != v {
		return true
	}
	// scheme://user[:password]@host..., also inside a list of URLs.
	for rest := v; ; {
		i := strings.Index(rest, "://")
		if i < 0 {
			return false
		}
		rest = rest[i+3:]
		end := strings.IndexAny(rest, "/?#, ;")
		if end < 0 {
			end = len(rest)
		}
		if strings.Contains(rest[:end], "@") {
			return true
		}
	}
}

// headTail keeps the first and last halves of max bytes of what is
// written to it, and counts the rest.
type headTail struct {
	mu    sync.Mutex
	max   int
	head  []byte
	tail  []byte
	total int
}

func (h *headTail) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.total += len(p)
	headMax := h.max / 2
	q := p
	if n := headMax - len(h.head); n > 0 {
		if n > len(q) {
			n = len(q)
		}
		h.head = append(h.head, q[:n]...)
		q = q[n:]
	}
	h.tail = append(h.tail, q...)
	if tailMax := h.max - headMax; len(h.tail) > 2*tailMax {
		h.tail = append(h.tail[:0], h.tail[len(h.tail)-tailMax:]...)
	}
	return len(p), nil
}

// String returns what was kept and whether anything was cut: the head,
// a note "[output truncated: N bytes]" and the tail, both cut at UTF-8
// boundaries.
func (h *headTail) String() (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	tailMax := h.max - h.max/2
	tail := h.tail
	if len(tail) > tailMax {
		tail = tail[len(tail)-tailMax:]
	}
	if len(h.head)+len(tail) == h.total {
		return string(h.head) + string(tail), false
	}
	head := h.head
	// Drop a rune the head cut in two, and the bytes of one the tail did.
	for i := len(head) - 1; i >= 0 && i >= len(head)-utf8.UTFMax; i-- {
		if utf8Start(head[i]) {
			if !utf8.FullRune(head[i:]) {
				head = head[:i]
			}
			break
		}
	}
	for len(tail) > 0 && !utf8Start(tail[0]) {
		tail = tail[1:]
	}
	dropped := h.total - len(head) - len(tail)
	return fmt.Sprintf("%s\n[output truncated: %d bytes]\n%s", head, dropped, tail), true
}
