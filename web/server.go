package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"

	"strings"
	"sync"

	"github.com/grue-lab/grue/internal/lazyregexp"
)

// Defaults of Options.
const (
	DefaultMaxEpisodes    = 8
	DefaultMaxExperiments = 2
	DefaultMaxPlay        = 16
	DefaultMaxBody        = 1 << 20
)

// Options configure a Server. The zero value serves ./runs with the
// default limits and no token.
type Options struct {
	// Runs is the folder of run directories (experiments, as grue exp run
	// writes them) and of the web's own episodes (Runs/episodes).
	Runs string
	// Experiments is the folder of experiment configs that POST
	// /api/experiments may name ("experiments" by default); a config
	// outside it is refused.
	Experiments string
	// Token, when set, must come with every API request: as
	// "Authorization: Bearer TOKEN" or in the TokenHeader header, or, for
	// a GET (an event stream, an image), as the query parameter token.
	// No cookie carries it: a cookie goes to every port of the host.
	Token string
	// AllowedOrigins are browser origins allowed besides the server's
	// own (exactly its scheme, host and port); their hosts are accepted
	// in the Host header too.
	AllowedOrigins []string
	// Endpoints are the model endpoints (base URLs) that configs which
	// come over HTTP (pasted YAML, the manifest of a run resumed) may
	// name besides the environment's, and the only ones to which they
	// may send a key variable of their choosing (api_key_env).
	Endpoints []string
	// Hosts are the names the server answers to in the Host header
	// besides 127.0.0.1, localhost, [::1] and the address a request came
	// in on (the host of grue web --addr): any other is refused, against
	// DNS rebinding.
	Hosts []string
	// MaxEpisodes, MaxExperiments and MaxPlay bound the episodes and
	// experiments running at once and the live play-by-hand sessions;
	// more get 429. MaxBody bounds request bodies (larger: 413).
	MaxEpisodes    int
	MaxExperiments int
	MaxPlay        int
	MaxBody        int64
	// Version is grue's version, stored with what the server runs.
	Version string
}

// Server is grue's browser workbench: the HTTP API of docs/api.md and
// the page that uses it. Everything it runs is written under
// Options.Runs as it goes, so a new Server on the same folder lists it
// all again. Close stops what is running.
type Server struct {
	opts Options
	mux  *http.ServeMux

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	endpoints   trustedEndpoints
	episodes    *episodes
	experiments *experiments
	play        *playSessions
}

// New returns a server over opts.Runs (made when missing). Episodes that
// were running when an earlier server stopped are marked interrupted.
func New(opts Options) (*Server, error) {
	if opts.Runs == "" {
		opts.Runs = "runs"
	}
	if opts.Experiments == "" {
		opts.Experiments = "experiments"
	}
	opts.MaxEpisodes = positiveOr(opts.MaxEpisodes, DefaultMaxEpisodes)
	opts.MaxExperiments = positiveOr(opts.MaxExperiments, DefaultMaxExperiments)
	opts.MaxPlay = positiveOr(opts.MaxPlay, DefaultMaxPlay)
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if err := os.MkdirAll(filepath.Join(opts.Runs, EpisodesDir), 0o755); err != nil {
		return nil, fmt.Errorf("grue web: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{opts: opts, ctx: ctx, cancel: cancel, endpoints: newTrustedEndpoints(opts)}
	var err error
	if s.episodes, err = loadEpisodes(s); err != nil {
		cancel()
		return nil, err
	}
	s.experiments = newExperiments(s)
	s.play = newPlaySessions(opts.MaxPlay)
	s.routes()
	// Read the run directories once in the background, so that the first
	// page load finds their summaries cached.
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.experiments.warm()
	}()
	return s, nil
}

func positiveOr(n, def int) int {
	if n > 0 {
		return n
	}
	return def
}

// Close stops the episodes and experiments in flight and waits for them
// to write what they have: an experiment stopped so is partial, and can be
// resumed by the next server. It writes the runs' summaries to
// [SummariesFile].
func (s *Server) Close() error {
	s.cancel()
	s.wg.Wait()
	// The summaries of runs read since start are kept for the next one;
	// failing to keep them costs only a slower first list there.
	_ = s.experiments.saveSummaries()
	return nil
}

// Handler returns the server's HTTP handler: the API under /api/ and the
// page at /, behind the Origin and token checks and the body limit.
func (s *Server) Handler() http.Handler { return s.guard(s.mux) }

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /api/games", s.listGames)
	m.HandleFunc("POST /api/games", s.uploadGame)
	m.HandleFunc("POST /api/episodes", s.startEpisode)
	m.HandleFunc("GET /api/episodes", s.listEpisodes)
	m.HandleFunc("GET /api/episodes/{id}", s.getEpisode)
	m.HandleFunc("DELETE /api/episodes/{id}", s.stopEpisode)
	m.HandleFunc("GET /api/episodes/{id}/events", s.episodeEvents)
	m.HandleFunc("GET /api/episodes/{id}/trajectory", s.episodeTrajectory)
	m.HandleFunc("POST /api/experiments", s.launchExperiment)
	m.HandleFunc("GET /api/experiments", s.listExperiments)
	m.HandleFunc("GET /api/experiments/compare", s.compareExperiments)
	m.HandleFunc("GET /api/experiments/compare/plot", s.plotExperiments)
	m.HandleFunc("GET /api/experiments/{id}", s.getExperiment)
	m.HandleFunc("POST /api/experiments/{id}/resume", s.resumeExperiment)
	m.HandleFunc("DELETE /api/experiments/{id}", s.stopExperiment)
	m.HandleFunc("GET /api/experiments/{id}/trajectory", s.experimentTrajectory)
	m.HandleFunc("GET /api/configs", s.listConfigs)
	m.HandleFunc("POST /api/play", s.startPlay)
	m.HandleFunc("GET /api/play/{id}", s.getPlay)
	m.HandleFunc("POST /api/play/{id}", s.playCommand)
	m.HandleFunc("POST /api/play/{id}/undo", s.playUndo)
	m.HandleFunc("DELETE /api/play/{id}", s.endPlay)
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "", "no such endpoint: %s %s (see docs/api.md)", r.Method, r.URL.Path)
	})
	m.Handle("/", assetHandler())
	s.mux = m
}

