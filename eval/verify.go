package eval

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"

	"slices"
	"strings"
	"time"

	"github.com/grue-lab/grue/agent/tools"
	"github.com/grue-lab/grue/internal/jsonms"
	"github.com/grue-lab/grue/internal/lazyregexp"
)

// Verifying: a coding task's hidden check, run on its workspace once the
// agent has finished. Verifiers compose (AllOf), and each says in a
// sentence why it passed or failed.

// Verifier checks a task's workspace after the agent has finished. It
// must not panic: whatever goes wrong (a missing file, a command that does
// not build) is a failing Verdict with its reason. w is the workspace the
// agent worked in, with the time limit for verification commands.
type Verifier interface {
	Verify(ctx context.Context, w *tools.Workspace) Verdict
}

// VerifierFunc makes a function a Verifier: a script's own check.
type VerifierFunc func(ctx context.Context, w *tools.Workspace) Verdict

// Verify calls f.
func (f VerifierFunc) Verify(ctx context.Context, w *tools.Workspace) Verdict { return f(ctx, w) }

// Verdict is a verifier's answer: whether the check passed, and a reason
// a user can read ("hello.go does not exist", "`go test ./...` failed
// (exit status 1): ..."). Output is the tail of a command's output; Checks
// are the verdicts AllOf combined.
type Verdict struct {
	// Check names what was checked: "file_exists hello.go".
	Check  string    `json:"check"`
	Pass   bool      `json:"pass"`
	Reason string    `json:"reason"`
	Output string    `json:"output,omitempty"`
	Checks []Verdict `json:"checks,omitempty"`
	// Duration is how long the check took: duration_ms in JSON, in
	// milliseconds (nanoseconds under duration in files written before,
	// which still read).
	Duration time.Duration `json:"-"`
}

// MarshalJSON writes the verdict with its duration in milliseconds.
func (v Verdict) MarshalJSON() ([]byte, error) {
	type plain Verdict
	return jsonms.Marshal(plain(v), jsonms.Field{Name: "duration", D: &v.Duration})
}

// UnmarshalJSON reads a verdict, its duration from duration_ms or, as
// written before, from duration in nanoseconds.
func (v *Verdict) UnmarshalJSON(b []byte) error {
	type plain Verdict
	return jsonms.Unmarshal(b, (*plain)(v), jsonms.Field{Name: "duration", D: &v.Duration})
}

// String returns "PASS: reason" or "FAIL: reason".
func (v Verdict) String() string {
	if v.Pass {
		return "PASS: " + v.Reason
	}
	return "FAIL: " + v.Reason
}

// verdictOutputLines is how many lines of a command's output a Verdict
// keeps: the end, where compilers and tests say what went wrong.
const verdictOutputLines = 40

// FileExistsVerifier passes when Path is a regular file in the workspace.
type FileExistsVerifier struct {
	Path string `json:"path"`
}

// FileExists returns a verifier that passes when path, relative to the
// workspace, is a file there.
func FileExists(path string) FileExistsVerifier { return FileExistsVerifier{Path: path} }

// Verify looks for the file through the workspace, confined as read_file
// is, so that a symbolic link out of it does not count.
func (f FileExistsVerifier) Verify(ctx context.Context, w *tools.Workspace) Verdict {
	v := Verdict{Check: "file_exists " + f.Path}
	info, err := w.Stat(filepath.FromSlash(f.Path))
	switch {
	case err != nil:
		v.Reason = fmt.Sprintf("%s does not exist (%s)", f.Path, why(err))
	case info.IsDir():
		v.Reason = fmt.Sprintf("%s is a folder, not a file", f.Path)
	default:
		v.Pass, v.Reason = true, fmt.Sprintf("%s exists", f.Path)
	}
	return v
}

// FileContainsVerifier passes when the file Path holds Want: a substring,
// or a regular expression (RE2 syntax) when Regexp is set.
type FileContainsVerifier struct {
	Path   string `json:"path"`
	Want   string `json:"want"`
	Regexp bool   `json:"regexp,omitempty"`
}

// FileContains returns a verifier that passes when the file path holds the
// substring want.
func FileContains(path, want string) FileContainsVerifier {
	return FileContainsVerifier{Path: path, Want: want}
}

