package eval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/grue-lab/grue/agent/tools"
)

// Verifying without trusting the agent's files.
//
// The agent's code runs in the verifier's commands: a Go test binary
// holds every _test.go file of its package, so an agent that writes a
// zz_test.go whose TestMain calls os.Exit(0) made `go test` succeed
// whatever its Fib returned. pytest likewise runs any conftest.py it
// finds. So a task is never verified in the agent's own workspace:
// [Task.Check] copies the workspace into a fresh verification folder,
// leaving out every file that matches the task's protected patterns (its
// test files: [DefaultProtected]); puts back the task's own version of
// those from its setup (fix_the_bug's visible stats_test.go, unchanged);
// plants the hidden files; and runs the verifier there. Whatever test
// files the verdict rests on are then the task's, not the agent's, and
// the agent's workspace is left as it was.
//
// What it does not stop: the agent's non-test code runs inside the test
// process and could fake a test run's output or exit early from an
// init function; a command the agent ran may have written outside the
// workspace (tools.Workspace is no filesystem sandbox), to the go
// command's build cache for instance. Run untrusted agents in a
// container.

// DefaultProtected are the file patterns a task's verification takes
// from the task, never from the agent, when the task names none: Go's
// and pytest's test files, and pytest's conftest.py (hooks that can mark
// any test passed). A pattern without a slash matches a file's name in
// any folder; one with a slash, its path from the workspace's root
// (path.Match syntax).
var DefaultProtected = []string{"*_test.go", "test_*.py", "*_test.py", "conftest.py"}

// MaxVerifyCopy bounds the bytes of the agent's workspace copied for
// verification: a workspace that grew past it fails verification.
const MaxVerifyCopy = 1 << 30

// protected returns the task's protected patterns: Protected, or
// DefaultProtected when it is nil.
func (t Task) protected() []string {
	if t.Protected == nil {
		return DefaultProtected
	}
	return t.Protected
}

// isProtected reports whether rel, a slash-separated path relative to
// the workspace, matches one of patterns.
func isProtected(rel string, patterns []string) bool {
	for _, p := range patterns {
		subject := path.Base(rel)
		if containsSlash(p) {
			subject = rel
		}
		if ok, _ := path.Match(p, subject); ok {
			return true
		}
	}
	return false
}

func containsSlash(s string) bool {
	for i := range len(s) {
		if s[i] == '/' {
			return true
		}
	}
	return false
}

// Check verifies the work an agent left in dir: it copies dir into a
// fresh folder without the files that match the task's protected
// patterns, puts the task's own versions of those back (from Files),
// plants Hidden, runs Verify there with env and timeout (each command's
// limit; DefaultVerifyTimeout when 0), and removes the folder. dir is
// not changed. Symbolic links and other files that are not regular are
// not copied. A verification that cannot be set up is a failing verdict
// saying why.
func (t Task) Check(ctx context.Context, dir string, env []string, timeout time.Duration) Verdict {
	if t.Verify == nil {
		return Verdict{Check: "verify", Reason: "the task has no verifier"}
	}
	vdir, err := os.MkdirTemp("", "grue-verify-")
	if err != nil {
		return Verdict{Check: "verify", Reason: fmt.Sprintf("no folder to verify in: %v", err)}
	}
	defer os.RemoveAll(vdir)
	if err := t.prepare(dir, vdir); err != nil {
		return Verdict{Check: "verify", Reason: fmt.Sprintf("the workspace could not be prepared for verification: %v", err)}
	}
	if timeout <= 0 {
		timeout = DefaultVerifyTimeout
	}
	ws := &tools.Workspace{Dir: vdir, Env: env, ShellTimeout: timeout, MaxOutput: 64 << 10}
	return t.Verify.Verify(ctx, ws)
}

// prepare fills vdir, an empty folder, for verification (see Check).
func (t Task) prepare(dir, vdir string) error {
	protected := t.protected()
	if err := copyTree(dir, vdir, func(rel string) bool { return !isProtected(rel, protected) }); err != nil {
		return err
	}
	own := map[string]string{}
	for p, text := range t.Files {
		if isProtected(path.Clean(p), protected) {
			own[p] = text
		}
	}
	if err := writeFiles(vdir, own, true); err != nil {
		return fmt.Errorf("the task's own files: %w", err)
	}
	if err := writeFiles(vdir, t.Hidden, true); err != nil {
		return fmt.Errorf("the hidden files: %w", err)
	}
	return nil
}

// errTooLarge says a workspace is too large to copy for verification.
var errTooLarge = fmt.Errorf("the workspace holds more than %d bytes", MaxVerifyCopy)

// copyTree copies the folders and regular files under src that keep
// accepts (a slash-separated path relative to src) to dst, which exists.
// Links and special files are left out; so is everything in a folder it
// cannot read.
func copyTree(src, dst string, keep func(rel string) bool) error {
	var total int64
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == src {
				return err
			}
			return nil // a folder the agent made unreadable: left out
		}
		rel, err := filepath.Rel(src, p)
		if err != nil || rel == "." {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.Mkdir(target, 0o755)
		case !d.Type().IsRegular() || !keep(filepath.ToSlash(rel)):
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		if total += info.Size(); total > MaxVerifyCopy {
			return errTooLarge
		}
		return copyFile(p, target, info)
	})
}

// copyFile copies the regular file src, which Lstat saw as seen, to dst
// (a new file), refusing anything but that file: a link put in its
// place meanwhile is not followed.
func copyFile(src, dst string, seen fs.FileInfo) error {
	in, err := os.Open(src)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // removed meanwhile
		}
		return err
	}
	defer in.Close()
	if info, err := in.Stat(); err != nil || !info.Mode().IsRegular() || !os.SameFile(info, seen) {
		return nil
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, seen.Mode().Perm()|0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, io.LimitReader(in, MaxVerifyCopy)); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
