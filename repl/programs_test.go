package repl

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Ordinary Go programs (testdata/programs) print the same run by the
// interpreter, as grue run runs them, as compiled by go run: the test of
// the session's rewrites for the interpreter's gaps on whole programs,
// and of what remains of those gaps (docs/repl.md) not being met
// unawares.
func TestProgramsMatchCompiled(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no go command to compile the programs with: %v", err)
		}
		t.Skipf("no go command: %v", err)
	}
	files, err := filepath.Glob(filepath.Join("testdata", "programs", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no programs in testdata/programs: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			want, err := exec.Command(goTool, "run", file).CombinedOutput()
			if err != nil {
				t.Fatalf("go run %s: %v\n%s", file, err, want)
			}
			var got strings.Builder
			if err := RunFile(context.Background(), file, nil, Options{Stdout: &got, Stderr: &got}); err != nil {
				t.Fatalf("RunFile: %v\n%s", err, got.String())
			}
			if got.String() != string(want) {
				t.Errorf("interpreted, %s printed\n%s\ncompiled, it printed\n%s", file, got.String(), want)
			}
		})
	}
}
