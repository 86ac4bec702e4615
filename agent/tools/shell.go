package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/grue-lab/grue/agent/llm"
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
		return errorf(`run_shell needs a command: {"command": "ls"}`), nil
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
	ExitCode  int           `json:"exit_code"`
	Signal    string        `json:"signal,omitempty"`
	TimedOut  bool          `json:"timed_out,omitempty"`
	Truncated bool          `json:"truncated,omitempty"`
	Duration  time.Duration `json:"duration"`
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
	case r.Signal != "":
		fmt.Fprintf(&b, "[killed by signal: %s]", r.Signal)
	default:
		fmt.Fprintf(&b, "[exit status %d]", r.ExitCode)
	}
	return b.String()
}

// Run runs command with `sh -c` in the workspace: in its own process
// group, with stdin empty, SafeEnv's environment plus w.Env, and
// w.ShellTimeout. At the time limit the whole group is killed (a
// background child too), and so is whatever the command left running
// when it exits. The error is for a command that could not start or a
// cancelled ctx; a failing command is a ShellResult.
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
	out := &headTail{max: orDefault(w.MaxOutput, DefaultMaxOutput)}
	pr, pw, err := os.Pipe()
	if err != nil {
		return res, fmt.Errorf("run_shell: %w", err)
	}
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Dir = w.Dir
	cmd.Env = append(append(SafeEnv(os.Environ()), "PWD="+w.Dir), w.Env...)
	cmd.Stdout, cmd.Stderr = pw, pw
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return res, fmt.Errorf("run_shell: %w", err)
	}
	pw.Close() // the command's processes hold the only write ends now
	pgid := cmd.Process.Pid
	copied := make(chan struct{})
	go func() {
		io.Copy(out, pr)
		close(copied)
	}()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()

	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case <-waited:
	case <-timer.C:
		res.TimedOut = true
		syscall.Kill(-pgid, syscall.SIGKILL)
		<-waited
	case <-ctx.Done():
		syscall.Kill(-pgid, syscall.SIGKILL)
		<-waited
	}
	// Whatever the command left behind in its group goes too; that also
	// closes the pipe's last write ends.
	syscall.Kill(-pgid, syscall.SIGKILL)
	select {
	case <-copied:
	case <-time.After(2 * time.Second):
		// A process that left the group still holds the pipe open.
	}
	pr.Close()
	<-copied
	res.Duration = time.Since(start)
	res.Output, res.Truncated = out.String()
	if err := ctx.Err(); err != nil && !res.TimedOut {
		return res, fmt.Errorf("run_shell: %w", err)
	}
	res.ExitCode = cmd.ProcessState.ExitCode()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() && !res.TimedOut {
		res.Signal = ws.Signal().String()
	}
	return res, nil
}

// SafeEnv returns env without the variables that may hold secrets: those
// whose names contain KEY, TOKEN, SECRET, PASSWORD, PASSWD or CREDENTIAL
// (in any case), so that OPENAI_API_KEY or HF_TOKEN never reach a
// command an agent wrote.
func SafeEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		up := strings.ToUpper(name)
		secret := false
		for _, s := range []string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL"} {
			if strings.Contains(up, s) {
				secret = true
				break
			}
		}
		if !secret {
			out = append(out, kv)
		}
	}
	return out
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
