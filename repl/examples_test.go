package repl

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestExampleScripts runs every script in scripts/ as grue run would, so
// that CI keeps the examples working.
func TestExampleScripts(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join("..", "scripts", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	if len(scripts) == 0 {
		t.Fatal("no scripts in ../scripts")
	}
	for _, path := range scripts {
		t.Run(filepath.Base(path), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			var out, errs strings.Builder
			if err := RunFile(ctx, path, nil, ScriptOptions{Stdout: &out, Stderr: &errs, Stdin: strings.NewReader("")}); err != nil {
				t.Fatalf("grue run %s: %v\nstdout:\n%s\nstderr:\n%s", path, err, out.String(), errs.String())
			}
			if out.Len() == 0 {
				t.Errorf("grue run %s printed nothing", path)
			}
		})
	}
}
