package tools

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/grue-lab/grue/game/mcp"
)

// serverEnv makes the test binary grue's MCP game server over stdio, so
// the stdio tests need no grue binary.
const serverEnv = "GRUE_TOOLS_TEST_MCP_SERVER"

// shellEnv makes the test binary run the command it holds with
// Workspace.Run and print the output: a grue started with secrets in its
// own environment (see TestRunShellCannotReadGrue). "GRUEPID" in the
// command is replaced by the process's pid. With shellNoNSEnv set, the
// command runs without the new namespaces.
const (
	shellEnv     = "GRUE_TOOLS_TEST_SHELL"
	shellNoNSEnv = "GRUE_TOOLS_TEST_SHELL_NO_NS"
)

func TestMain(m *testing.M) {
	if os.Getenv(serverEnv) != "" {
		s, err := mcp.NewServer()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := s.ServeStdio(context.Background(), os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if command := os.Getenv(shellEnv); command != "" {
		os.Exit(runShellChild(command))
	}
	os.Exit(m.Run())
}

func runShellChild(command string) int {
	dir, err := os.MkdirTemp("", "grue-tools-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	w := &Workspace{Dir: dir, noNamespaces: os.Getenv(shellNoNSEnv) != ""}
	command = strings.ReplaceAll(command, "GRUEPID", strconv.Itoa(os.Getpid()))
	r, err := w.Run(context.Background(), command)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Print(r.Text())
	return 0
}
