package cli_test

import (
	"github.com/grue-lab/grue/internal/cli"
	"github.com/grue-lab/grue/internal/cli/clihttp"
)

func init() { cli.LinkTestNetwork(clihttp.Network()) }
