package cli

import (
	"bytes"
	"errors"
	"net"
	"strings"
	"testing"
)

// TestNeedsWorkbench: in grue, which has no Network, a command line that
// serves or plays over HTTP, or needs a model, ends with NeedsWorkbench
// (which Execute turns into running grue-workbench) before it has done
// anything: nothing printed, no port taken. The same commands without
// HTTP run.
func TestNeedsWorkbench(t *testing.T) {
	for _, k := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "HF_TOKEN", "GRUE_MODEL"} {
		t.Setenv(k, "")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()

	run := func(args ...string) (string, error) {
		var out bytes.Buffer
		root := NewRoot(strings.NewReader(""), &out, &out)
		root.SetArgs(args)
		_, err := root.ExecuteC()
		return out.String(), err
	}
	for _, tc := range []struct {
		args []string
		what string // NeedsWorkbench's
	}{
		{[]string{"serve", "--http", addr}, "--http"},
		{[]string{"serve", "--http", addr, "--idle", "-1s"}, "--http"}, // the workbench checks the flags
		{[]string{"agent", "--server", "http://" + addr + "/mcp", "--policy", "random", "--steps", "1"}, "--server http://" + addr + "/mcp"},
		{[]string{"agent", "--server", "https://" + addr + "/mcp", "--steps", "1"}, "--server https://" + addr + "/mcp"},
		{[]string{"agent", "--policy", "llm", "--base-url", "http://" + addr + "/v1", "--model", "m", "--steps", "1"}, "a model"},
		{[]string{"agent", "--model", "m", "--base-url", "http://" + addr + "/v1", "--steps", "1"}, "a model"},
	} {
		out, err := run(tc.args...)
		var nw NeedsWorkbench
		if !errors.As(err, &nw) || nw.What != tc.what {
			t.Errorf("%q: error %v, want NeedsWorkbench{%q}", tc.args, err, tc.what)
		}
		if out != "" {
			t.Errorf("%q printed %q before handing over", tc.args, out)
		}
	}
	if ln, err := net.Listen("tcp", addr); err != nil {
		t.Errorf("the port of serve --http was taken: %v", err)
	} else {
		ln.Close()
	}

	// No model configured: the explorer baseline plays, in process.
	out, err := run("agent", "--steps", "2", "--json")
	if err != nil || !strings.Contains(out, `"policy"`) {
		t.Errorf("agent without a model: %v\n%s", err, out)
	}
}

// TestNeedsWorkbenchOutsideGrue: outside grue's Main (grue-workbench with
// an incomplete Network, a test), Execute prints NeedsWorkbench as an
// error and exits 1 instead of executing grue-workbench.
func TestNeedsWorkbenchOutsideGrue(t *testing.T) {
	t.Setenv(WorkbenchEnv, "/nonexistent/grue-workbench")
	var out, errOut bytes.Buffer
	root := NewRoot(strings.NewReader(""), &out, &errOut)
	code := Execute(root, []string{"serve", "--http", "127.0.0.1:0"}, &errOut)
	if code != ExitError || !strings.Contains(errOut.String(), "grue serve: --http needs the network side") {
		t.Errorf("exit %d, stderr %q", code, errOut.String())
	}
}
