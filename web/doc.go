// Package web is grue's browser workbench: the HTTP API that grue web
// serves (documented in docs/api.md) and the page that uses it, plain
// HTML, CSS and JavaScript embedded in the binary.
//
// A [Server] plays episodes ([EpisodeRequest]; each step is sent as a
// Server-Sent Event as it ends, and written to disk), runs experiments
// into the run directories that grue exp reads ([ExperimentRequest]),
// compares them with [github.com/grue-lab/grue/harness.Compare], serves
// trajectories step by step, and lets a person play by hand. Episodes are
// built with [github.com/grue-lab/grue/harness.StartEpisode] and
// experiments run with [github.com/grue-lab/grue/harness.Run], so the
// page and the command line play and read the same things the same way.
// Everything lives under [Options].Runs, so a new Server lists all that
// an earlier one ran.
//
//	srv, err := web.New(web.Options{Runs: "runs"})
//	defer srv.Close()
//	http.ListenAndServe("127.0.0.1:7860", srv.Handler())
package web
