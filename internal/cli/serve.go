package cli

import (
	"fmt"
	"io"
	"net"
	"os"
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

	token       string
	origins     []string
	maxBody     int64
	maxSessions int
	undoDepth   int
	maxSaved    int
	maxLine     int
	conn        ConnLimits
}

func newServeCmd() *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve [--game STORY] [--seed N] [--http ADDR] [--idle D]",
		Short: "Serve games to agents over MCP",
		Long: `Serve games to agents over MCP, the Model Context Protocol.

The tools are play_action, memory, get_map, inventory, valid_actions,
reset_game, new_game, list_games, save_state, restore_state and undo. Each
result carries the text an agent reads and structured content (game_id,
observation, score, max_score, moves, reward, done, victory, location) for
programs.

Each MCP session plays its own game: STORY (--game; a path or a name under
$GRUE_GAMES), or without it grue's built-in default story, Lantern. Its
random numbers are seeded with --seed. Clients of both protocol eras are
served: a client of MCP 2026-07-28 over HTTP has no session, so it starts
a game with new_game and passes the game_id it returns to every tool (a
call with neither is refused); over stdio there is one game per process.

By default grue serves one session over stdin and stdout, as MCP clients
such as Claude Desktop and the MCP Inspector start it. With --http ADDR it
serves streamable HTTP at http://ADDR/mcp to any number of sessions, and
ends a session, or a game_id's game, after --idle without a request.

Over HTTP a browser page may call the server only from this machine's own
origins (localhost, 127.0.0.1, [::1]) or those named with --allow-origin;
any other Origin gets 403 (DNS rebinding). Bound to an address other than
loopback, every request must carry a bearer token (Authorization: Bearer
TOKEN): $GRUE_SERVE_TOKEN (or --token, which every account on the
machine can read in the command line: it warns), else one generated and
printed at start. Request bodies, live sessions, undo history, saved
states and stdio lines are capped, and slow connections time out; see
docs/security.md.`,
		Example: `  grue serve
  grue serve --game zork1 --seed 12
  grue serve --http 127.0.0.1:8080 --idle 10m`,
		Args: NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.serve(cmd)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.game, "game", stories.DefaultName, "the story each session plays")
	f.Int64Var(&o.seed, "seed", 1, "seed of the game's random numbers, as dfrotz -s N")
	f.StringVar(&o.http, "http", "", "serve streamable HTTP at http://ADDR/mcp instead of stdio")
	f.DurationVar(&o.idle, "idle", 30*time.Minute, "end an HTTP session or game_id idle for this long (0: never)")
	f.StringVar(&o.token, "token", "", "bearer token every HTTP request must carry (default $"+mcp.TokenEnv+"; generated off loopback)")
	f.StringSliceVar(&o.origins, "allow-origin", nil, "a browser origin allowed besides this machine's (https://app.example); repeatable")
	f.Int64Var(&o.maxBody, "max-body", mcp.DefaultMaxBody, "largest HTTP request body in bytes (larger: 413)")
	f.IntVar(&o.maxSessions, "max-sessions", mcp.DefaultMaxSessions, "most live HTTP sessions (more: 503), and most games started by new_game")
	f.IntVar(&o.undoDepth, "undo-depth", mcp.DefaultUndoDepth, "moves undo can take back in each session")
	f.IntVar(&o.maxSaved, "max-saved-states", mcp.DefaultMaxSavedStates, "most states save_state keeps over all games at once (more: a tool error)")
	f.IntVar(&o.maxLine, "max-line", mcp.DefaultMaxLine, "longest stdio message in bytes")
	o.conn.AddFlags(f, 30*time.Second, "time to read a whole HTTP request")
	return cmd
}

func (o *serveOptions) serve(cmd *cobra.Command) error {
	WarnTokenFlag(cmd.ErrOrStderr(), "grue serve", cmd.Flags())
	if o.idle < 0 {
		return UsageError{fmt.Errorf("--idle %v: must not be negative (0 means never)", o.idle)}
	}
	if err := o.conn.Check(); err != nil {
		return err
	}
	if err := CheckLimits(SizeLimit{Name: "--max-body", V: o.maxBody}, SizeLimit{Name: "--max-sessions", V: int64(o.maxSessions)},
		SizeLimit{Name: "--max-line", V: int64(o.maxLine)}, SizeLimit{Name: "--undo-depth", V: int64(o.undoDepth), Zero: true},
		SizeLimit{Name: "--max-saved-states", V: int64(o.maxSaved)}); err != nil {
		return err
	}
	tuneGC(true)
	var ln net.Listener
	if o.http != "" {
		var err error
		if ln, err = net.Listen("tcp", o.http); err != nil {
			return err
		}
		defer ln.Close()
	}
	srv, err := o.newServer(ln, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	defer srv.Close()
	ctx, stop := notifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if o.http == "" {
		return srv.ServeStdio(ctx, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "grue serve: MCP over HTTP at http://%s/mcp\n", ln.Addr())
	return serveMCP(ctx, srv, ln, o.idle, o.conn)
}

// loopback reports whether addr is on this machine's loopback only.
func Loopback(addr net.Addr) bool {
	tcp, ok := addr.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// listenToken is the token rule of grue serve --http and grue web: the
// token given (--token, else $GRUE_SERVE_TOKEN), or, listening on ln
// beyond loopback with none given, one generated and printed on errOut
// (the only place a token is ever written). On loopback with none given
// it is "": no token is asked for.
func listenToken(cmdName, token string, ln net.Listener, errOut io.Writer) string {
	if token == "" {
		token = os.Getenv(mcp.TokenEnv)
	}
	if token == "" && ln != nil && !Loopback(ln.Addr()) {
		token = mcp.NewToken()
		fmt.Fprintf(errOut, "%s: listening beyond this machine, so clients need a token: set %s=%s (or send Authorization: Bearer TOKEN)\n", cmdName, mcp.TokenEnv, token)
	}
	return token
}

// newServer makes the game server of the flags. Listening on ln beyond
// loopback with no token given, it generates one and prints it on errOut
// (the only place a token is ever written).
func (o *serveOptions) newServer(ln net.Listener, errOut io.Writer) (*mcp.Server, error) {
	o.token = listenToken("grue serve", o.token, ln, errOut)
	return mcp.NewServer(mcp.WithGame(o.game), mcp.WithSeed(o.seed), mcp.WithVersion(Version()),
		mcp.WithToken(o.token), mcp.WithAllowedOrigins(o.origins...), mcp.WithMaxBody(o.maxBody),
		mcp.WithMaxSessions(o.maxSessions), mcp.WithUndoDepth(o.undoDepth), mcp.WithMaxLine(o.maxLine),
		mcp.WithMaxSavedStates(o.maxSaved))
}