// FileMatches returns a verifier that passes when the file path matches
// the regular expression expr (RE2 syntax; (?m) makes ^ and $ match at
// each line).
func FileMatches(path, expr string) FileContainsVerifier {
	return FileContainsVerifier{Path: path, Want: expr, Regexp: true}
}

// Verify reads the file through the workspace, confined as read_file is.
func (f FileContainsVerifier) Verify(ctx context.Context, w *tools.Workspace) Verdict {
	v := Verdict{Check: fmt.Sprintf("file_contains %s %q", f.Path, f.Want)}
	if f.Regexp {
		v.Check = fmt.Sprintf("file_matches %s /%s/", f.Path, f.Want)
	}
	data, err := w.ReadFile(f.Path)
	if err != nil {
		v.Reason = fmt.Sprintf("%s cannot be read (%s)", f.Path, why(err))
		return v
	}
	ok, desc, err := matches(string(data), f.Want, f.Regexp)
	switch {
	case err != nil:
		v.Reason = err.Error()
	case ok:
		v.Pass, v.Reason = true, fmt.Sprintf("%s %s", f.Path, desc)
	default:
		v.Reason = fmt.Sprintf("%s does not %s", f.Path, negated(desc))
	}
	return v
}

// ShellOutputVerifier passes when Command, run in the workspace, exits
// with status 0 and its output (stdout and stderr) holds Want: a
// substring, or a regular expression when Regexp is set.
type ShellOutputVerifier struct {
	Command string `json:"command"`
	Want    string `json:"want"`
	Regexp  bool   `json:"regexp,omitempty"`
}

// ShellOutput returns a verifier that runs command in the workspace and
// passes when it succeeds and its output holds the substring want.
func ShellOutput(command, want string) ShellOutputVerifier {
	return ShellOutputVerifier{Command: command, Want: want}
}

// ShellMatches returns a verifier that runs command in the workspace and
// passes when it succeeds and its output matches the regular expression
// expr.
func ShellMatches(command, expr string) ShellOutputVerifier {
	return ShellOutputVerifier{Command: command, Want: expr, Regexp: true}
}

// Verify runs the command with the workspace's environment and time limit.
func (s ShellOutputVerifier) Verify(ctx context.Context, w *tools.Workspace) Verdict {
	v := Verdict{Check: fmt.Sprintf("shell_output `%s` %q", s.Command, s.Want)}
	if s.Regexp {
		v.Check = fmt.Sprintf("shell_matches `%s` /%s/", s.Command, s.Want)
	}
	start := time.Now()
	res, err := w.Run(ctx, s.Command)
	v.Duration = time.Since(start)
	if err != nil {
		v.Reason = fmt.Sprintf("`%s` could not run: %v", s.Command, err)
		return v
	}
	v.Output = tailLines(res.Output, verdictOutputLines)
	if failed := commandFailed(res); failed != "" {
		v.Reason = fmt.Sprintf("`%s` %s", s.Command, failed)
		return v
	}
	ok, desc, err := matches(res.Output, s.Want, s.Regexp)
	switch {
	case err != nil:
		v.Reason = err.Error()
	case ok:
		v.Pass, v.Reason = true, fmt.Sprintf("the output of `%s` %s", s.Command, desc)
	default:
		v.Reason = fmt.Sprintf("`%s` printed %s, which does not %s", s.Command, quoteOutput(res.Output), negated(desc))
	}
	return v
}

// TestsPassVerifier writes the Hidden files into the workspace (test
// files the agent never saw, replacing any file of the same name), then
// runs Command there and passes when it exits with status 0.
type TestsPassVerifier struct {
	Command string `json:"command"`
	// Hidden maps a path relative to the workspace to the file's text.
	Hidden map[string]string `json:"hidden,omitempty"`
}

// TestsPass returns a verifier that plants the hidden files and passes
// when command ("go test ./...") succeeds. The files are written only when
// it runs, after the agent has finished: while the agent works they exist
// nowhere on disk.
func TestsPass(command string, hidden map[string]string) TestsPassVerifier {
	return TestsPassVerifier{Command: command, Hidden: hidden}
}

