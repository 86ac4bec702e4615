package interp_test

// grue: upstream yaegi's own test programs, run against grue's copy (see
// README.grue.md). Not a file of upstream's.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grue-lab/grue/bindings/std"
	"github.com/grue-lab/grue/internal/yaegi/interp"
)

// upstreamSum is the hash of the upstream module that the copy is of, as
// bindings/internal/gen checks it: go mod download does not consult the
// checksum database for a module that go.mod does not require.
const upstreamSum = "h1:f1De3DVJqIDKmnasUF6MwmWv1dSEEat0wcpXhD2On3E="

// knownFailuresFile lists the upstream programs that fail on grue's copy,
// one a line: the file's name, a colon and why.
const knownFailuresFile = "testdata/upstream_failures.txt"

// TestUpstreamPrograms runs the programs of the _test folder of upstream
// yaegi, at the version README.grue.md names, through grue's interpreter
// with the standard library tables the REPL uses (bindings/std), as
// upstream's interp_file_test.go runs them: each program's output must be
// its last comment's "Output:", or its error contain the "Error:" text.
// The programs that fail are listed in testdata/upstream_failures.txt with
// a reason; a failure not listed fails the test, and so does a listed
// program that passes, so that the list stays true.
func TestUpstreamPrograms(t *testing.T) {
	known := knownFailures(t)
	modDir := upstreamModuleDir(t)
	// As upstream runs them: from its interp folder, as ../_test/NAME.go
	// (the errors that the programs expect name them so), with a GOPATH
	// where the module's _test packages are found by their import paths
	// (github.com/traefik/yaegi/_test/foo).
	goPath := t.TempDir()
	if err := os.MkdirAll(filepath.Join(goPath, "src", "github.com", "traefik"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(modDir, filepath.Join(goPath, "src", "github.com", "traefik", "yaegi")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(modDir, "interp"))
	dir := filepath.Join("..", "_test")
	t.Setenv("YAEGI_SPECIAL_STDIO", "1")
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no programs in %s: %v", dir, err)
	}
	var ran, passed, failedKnown int
	for _, file := range files {
		name := filepath.Base(file)
		wanted, filePath, errWanted, ok := wantedOf(t, file, dir)
		if !ok {
			if _, listed := known[name]; listed {
				t.Errorf("%s is listed in %s but has no Output or Error comment to check", name, knownFailuresFile)
			}
			continue // a program of upstream's other tests (no expected output)
		}
		if filePath == "" {
			filePath = goPath
		}
		t.Run(name, func(t *testing.T) {
			ran++
			why := runUpstream(file, wanted, filePath, errWanted)
			reason, listed := known[name]
			switch {
			case why == "" && listed:
				t.Errorf("passes now: remove it from %s (it was listed as: %s)", knownFailuresFile, reason)
			case why == "":
				passed++
			case !listed:
				t.Error(why)
			default:
				failedKnown++
			}
		})
	}
	if ran < len(files)/2 {
		return // go test -run picked some programs: the list is checked on a full run
	}
	for name := range known {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil { // dir is relative to the cwd set above
			t.Errorf("%s lists %s, which upstream's _test does not have", knownFailuresFile, name)
		}
	}
	t.Logf("upstream programs: %d run, %d pass, %d fail as %s lists", ran, passed, failedKnown, knownFailuresFile)
}

// runUpstream runs one program and returns why it failed, "" when it
// passed.
func runUpstream(file, wanted, goPath string, errWanted bool) (why string) {
	var stdout, stderr bytes.Buffer
	i := interp.New(interp.Options{GoPath: goPath, Stdout: &stdout, Stderr: &stderr})
	if err := i.Use(interp.Symbols); err != nil {
		return "use interp.Symbols: " + err.Error()
	}
	if err := i.Use(std.Symbols()); err != nil {
		return "use the standard library's tables: " + err.Error()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				why = "panic: " + strings.SplitN(strings.TrimSpace(toString(r)), "\n", 2)[0]
			}
		}()
		_, err = i.EvalPathWithContext(ctx, file)
	}()
	if why != "" {
		return why
	}
	if errWanted {
		if err == nil {
			return "no error, want one containing " + quote(wanted)
		}
		if res := strings.TrimSpace(err.Error()); !strings.Contains(res, wanted) {
			return "error " + quote(res) + ", want one containing " + quote(wanted)
		}
		return ""
	}
	if err != nil {
		return "error: " + firstLine(err.Error())
	}
	if res := strings.ReplaceAll(strings.TrimSpace(stdout.String()), file+":", ""); res != wanted {
		return "printed " + quote(res) + ", want " + quote(wanted)
	}
	return ""
}

