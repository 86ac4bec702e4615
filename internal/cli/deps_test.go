package cli

import (
	"os/exec"
	"strings"
	"testing"
)

// TestFastBinaryLinksLittle: command grue (this package and its
// dependencies) links none of the workbench's heavy packages, whose
// package initialisation every start of grue play, serve and agent would
// pay for (docs/performance.md, Start-up): not the REPL's, nor
// grue-workbench's Network (package clihttp) and what it brings for what
// serves, plays or calls a model over HTTP. net/http itself is linked:
// upstream mcp-go's server and client packages hold their HTTP
// transports.
func TestFastBinaryLinksLittle(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found: " + err.Error())
	}
	out, err := exec.Command(goTool, "list", "-deps", "github.com/grue-lab/grue/cmd/grue").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/grue: %v\n%s", err, out)
	}
	forbidden := []string{
		"github.com/traefik/yaegi", "github.com/grue-lab/grue/bindings", "github.com/grue-lab/grue/repl",
		"github.com/grue-lab/grue/harness", "github.com/grue-lab/grue/eval", "github.com/grue-lab/grue/web",
		"gonum.org/v1/plot", "k8s.io/", "github.com/olekukonko/tablewriter", "github.com/vbauerster/mpb",
		"go/types", "github.com/sashabaranov/go-openai",
		"github.com/grue-lab/grue/internal/cli/clihttp", "github.com/grue-lab/grue/game/mcp/mcphttp",
		"github.com/grue-lab/grue/agent/llm/openai", "github.com/grue-lab/grue/agent/tools/websearch",
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, f := range forbidden {
			if strings.HasPrefix(pkg, f) {
				t.Errorf("grue links %s", pkg)
			}
		}
	}
}