// HiddenFiles returns the paths of the hidden files, sorted.
func (t TestsPassVerifier) HiddenFiles() []string {
	names := make([]string, 0, len(t.Hidden))
	for n := range t.Hidden {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Verify plants the hidden files and runs the command.
func (t TestsPassVerifier) Verify(ctx context.Context, w *tools.Workspace) Verdict {
	v := Verdict{Check: fmt.Sprintf("tests_pass `%s`", t.Command)}
	if len(t.Hidden) > 0 {
		v.Check += fmt.Sprintf(" with %d hidden files", len(t.Hidden))
	}
	if err := writeFiles(w.Dir, t.Hidden, true); err != nil {
		v.Reason = fmt.Sprintf("the hidden tests could not be written: %v", err)
		return v
	}
	start := time.Now()
	res, err := w.Run(ctx, t.Command)
	v.Duration = time.Since(start)
	if err != nil {
		v.Reason = fmt.Sprintf("`%s` could not run: %v", t.Command, err)
		return v
	}
	v.Output = tailLines(res.Output, verdictOutputLines)
	if failed := commandFailed(res); failed != "" {
		v.Reason = fmt.Sprintf("`%s` %s", t.Command, failed)
		if f := firstFailure(res.Output); f != "" {
			v.Reason += ": " + f
		}
		return v
	}
	v.Pass, v.Reason = true, fmt.Sprintf("`%s` passed", t.Command)
	return v
}

// AllOfVerifier passes when every one of its checks passes. It runs them
// all, in order, so that its verdict tells every reason at once.
type AllOfVerifier struct {
	Checks []Verifier `json:"-"`
}

// AllOf returns a verifier that passes when all of vs pass.
func AllOf(vs ...Verifier) AllOfVerifier { return AllOfVerifier{Checks: vs} }

// HiddenFiles returns the hidden files of its checks.
func (a AllOfVerifier) HiddenFiles() []string { return HiddenFiles(a.Checks...) }

// Verify runs every check. The reason is the failing checks' reasons, or
// the passing ones' when all passed.
func (a AllOfVerifier) Verify(ctx context.Context, w *tools.Workspace) Verdict {
	v := Verdict{Check: "all_of", Pass: true}
	start := time.Now()
	var failed, passed []string
	for _, c := range a.Checks {
		if c == nil {
			continue
		}
		cv := c.Verify(ctx, w)
		v.Checks = append(v.Checks, cv)
		if cv.Pass {
			passed = append(passed, cv.Reason)
		} else {
			v.Pass = false
			failed = append(failed, cv.Reason)
		}
	}
	v.Duration = time.Since(start)
	switch {
	case len(v.Checks) == 0:
		v.Pass, v.Reason = false, "no checks to run"
	case v.Pass:
		v.Reason = strings.Join(passed, "; ")
	default:
		v.Reason = fmt.Sprintf("%d of %d checks failed: %s", len(failed), len(v.Checks), strings.Join(failed, "; "))
	}
	return v
}

// HiddenFiles returns the hidden files the verifiers vs plant when they
// run (TestsPass, within AllOf too), sorted and without repeats: the
// files an agent must never see.
func HiddenFiles(vs ...Verifier) []string {
	var out []string
	for _, v := range vs {
		if h, ok := v.(interface{ HiddenFiles() []string }); ok {
			out = append(out, h.HiddenFiles()...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// matches reports whether text holds want (a substring, or a regular
// expression when re is set), with a description of what was looked for.
func matches(text, want string, re bool) (bool, string, error) {
	if !re {
		return strings.Contains(text, want), fmt.Sprintf("contains %q", want), nil
	}
	rx, err := regexp.Compile(want)
	if err != nil {
		return false, "", fmt.Errorf("the pattern /%s/ is not a regular expression: %v", want, err)
	}
	return rx.MatchString(text), fmt.Sprintf("matches /%s/", want), nil
}

// negated turns matches' description ("contains x", "matches /x/") into
// what follows "does not".
func negated(desc string) string {
	if rest, ok := strings.CutPrefix(desc, "contains "); ok {
		return "contain " + rest
	}
	if rest, ok := strings.CutPrefix(desc, "matches "); ok {
		return "match " + rest
	}
	return desc
}

// commandFailed says how a command failed, or "" when it succeeded.
func commandFailed(r tools.ShellResult) string {
	switch {
	case r.TimedOut:
		return fmt.Sprintf("ran past its time limit of %v", r.Limit)
	case r.Signal != "":
		return "was killed by signal " + r.Signal
	case r.ExitCode != 0:
		return fmt.Sprintf("failed (exit status %d)", r.ExitCode)
	}
	return ""
}

// firstFailure picks the line of go test's or the compiler's output that
// says best what went wrong: the first "--- FAIL" line with the message
// after it, a compile error, or a panic.
func firstFailure(out string) string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "--- FAIL"):
			if i+1 < len(lines) {
				if next := strings.TrimSpace(lines[i+1]); next != "" && !strings.HasPrefix(next, "---") && next != "FAIL" {
					return t + " " + next
				}
			}
			return t
		case strings.HasPrefix(t, "panic:"):
			return t
		case compileError.MatchString(t):
			return t
		}
	}
	return ""
}

// compileError matches a compiler's "file.go:3:5: message" line.
var compileError = lazyregexp.New(`^\S+\.go:\d+(:\d+)?: `)

// tailLines returns the last n lines of s.
func tailLines(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	lines := strings.Split(s, "\n")
	if len(lines) <= n {
		return s
	}
	return fmt.Sprintf("[%d lines before]\n%s", len(lines)-n, strings.Join(lines[len(lines)-n:], "\n"))
}

// quoteOutput quotes a command's output for a reason, short.
func quoteOutput(out string) string {
	out = strings.TrimSpace(out)
	if out == "" {
		return "nothing"
	}
	if len(out) > 200 {
		out = out[:200] + "..."
	}
	return fmt.Sprintf("%q", out)
}

// why says in a few words why a file operation failed.
func why(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case strings.Contains(err.Error(), "outside the workspace"):
		return "the path leads outside the workspace"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if strings.Contains(pe.Err.Error(), "escapes") {
			return "the path leads outside the workspace"
		}
		return pe.Err.Error()
	}
	return err.Error()
}

// writeFiles writes files (relative path to text) into dir through an
// os.Root, making folders as needed. With replace, whatever is at a path
// already (a file, or a link the agent left there) is removed first, so
// that a planted file is exactly the one given.
func writeFiles(dir string, files map[string]string, replace bool) error {
	if len(files) == 0 {
		return nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		p := filepath.FromSlash(n)
		if d := filepath.Dir(p); d != "." {
			if err := root.MkdirAll(d, 0o755); err != nil {
				return fmt.Errorf("write %s: %w", n, err)
			}
		}
		if replace {
			if err := root.RemoveAll(p); err != nil {
				return fmt.Errorf("write %s: %w", n, err)
			}
		}
		if err := root.WriteFile(p, []byte(files[n]), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", n, err)
		}
	}
	return nil
}

// AnyOfVerifier passes when one of its checks passes. It stops at the
// first that does.
type AnyOfVerifier struct {
	Checks []Verifier `json:"-"`
}

// AnyOf returns a verifier that passes when one of vs passes.
func AnyOf(vs ...Verifier) AnyOfVerifier { return AnyOfVerifier{Checks: vs} }

// HiddenFiles returns the hidden files of its checks.
func (a AnyOfVerifier) HiddenFiles() []string { return HiddenFiles(a.Checks...) }

// Verify runs the checks in order until one passes. The reason is the
// passing check's, or every failing one's.
func (a AnyOfVerifier) Verify(ctx context.Context, w *tools.Workspace) Verdict {
	v := Verdict{Check: "any_of"}
	start := time.Now()
	var failed []string
	for _, c := range a.Checks {
		if c == nil {
			continue
		}
		cv := c.Verify(ctx, w)
		v.Checks = append(v.Checks, cv)
		if cv.Pass {
			v.Pass, v.Reason = true, cv.Reason
			break
		}
		failed = append(failed, cv.Reason)
	}
	v.Duration = time.Since(start)
	switch {
	case len(v.Checks) == 0:
		v.Reason = "no checks to run"
	case !v.Pass:
		v.Reason = fmt.Sprintf("none of %d checks passed: %s", len(v.Checks), strings.Join(failed, "; "))
	}
	return v
}
