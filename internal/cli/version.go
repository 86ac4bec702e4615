package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is grue's version when set at link time:
//
//	go build -ldflags "-X github.com/grue-lab/grue/internal/cli.version=1.2.3" ./cmd/grue
//
// When it is empty, the module version from the build info is used (set by
// `go install github.com/grue-lab/grue/cmd/grue@v1.2.3`), and failing that
// defaultVersion.
var version string

const defaultVersion = "0.1.0-dev"

// Version returns grue's version string.
func Version() string {
	bi, _ := debug.ReadBuildInfo()
	return versionFrom(version, bi)
}

func versionFrom(linked string, bi *debug.BuildInfo) string {
	if linked != "" {
		return linked
	}
	if bi != nil && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return defaultVersion
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print grue's version",
		Args:  NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return printVersion(cmd)
		},
	}
}

// printVersion prints "grue VERSION", what grue version and grue
// --version print.
func printVersion(cmd *cobra.Command) error {
	_, err := fmt.Fprintf(cmd.OutOrStdout(), "grue %s\n", Version())
	return err
}
