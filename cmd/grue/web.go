package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/grue-lab/grue/game/mcp"
	"github.com/grue-lab/grue/internal/cli"
	"github.com/grue-lab/grue/web"
)

// webOptions are the flags of grue web.
type webOptions struct {
	addr           string
	runs           string
	experiments    string
	token          string
	noToken        bool
	origins        []string
	endpoints      []string
	maxEpisodes    int
	maxExperiments int
	maxPlay        int
	maxBody        int64
	conn           cli.ConnLimits
}

func newWebCmd() *cobra.Command {
	var o webOptions
	cmd := &cobra.Command{
		Use:   "web [--addr 127.0.0.1:7860] [--runs DIR] [--token T]",
		Short: "The browser workbench: play, run experiments, compare, read trajectories",
		Long: `grue web serves the browser workbench and its HTTP API (docs/api.md) at
http://ADDR/. In the page: play a game with a baseline policy or a model
and watch the steps stream in with a score chart and the map; play by hand;
launch experiments from experiments/ or pasted YAML, follow and resume
them; compare runs with the statistics of grue exp compare; read any
episode step by step, two side by side.

Everything is on disk under --runs: experiments are the run directories
grue exp run writes (the CLI and the page read the same ones), and the
episodes played from the page are in DIR/episodes. A restarted grue web
lists them all again; an experiment it was running is partial, and can be
resumed.

It listens on loopback by default, and every request must carry a token,
as Jupyter asks, since on a shared machine any account can reach loopback
and the workbench launches runs, reads configs and sends prompts to model
servers: $GRUE_SERVE_TOKEN (or --token, which every account on the
machine can read in the command line: it warns), else one generated and
printed at start as the page's address, http://ADDR/?token=TOKEN (open it once;
the page keeps the token in its own origin's storage, never in a cookie,
which every port of the host would get). --no-token turns the token off,
on loopback only. Whatever the token, the API takes changes only from the
page's own origin (scheme, host and port), as JSON, and answers only the
host names it listens as (127.0.0.1, localhost, [::1], the host of
--addr, those of --allow-origin): against pages on other ports and DNS
rebinding. Episodes, experiments and play-by-hand sessions at once are
capped (more get 429), as are request bodies (413) and headers (431), and
slow or idle connections are closed (--header-timeout, --read-timeout,
--conn-idle-timeout). A config pasted into the page or read from a run
folder being resumed may name only the model endpoints the server was
started with (the environment's, or --endpoint URL), read files only
inside --experiments and write only inside --runs; see docs/security.md.`,
		Example: `  grue web
  grue web --runs runs --addr 127.0.0.1:8080
  GRUE_SERVE_TOKEN=$(cat ~/.grue-token) grue web --endpoint http://localhost:11434/v1`,
		Args: cli.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:7860", "the address to listen on")
	f.StringVar(&o.runs, "runs", "runs", "the folder of run directories (and of the page's episodes, DIR/episodes)")
	f.StringVar(&o.experiments, "experiments", "experiments", "the folder of experiment configs the page may launch")
	f.StringVar(&o.token, "token", "", "bearer token every request must carry; prefer $GRUE_SERVE_TOKEN, since a command line is readable by every account (default: generated and printed)")
	f.BoolVar(&o.noToken, "no-token", false, "ask no token (loopback only: any account on this machine can then use the workbench)")
	f.StringSliceVar(&o.origins, "allow-origin", nil, "a browser origin allowed besides the page's own (its host is then taken in the Host header too); repeatable")
	f.StringArrayVar(&o.endpoints, "endpoint", nil, "a model endpoint (base URL) that pasted configs and resumed runs may name besides $OPENAI_BASE_URL's, and send a key variable they name to; repeatable")
	f.IntVar(&o.maxEpisodes, "max-episodes", web.DefaultMaxEpisodes, "most episodes playing at once (more: 429)")
	f.IntVar(&o.maxExperiments, "max-experiments", web.DefaultMaxExperiments, "most experiments running at once (more: 429)")
	f.IntVar(&o.maxPlay, "max-play", web.DefaultMaxPlay, "most live play-by-hand sessions (more: 429, once none idle 30 min can be ended)")
	f.Int64Var(&o.maxBody, "max-body", web.DefaultMaxBody, "largest request body in bytes (larger: 413)")
	o.conn.AddFlags(f, time.Minute, "time to read a whole request, an uploaded story included")
	return cmd
}

// webToken is the token grue web asks of every request: --token, else
// $GRUE_SERVE_TOKEN, else a new one, which is then to be printed (the only
// place it is ever written). With --no-token there is none, which is
// refused beyond loopback.
func (o *webOptions) webToken(ln net.Listener) (token string, generated bool, err error) {
	if o.noToken {
		if o.token != "" {
			return "", false, cli.UsageError{Err: errors.New("--no-token and --token: choose one")}
		}
		if !cli.Loopback(ln.Addr()) {
			return "", false, cli.UsageError{Err: fmt.Errorf("--no-token: %s is beyond loopback, where a token is required", ln.Addr())}
		}
		return "", false, nil
	}
	token = o.token
	if token == "" {
		token = os.Getenv(mcp.TokenEnv)
	}
	if token == "" {
		return mcp.NewToken(), true, nil
	}
	return token, false, nil
}

func (o *webOptions) run(cmd *cobra.Command) error {
	cli.WarnTokenFlag(cmd.ErrOrStderr(), "grue web", cmd.Flags())
	if err := cli.CheckLimits(cli.SizeLimit{Name: "--max-episodes", V: int64(o.maxEpisodes)}, cli.SizeLimit{Name: "--max-experiments", V: int64(o.maxExperiments)},
		cli.SizeLimit{Name: "--max-play", V: int64(o.maxPlay)}, cli.SizeLimit{Name: "--max-body", V: o.maxBody}); err != nil {
		return err
	}
	if err := o.conn.Check(); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	stderr := cmd.ErrOrStderr()
	token, printed, err := o.webToken(ln)
	if err != nil {
		return err
	}
	var hosts []string
	if h, _, err := net.SplitHostPort(o.addr); err == nil && h != "" {
		hosts = append(hosts, h)
	}
	srv, err := web.New(web.Options{Runs: o.runs, Experiments: o.experiments, Token: token, AllowedOrigins: o.origins, Hosts: hosts, Endpoints: o.endpoints,
		MaxEpisodes: o.maxEpisodes, MaxExperiments: o.maxExperiments, MaxPlay: o.maxPlay, MaxBody: o.maxBody, Version: cli.Version()})
	if err != nil {
		return err
	}
	defer srv.Close()
	hs := cli.HTTPServer(srv.Handler(), o.conn)
	url := "http://" + ln.Addr().String() + "/"
	if printed {
		url += "?token=" + token
	}
	fmt.Fprintf(stderr, "grue web: %s (runs in %s)\n", url, o.runs)
	switch {
	case token == "":
		fmt.Fprintf(stderr, "grue web: no token: any account on this machine can use the workbench\n")
	case !printed:
		fmt.Fprintf(stderr, "grue web: open the page as %s?token=TOKEN with the token of --token or $%s\n", "http://"+ln.Addr().String()+"/", mcp.TokenEnv)
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	// Stop the runs first: their event streams end, so Shutdown does not
	// wait on them.
	return cli.ServeHTTP(ctx, hs, ln, func() { srv.Close() })
}
