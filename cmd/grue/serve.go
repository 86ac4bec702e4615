package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/grue-lab/grue/game/mcp"
	"github.com/grue-lab/grue/game/stories"
)

// serveOptions are the flags of grue serve.
type serveOptions struct {
	game string
	seed int64
	http string
	idle time.Duration
}

func newServeCmd() *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve [--game STORY] [--seed N] [--http ADDR] [--idle D]",
		Short: "Serve games to agents over MCP",
		Long: `Serve games to agents over MCP, the Model Context Protocol.

The tools are play_action, memory, get_map, inventory, valid_actions,
reset_game, list_games, save_state, restore_state and undo. Each result
carries the text an agent reads and structured content (observation, score,
max_score, moves, reward, done, victory, location) for programs.

Each MCP session plays its own game: STORY (--game; a path or a name under
$GRUE_GAMES), or without it grue's built-in default story, Lantern. Its
random numbers are seeded with --seed.

By default grue serves one session over stdin and stdout, as MCP clients
such as Claude Desktop and the MCP Inspector start it. With --http ADDR it
serves streamable HTTP at http://ADDR/mcp to any number of sessions, and
ends a session (and its game) after --idle without a request.`,
		Example: `  grue serve
  grue serve --game zork1 --seed 12
  grue serve --http 127.0.0.1:8080 --idle 10m`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.serve(cmd)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.game, "game", stories.DefaultName, "the story each session plays")
	f.Int64Var(&o.seed, "seed", 1, "seed of the game's random numbers, as dfrotz -s N")
	f.StringVar(&o.http, "http", "", "serve streamable HTTP at http://ADDR/mcp instead of stdio")
	f.DurationVar(&o.idle, "idle", 30*time.Minute, "end an HTTP session idle for this long (0: never)")
	return cmd
}

func (o *serveOptions) serve(cmd *cobra.Command) error {
	if o.idle < 0 {
		return usageError{fmt.Errorf("--idle must not be negative")}
	}
	srv, err := mcp.NewServer(mcp.WithGame(o.game), mcp.WithSeed(o.seed), mcp.WithVersion(Version()))
	if err != nil {
		return err
	}
	defer srv.Close()
	ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if o.http == "" {
		return srv.ServeStdio(ctx, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
	}
	ln, err := net.Listen("tcp", o.http)
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv.HTTPHandler(o.idle), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(cmd.ErrOrStderr(), "grue serve: MCP over HTTP at http://%s/mcp\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shut); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