// apiError is the body of every error answer: what is wrong and, when a
// field of the request is to blame, which.
type apiError struct {
	Error string `json:"error"`
	Field string `json:"field,omitempty"`
}

// writeError answers status with an apiError naming field.
func writeError(w http.ResponseWriter, status int, field, format string, args ...any) {
	writeJSON(w, status, apiError{Error: fmt.Sprintf(format, args...), Field: field})
}

// writeJSON answers status with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // the client went away: nothing to tell
}

// decodeBody reads the JSON object of r's body into v, refusing unknown
// fields and trailing text. On failure it has answered (400, or 413 for a
// body over the limit) and returns false.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("text after the JSON object")
	}
	if err == nil {
		return true
	}
	var tooBig *http.MaxBytesError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &tooBig):
		tooLarge(w, tooBig.Limit)
	case errors.As(err, &typeErr):
		writeError(w, http.StatusBadRequest, typeErr.Field, "field %s: want %s, not a JSON %s", typeErr.Field, jsonKind(typeErr.Type), typeErr.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		writeError(w, http.StatusBadRequest, name, "unknown field %q (see docs/api.md)", name)
	case errors.Is(err, io.EOF):
		writeError(w, http.StatusBadRequest, "body", "the request has no body: send a JSON object")
	default:
		writeError(w, http.StatusBadRequest, "body", "the body is not a JSON object: %v", err)
	}
	return false
}

// tooLarge answers 413 for a body over the limit: announced
// (Content-Length, refused unread) or not (chunked, refused once the
// limit is passed).
func tooLarge(w http.ResponseWriter, limit int64) {
	writeError(w, http.StatusRequestEntityTooLarge, "body", "the request body is over the limit of %d bytes (grue web --max-body)", limit)
}

// jsonKind names the JSON a Go type is read from: "a number", "a string"...
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
		reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	default:
		return "an object"
	}
}

// idPattern is what an episode's, experiment's or session's id may be:
// it names a folder, so no separators and no dot-only names.
var idPattern = lazyregexp.New(`^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$`)

// pathID returns the {id} of r, or answers 400 and returns false when it
// cannot name a folder.
func pathID(w http.ResponseWriter, r *http.Request) (string, bool) {
	id := r.PathValue("id")
	if !idPattern.MatchString(id) {
		writeError(w, http.StatusBadRequest, "id", "%q is not an id: letters, digits, '.', '_' and '-'", id)
		return "", false
	}
	return id, true
}

// busy answers 429: a limit of things running at once is reached.
func busy(w http.ResponseWriter, what string, limit int) {
	w.Header().Set("Retry-After", "10")
	writeError(w, http.StatusTooManyRequests, "", "%d %s are running, the limit: wait for one to end, or stop one", limit, what)
}
