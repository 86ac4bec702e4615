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

	"github.com/grue-lab/grue/web"
)

// webOptions are the flags of grue web.
type webOptions struct {
	addr           string
	runs           string
	experiments    string
	token          string
	origins        []string
	maxEpisodes    int
	maxExperiments int
	maxBody        int64
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

It listens on loopback by default. Bound beyond it, every request must
carry a token, as grue serve --http asks: --token, else $GRUE_SERVE_TOKEN,
else one generated and printed at start; open the page as
http://ADDR/?token=TOKEN once. Episodes and experiments running at once are
capped (more get 429), as are request bodies (413).`,
		Example: `  grue web
  grue web --runs runs --addr 127.0.0.1:8080`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:7860", "the address to listen on")
	f.StringVar(&o.runs, "runs", "runs", "the folder of run directories (and of the page's episodes, DIR/episodes)")
	f.StringVar(&o.experiments, "experiments", "experiments", "the folder of experiment configs the page may launch")
	f.StringVar(&o.token, "token", "", "bearer token every request must carry (default $GRUE_SERVE_TOKEN; generated off loopback)")
	f.StringSliceVar(&o.origins, "allow-origin", nil, "a browser origin allowed besides this machine's; repeatable")
	f.IntVar(&o.maxEpisodes, "max-episodes", web.DefaultMaxEpisodes, "most episodes playing at once (more: 429)")
	f.IntVar(&o.maxExperiments, "max-experiments", web.DefaultMaxExperiments, "most experiments running at once (more: 429)")
	f.Int64Var(&o.maxBody, "max-body", web.DefaultMaxBody, "largest request body in bytes (larger: 413)")
	return cmd
}

func (o *webOptions) run(cmd *cobra.Command) error {
	if o.maxEpisodes <= 0 || o.maxExperiments <= 0 || o.maxBody <= 0 {
		return usageError{errors.New("--max-episodes, --max-experiments and --max-body must be positive")}
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	stderr := cmd.ErrOrStderr()
	token := listenToken("grue web", o.token, ln, stderr)
	srv, err := web.New(web.Options{Runs: o.runs, Experiments: o.experiments, Token: token, AllowedOrigins: o.origins,
		MaxEpisodes: o.maxEpisodes, MaxExperiments: o.maxExperiments, MaxBody: o.maxBody, Version: Version()})
	if err != nil {
		return err
	}
	defer srv.Close()
	hs := &http.Server{Handler: srv.Handler(), ReadTimeout: time.Minute, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	url := "http://" + ln.Addr().String() + "/"
	if token != "" && !loopback(ln.Addr()) {
		url += "?token=" + token
	}
	fmt.Fprintf(stderr, "grue web: %s (runs in %s)\n", url, o.runs)
	ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Stop the runs first: their event streams end, so Shutdown does not
	// wait on them.
	srv.Close()
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shut); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