// upstreamModuleDir returns the folder of the upstream module at the
// version README.grue.md names, in the module cache (go mod download
// fetches it when the cache lacks it).
func upstreamModuleDir(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile("../README.grue.md")
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(readme), "\n")
	fields := strings.Fields(strings.TrimPrefix(head, "# "))
	if len(fields) < 2 || fields[0] != "github.com/traefik/yaegi" {
		t.Fatalf("README.grue.md's first line %q does not name the upstream module and version", head)
	}
	mod := fields[0] + "@" + strings.TrimSuffix(fields[1], ",")
	cmd := exec.Command("go", "mod", "download", "-json", mod)
	cmd.Env = append(os.Environ(), "GONOSUMDB=github.com/traefik/yaegi")
	out, err := cmd.Output()
	var m struct{ Dir, Sum, Error string }
	if jerr := json.Unmarshal(out, &m); jerr != nil && err == nil {
		err = jerr
	}
	switch {
	case m.Error != "":
		t.Fatalf("go mod download %s: %s", mod, m.Error)
	case err != nil:
		t.Fatalf("go mod download %s: %v", mod, err)
	case m.Sum != upstreamSum:
		t.Fatalf("go mod download %s: its hash is %s, not %s", mod, m.Sum, upstreamSum)
	}
	return m.Dir
}

// knownFailures reads knownFailuresFile: name -> reason.
func knownFailures(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open(knownFailuresFile) // before the test changes folder
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	known := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, reason, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(reason) == "" {
			t.Fatalf("%s:%d: want NAME.go: REASON, not %q", knownFailuresFile, n, line)
		}
		if _, dup := known[name]; dup {
			t.Fatalf("%s:%d: %s is listed twice", knownFailuresFile, n, name)
		}
		known[name] = strings.TrimSpace(reason)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return known
}

// wantedOf reads a program's expected output from its last comment, as
// upstream's wantedFromComment does: "Output:" or "Error:", after an
// optional "GOPATH:" line naming a folder under dir.
func wantedOf(t *testing.T, file, dir string) (wanted, goPath string, errWanted, ok bool) {
	t.Helper()
	f, _ := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments)
	if f == nil || len(f.Comments) == 0 {
		return "", "", false, false
	}
	text := f.Comments[len(f.Comments)-1].Text()
	if strings.HasPrefix(text, "GOPATH:") {
		first, rest, _ := strings.Cut(text, "\n")
		text = rest
		goPath = filepath.Join(dir, strings.TrimPrefix(first, "GOPATH:"))
	}
	for _, p := range []string{"Output:\n", "Error:\n"} {
		if w, found := strings.CutPrefix(text, p); found && strings.TrimSpace(w) != "" {
			return strings.TrimSpace(w), goPath, p == "Error:\n", true
		}
	}
	return "", "", false, false
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

func quote(s string) string {
	if len(s) > 120 {
		s = s[:120] + "..."
	}
	return strings.Join(slices.Collect(strings.SplitSeq(s, "\n")), `\n`)
}

func toString(r any) string {
	if e, ok := r.(error); ok {
		return e.Error()
	}
	if s, ok := r.(string); ok {
		return s
	}
	return "non-string panic"
}
