package moduletest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// outsideMain is the scratch module's program: it imports the packages a
// researcher's compiled experiment would, and uses a name from each.
const outsideMain = `package main

import (
	"fmt"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/memory"
	"github.com/grue-lab/grue/agent/tools"
	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/game/mcp"
	"github.com/grue-lab/grue/game/mcp/mcphttp"
	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/repl"
)

func main() {
	short, _ := tools.Truncate("lantern", 4)
	fmt.Println("command:", game.CanonicalCommand("n"))
	fmt.Println("server:", mcp.ServerName)
	fmt.Println("handler:", mcphttp.Handler != nil)
	fmt.Println("steps:", agent.DefaultMaxSteps)
	fmt.Println("memories:", len(memory.Names()) > 0)
	fmt.Println("truncated:", short)
	fmt.Println("parallel:", harness.DefaultParallel)
	fmt.Println("complete:", repl.Complete("x := 1"))
}
`

// TestOutsideModule: a module outside the repository that requires grue
// builds github.com/grue-lab/grue/cmd/grue and a program importing game,
// game/mcp, game/mcp/mcphttp, agent, agent/memory, agent/tools, harness
// and repl, and the program runs. Outside grue's own module its go.mod's
// replace directives would not apply, so a package that exists only in a
// patched copy fails this build. The scratch module's go.mod points at this
// checkout with a replace of its own (as a user's go.mod may) and builds
// with the environment's module cache and proxy, so it runs offline once
// grue's dependencies are downloaded.
func TestOutsideModule(t *testing.T) {
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("builds grue from a scratch module: run without -short")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build a module outside the repository: %v", err)
	}
	goEnv := func(name string) string {
		out, err := exec.Command(goTool, "env", name).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", name, err)
		}
		return strings.TrimSpace(string(out))
	}
	gomod := goEnv("GOMOD")
	if filepath.Base(gomod) != "go.mod" {
		t.Fatalf("go env GOMOD = %q: not inside grue's module", gomod)
	}
	root := filepath.Dir(gomod)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatalf("grue's go.sum: %v", err)
	}

	dir := t.TempDir()
	modFile := "module example.com/outside\n\ngo 1.26\n\n" +
		"require github.com/grue-lab/grue v0.0.0-00010101000000-000000000000\n\n" +
		"replace github.com/grue-lab/grue => " + root + "\n"
	for name, data := range map[string][]byte{
		"go.mod":  []byte(modFile),
		"go.sum":  sum, // grue's dependencies' checksums, so that no checksum database is asked
		"main.go": []byte(outsideMain),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	env := append(os.Environ(),
		"GOFLAGS=-mod=mod", "GOWORK=off",
		"GOMODCACHE="+goEnv("GOMODCACHE"), "GOPROXY="+goEnv("GOPROXY"),
	)
	bin := filepath.Join(dir, "bin")
	build := exec.Command(goTool, "build", "-o", bin+string(filepath.Separator), "github.com/grue-lab/grue/cmd/grue", ".")
	build.Dir, build.Env = dir, env
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("a module outside the repository cannot build grue:\n%s\n%s", err, out)
	}
	for _, name := range []string{"grue", "outside"} {
		if _, err := os.Stat(filepath.Join(bin, name)); err != nil {
			t.Errorf("go build left no %s: %v", name, err)
		}
	}

	var stdout, stderr bytes.Buffer
	run := exec.Command(filepath.Join(bin, "outside"))
	run.Stdout, run.Stderr = &stdout, &stderr
	if err := run.Run(); err != nil {
		t.Fatalf("the outside program: %v\n%s", err, stderr.String())
	}
	for _, want := range []string{"server: grue\n", "handler: true\n", "memories: true\n"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the outside program printed %q, want %q in it", stdout.String(), want)
		}
	}
}
