package tools

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/grue-lab/grue/game/mcp"
)

// serverEnv makes the test binary grue's MCP game server over stdio, so
// the stdio tests need no grue binary.
const serverEnv = "GRUE_TOOLS_TEST_MCP_SERVER"

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
	os.Exit(m.Run())
}
