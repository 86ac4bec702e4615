package web

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/grue-lab/grue/agent"
	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/llm/openai"
	"github.com/grue-lab/grue/game/mcp"
	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/harness"
	"github.com/grue-lab/grue/internal/atomicfile"
	"github.com/grue-lab/grue/internal/boundedfile"
	"github.com/grue-lab/grue/internal/jsonms"
)

// EpisodesDir is the folder under Options.Runs that holds the episodes
// started from the page or POST /api/episodes, one folder each:
// episode.json (EpisodeInfo, rewritten as it changes), steps.jsonl (each
// agent.Step, appended as the step ends) and, once it is over,
// trajectory.json (a harness.Trajectory, as an experiment writes) and
// map.json (the map it ended with).
const EpisodesDir = "episodes"

// Files of an episode's folder.
const (
	episodeFile    = "episode.json"
	stepsFile      = "steps.jsonl"
	trajectoryFile = "trajectory.json"
	mapFile        = "map.json"
)

// Episode states.
const (
	StatusRunning     = "running"
	StatusComplete    = "complete"    // the game ended or the step limit was reached
	StatusStopped     = "stopped"     // DELETE /api/episodes/{id}
	StatusFailed      = "failed"      // a step failed (the model could not be reached)
	StatusInterrupted = "interrupted" // the server stopped while it ran
)

// EpisodeRequest is the body of POST /api/episodes: the game and who
// plays it, a baseline policy or a model with the agent's settings. Only
// Game and Policy or Model matter; the rest take grue agent's defaults.
type EpisodeRequest struct {
	Game         string   `json:"game,omitempty"`
	Policy       string   `json:"policy,omitempty"`
	Model        string   `json:"model,omitempty"`
	BaseURL      string   `json:"base_url,omitempty"`
	Seed         *int64   `json:"seed,omitempty"`
	Steps        int      `json:"steps,omitempty"`
	Protocol     string   `json:"protocol,omitempty"`
	Memory       string   `json:"memory,omitempty"`
	Window       int      `json:"window,omitempty"`
	Tools        []string `json:"tools,omitempty"`
	SystemPrompt string   `json:"system_prompt,omitempty"`
	Temperature  *float64 `json:"temperature,omitempty"`
	MaxTokens    int      `json:"max_tokens,omitempty"`
}

// EpisodeInfo is an episode as GET /api/episodes/{id} gives it: the
// RunResult's fields (final_score, max_score, moves, game_completed,
// victory, ...) so far, and its status.
type EpisodeInfo struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Game   string `json:"game"`
	Seed   int64  `json:"seed"`
	Policy string `json:"policy"`
	Model  string `json:"model,omitempty"`
	// BaseURL is the model's endpoint, credentials masked; GrueVersion
	// and GrueRevision the grue that played (harness.BuildRevision);
	// PriceSource where Cost's price comes from (harness.PriceSourceOf:
	// "unknown" for a model with no known price, whose cost is unknown,
	// not 0). Episodes saved before these were recorded have none.
	BaseURL      string         `json:"base_url,omitempty"`
	GrueVersion  string         `json:"grue_version,omitempty"`
	GrueRevision string         `json:"grue_revision,omitempty"`
	PriceSource  string         `json:"price_source,omitempty"`
	MaxSteps     int            `json:"max_steps"`
	Request      EpisodeRequest `json:"request"`
	Created      time.Time      `json:"created"`
	Finished     *time.Time     `json:"finished,omitempty"`

	FinalScore       int       `json:"final_score"`
	MaxScore         int       `json:"max_score"`
	Moves            int       `json:"moves"`
	LocationsVisited int       `json:"locations_visited"`
	Locations        []string  `json:"locations"`
	GameCompleted    bool      `json:"game_completed"`
	Victory          bool      `json:"victory"`
	Steps            int       `json:"steps"`
	Tokens           llm.Usage `json:"tokens"`
	Cost             float64   `json:"cost"`
	StoppedBy        string    `json:"stopped_by,omitempty"`
	Error            string    `json:"error,omitempty"`
}

// episode is one episode the server knows: live (log set while it
// plays) or read back from disk.
type episode struct {
	dir string

	mu      sync.Mutex
	info    EpisodeInfo
	log     *eventLog // the live events; nil once the episode is over (replayed from disk)
	cancel  context.CancelFunc
	stopped bool // DELETE asked it to stop
}

// snapshot returns a copy of the episode's info.
func (e *episode) snapshot() EpisodeInfo {
	e.mu.Lock()
	defer e.mu.Unlock()
	i := e.info
	i.Locations = slices.Clone(i.Locations)
	return i
}

// save writes the episode's info, atomically.
func (e *episode) save() error {
	info := e.snapshot()
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return fmt.Errorf("episode %s: %w", info.ID, err)
	}
	return atomicfile.Write(filepath.Join(e.dir, episodeFile), append(b, '\n'), 0o644)
}

// episodes are all the episodes of the server, live and past.
type episodes struct {
	s       *Server
	mu      sync.Mutex
	byID    map[string]*episode
	running int
}

// loadEpisodes reads the episodes under Runs/episodes. One that was
// running when its server stopped is marked interrupted.
func loadEpisodes(s *Server) (*episodes, error) {
	es := &episodes{s: s, byID: map[string]*episode{}}
	root := filepath.Join(s.opts.Runs, EpisodesDir)
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("grue web: episodes: %w", err)
	}
	for _, d := range ents {
		if !d.IsDir() || !idPattern.MatchString(d.Name()) {
			continue
		}
		e := &episode{dir: filepath.Join(root, d.Name())}
		// A run folder is input: a file that is no regular file (a
		// named pipe, a link to a device) or is out of bounds is no
		// episode, and does not keep the others from loading.
		b, err := boundedfile.ReadFileIn(e.dir, episodeFile, maxEpisodeFile)
		if err != nil || json.Unmarshal(b, &e.info) != nil || e.info.ID != d.Name() {
			continue // not an episode, or one cut short before its first write
		}
		if e.info.Status == StatusRunning {
			e.info.Status = StatusInterrupted
			if err := e.save(); err != nil {
				return nil, fmt.Errorf("grue web: %w", err)
			}
		}
		es.byID[e.info.ID] = e
	}
	return es, nil
}

// get returns the episode id, or answers 404.
func (es *episodes) get(w http.ResponseWriter, id string) (*episode, bool) {
	es.mu.Lock()
	defer es.mu.Unlock()
	e, ok := es.byID[id]
	if !ok {
		writeError(w, http.StatusNotFound, "id", "no episode %q", id)
	}
	return e, ok
}

// newID returns a new id: the time and 6 random hex digits, so that ids
// sort by time and never collide.
func newID(t time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read does not fail
	return t.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// episodeConfig is the one-episode experiment a request describes, so
// that harness validates it and builds its agent as an experiment does.
// The error names the request's field.
func episodeConfig(req *EpisodeRequest) (*harness.Config, *apiError) {
	if req.Game == "" {
		req.Game = stories.DefaultName
	}
	req.Policy = strings.ToLower(strings.TrimSpace(req.Policy))
	switch {
	case req.Policy == "" && req.Model == "" && req.BaseURL == "":
		return nil, &apiError{Field: "policy", Error: "say who plays: a policy (" + strings.Join(harness.PolicyNames(), ", ") + ") or a model"}
	case req.Policy == "":
		req.Policy = harness.PolicyLLM
	case req.Policy != harness.PolicyLLM && (req.Model != "" || req.BaseURL != ""):
		return nil, &apiError{Field: "model", Error: fmt.Sprintf("policy %s plays without a model: give a model or a baseline policy, not both", req.Policy)}
	}
	seed := int64(1)
	if req.Seed != nil {
		seed = *req.Seed
	}
	if req.Steps < 0 {
		return nil, &apiError{Field: "steps", Error: fmt.Sprintf("steps must be positive, not %d", req.Steps)}
	}
	v := harness.Variant{Name: req.Policy, Policy: req.Policy, Model: req.Model, BaseURL: req.BaseURL,
		Protocol: req.Protocol, Memory: req.Memory, Window: req.Window, Tools: req.Tools,
		SystemPrompt: req.SystemPrompt, Temperature: req.Temperature, MaxTokens: req.MaxTokens}
	cfg := &harness.Config{Name: "web", Variants: []harness.Variant{v}, Games: []string{req.Game},
		Seeds: []int64{seed}, MaxSteps: req.Steps}
	if err := cfg.Validate(); err != nil {
		return nil, fieldError(err)
	}
	return cfg, nil
}

// fieldError turns a config's validation error into an apiError naming
// the request's field (variants[0].memory is memory, games[0] is game).
func fieldError(err error) *apiError {
	var fe *harness.FieldError
	if !errors.As(err, &fe) {
		return &apiError{Error: err.Error()}
	}
	field := fe.Field
	if i := strings.Index(field, "]."); strings.HasPrefix(field, "variants[") && i > 0 {
		field = field[i+2:]
	}
	switch {
	case strings.HasPrefix(field, "games"):
		field = "game"
	case field == "max_steps":
		field = "steps"
	case strings.HasPrefix(field, "seeds"):
		field = "seed"
	}
	return &apiError{Field: field, Error: fe.Msg}
}

func (s *Server) startEpisode(w http.ResponseWriter, r *http.Request) {
	var req EpisodeRequest
	if !decodeBody(w, r, &req) {
		return
	}
	cfg, bad := episodeConfig(&req)
	if bad != nil {
		writeJSON(w, http.StatusBadRequest, bad)
		return
	}
	es := s.episodes
	es.mu.Lock()
	if es.running >= s.opts.MaxEpisodes {
		es.mu.Unlock()
		busy(w, "episodes", s.opts.MaxEpisodes)
		return
	}
	es.running++
	es.mu.Unlock()
	e, err := s.launchEpisode(cfg, req)
	if err != nil {
		es.mu.Lock()
		es.running--
		es.mu.Unlock()
		field := "game"
		if req.Policy == harness.PolicyLLM {
			field = "model"
		}
		if errors.Is(err, openai.ErrNoModel) {
			// Never a baseline in the model's place: say how to name one here.
			writeError(w, http.StatusBadRequest, "model", "%v; on the Play page, give the model's name (model)", err)
			return
		}
		writeError(w, http.StatusBadRequest, field, "%v", err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"id": e.info.ID})
}

// launchEpisode starts the episode of cfg in the background, its folder
// written before it returns.
func (s *Server) launchEpisode(cfg *harness.Config, req EpisodeRequest) (*episode, error) {
	spec := cfg.Episodes()[0]
	ctx, cancel := context.WithCancel(s.ctx)
	ep, err := harness.StartEpisode(ctx, cfg, spec, s.opts.Version)
	if err != nil {
		cancel()
		return nil, err
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	id := newID(now)
	e := &episode{dir: filepath.Join(s.opts.Runs, EpisodesDir, id), log: newEventLog(), cancel: cancel}
	ran := ep.Record()
	req.BaseURL = llm.RedactURL(req.BaseURL) // the record keeps no key
	e.info = EpisodeInfo{ID: id, Status: StatusRunning, Game: spec.Game, Seed: spec.Seed, Policy: req.Policy,
		Model: ep.Agent.Model, BaseURL: ran.BaseURL, GrueVersion: ran.GrueVersion, GrueRevision: ran.GrueRevision, PriceSource: ran.PriceSource,
		MaxSteps: cfg.Steps(), Request: req, Created: now, Locations: []string{}}
	err = os.MkdirAll(e.dir, 0o755)
	if err == nil {
		err = e.save()
	}
	if err != nil {
		ep.Close()
		cancel()
		return nil, fmt.Errorf("episode folder: %w", err)
	}
	s.episodes.mu.Lock()
	s.episodes.byID[id] = e
	s.episodes.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		s.playEpisode(ctx, e, ep, cfg.Steps())
	}()
	return e, nil
}

// playEpisode plays ep to its end, writing each step as it ends and
// telling the subscribers, then writes the trajectory and the result.
func (s *Server) playEpisode(ctx context.Context, e *episode, ep *harness.Episode, steps int) {
	defer func() {
		s.episodes.mu.Lock()
		s.episodes.running--
		s.episodes.mu.Unlock()
	}()
	defer ep.Close()
	f, err := os.OpenFile(filepath.Join(e.dir, stepsFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		e.finish(nil, fmt.Errorf("steps file: %w", err), s.ctx)
		return
	}
	defer f.Close()
	var total llm.Usage
	var cost float64
	ep.Agent.OnStep = func(st *agent.Step) {
		ended := time.Now()
		b, err := json.Marshal(st)
		if err == nil {
			_, err = f.Write(append(b, '\n'))
		}
		if err != nil {
			e.mu.Lock()
			e.info.Error = fmt.Sprintf("writing step %d: %v", st.Step, err)
			e.mu.Unlock()
		}
		total.PromptTokens += st.Usage.PromptTokens
		total.CompletionTokens += st.Usage.CompletionTokens
		total.TotalTokens += st.Usage.TotalTokens
		cost += st.Cost
		ev := newStepEvent(st, total, cost, ended)
		ev.Map = mapOf(ctx, ep)
		e.progress(st, total, cost)
		data, _ := json.Marshal(ev) // plain data
		e.log.add(event{id: st.Step, kind: "step", data: data})
	}
	res, runErr := ep.Run(ctx, steps)
	if res != nil {
		t := harness.Trajectory{Variant: ep.Variant, Game: ep.Game, Seed: ep.Seed, LLMSeed: ep.LLMSeed, Attempts: 1, RunResult: res}
		if b, err := json.MarshalIndent(t, "", "  "); err == nil {
			if werr := atomicfile.Write(filepath.Join(e.dir, trajectoryFile), append(b, '\n'), 0o644); werr != nil && runErr == nil {
				runErr = werr
			}
		}
	}
	// The map as the episode left it, for replays from disk.
	if b, err := json.Marshal(mapOf(context.Background(), ep)); err == nil {
		_ = atomicfile.Write(filepath.Join(e.dir, mapFile), b, 0o644) // a replay without a map is no failure
	}
	e.finish(res, runErr, s.ctx)
}

// progress updates the info with a step that ended.
func (e *episode) progress(st *agent.Step, total llm.Usage, cost float64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	i := &e.info
	i.Steps = st.Step
	i.FinalScore, i.Moves = st.Score, st.Moves
	if st.MaxScore > 0 {
		i.MaxScore = st.MaxScore
	}
	if st.Location != "" && !slices.Contains(i.Locations, st.Location) {
		i.Locations = append(i.Locations, st.Location)
		i.LocationsVisited = len(i.Locations)
	}
	i.GameCompleted, i.Victory = i.GameCompleted || st.Done, i.Victory || st.Victory
	i.Tokens, i.Cost = total, cost
}

// finish records how the episode ended, writes its info and closes its
// event log with the "end" event. server is the server's context: when
// it is done, the server is stopping and the episode was interrupted.
func (e *episode) finish(res *agent.RunResult, err error, server context.Context) {
	now := time.Now().UTC().Truncate(time.Millisecond)
	e.mu.Lock()
	i := &e.info
	i.Finished = &now
	if res != nil {
		i.FinalScore, i.MaxScore, i.Moves = res.FinalScore, res.MaxScore, res.Moves
		i.LocationsVisited, i.Locations = res.LocationsVisited, slices.Clone(res.Locations)
		i.GameCompleted, i.Victory, i.Steps = res.GameCompleted, res.Victory, res.Steps
		i.Tokens, i.Cost, i.StoppedBy = res.Tokens, res.Cost, res.StoppedBy
		if res.Error != "" && !errors.Is(err, context.Canceled) {
			i.Error = res.Error
		}
	}
	switch {
	case e.stopped:
		i.Status = StatusStopped
	case server.Err() != nil:
		i.Status = StatusInterrupted
	case err != nil && !errors.Is(err, context.Canceled):
		i.Status, i.Error = StatusFailed, err.Error()
	case i.Error != "":
		i.Status = StatusFailed
	default:
		i.Status = StatusComplete
	}
	e.mu.Unlock()
	if serr := e.save(); serr != nil {
		e.mu.Lock()
		e.info.Error = strings.TrimSpace(e.info.Error + "; " + serr.Error())
		e.mu.Unlock()
	}
	data, _ := json.Marshal(e.snapshot()) // plain data
	e.log.close(event{kind: "end", data: data})
	// Subscribers streaming now keep the log; later ones replay the
	// episode from disk, so a server that plays many episodes does not
	// hold them all.
	e.mu.Lock()
	e.log = nil
	e.mu.Unlock()
}

// stepEvent is the data of a "step" event: what the page shows of a step
// as it ends. Tokens and Cost are the step's, TotalTokens and TotalCost
// the episode's so far; EndedMS is when the step ended (Unix
// milliseconds), so a client can tell how late the event came: absent
// from a replayed step, whose end time the steps file does not keep.
type stepEvent struct {
	Step        int            `json:"step"`
	Thought     string         `json:"thought,omitempty"`
	Tool        string         `json:"tool"`
	Args        map[string]any `json:"args,omitempty"`
	Repairs     []agent.Repair `json:"repairs,omitempty"`
	Observation string         `json:"observation"`
	Reward      int            `json:"reward"`
	Score       int            `json:"score"`
	MaxScore    int            `json:"max_score"`
	Moves       int            `json:"moves"`
	Location    string         `json:"location,omitempty"`
	Done        bool           `json:"done,omitempty"`
	Victory     bool           `json:"victory,omitempty"`
	Error       string         `json:"error,omitempty"`
	Tokens      llm.Usage      `json:"tokens"`
	Cost        float64        `json:"cost"`
	TotalTokens int            `json:"total_tokens"`
	TotalCost   float64        `json:"total_cost"`
	WallMS      float64        `json:"wall_ms"`
	EndedMS     *float64       `json:"ended_ms,omitempty"`
	Map         any            `json:"map,omitempty"`
}

// newStepEvent is st's event. Its wall_ms is the step's own, rounded to
// the microsecond as in the trajectory's JSON.
func newStepEvent(st *agent.Step, total llm.Usage, cost float64, ended time.Time) stepEvent {
	var endedMS *float64
	if !ended.IsZero() {
		ms := float64(ended.UnixMicro()) / 1000
		endedMS = &ms
	}
	return stepEvent{Step: st.Step, Thought: st.Thought, Tool: st.Tool, Args: st.Args, Repairs: st.Repairs,
		Observation: st.Observation, Reward: st.Reward, Score: st.Score, MaxScore: st.MaxScore, Moves: st.Moves,
		Location: st.Location, Done: st.Done, Victory: st.Victory, Error: st.Error, Tokens: st.Usage, Cost: st.Cost,
		TotalTokens: total.TotalTokens, TotalCost: cost, WallMS: jsonms.Millis(st.Wall),
		EndedMS: endedMS}
}

// mapOf asks the episode's game for its map (get_map's structured
// content: rooms with their exits, and the current room); nil when the
// game cannot say.
func mapOf(ctx context.Context, ep *harness.Episode) any {
	res, err := ep.Client.CallTool(ctx, mcp.ToolGetMap, nil)
	if err != nil || res.IsError {
		return nil
	}
	return map[string]any{"rooms": res.Structured["rooms"], "current": res.Structured["current"]}
}

func (s *Server) listEpisodes(w http.ResponseWriter, r *http.Request) {
	s.episodes.mu.Lock()
	list := make([]*episode, 0, len(s.episodes.byID))
	for _, e := range s.episodes.byID {
		list = append(list, e)
	}
	s.episodes.mu.Unlock()
	out := make([]EpisodeInfo, 0, len(list))
	for _, e := range list {
		out = append(out, e.snapshot())
	}
	slices.SortFunc(out, func(a, b EpisodeInfo) int { return b.Created.Compare(a.Created) })
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) getEpisode(w http.ResponseWriter, r *http.Request) {
	if e, _, ok := s.episodeOf(w, r); ok {
		writeJSON(w, http.StatusOK, e.snapshot())
	}
}

// episodeOf returns the episode that the request's {id} names, and the
// id; when there is none it has answered the request itself (400 for a
// bad id, 404 for an unknown one).
func (s *Server) episodeOf(w http.ResponseWriter, r *http.Request) (*episode, string, bool) {
	id, ok := pathID(w, r)
	if !ok {
		return nil, "", false
	}
	e, ok := s.episodes.get(w, id)
	return e, id, ok
}

func (s *Server) stopEpisode(w http.ResponseWriter, r *http.Request) {
	e, id, ok := s.episodeOf(w, r)
	if !ok {
		return
	}
	e.mu.Lock()
	live := e.info.Status == StatusRunning && e.cancel != nil
	if live {
		e.stopped = true
		e.cancel()
	}
	e.mu.Unlock()
	if !live {
		writeError(w, http.StatusConflict, "id", "episode %s is not running (it is %s)", id, e.snapshot().Status)
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]string{"id": id, "status": "stopping"})
}

func (s *Server) episodeEvents(w http.ResponseWriter, r *http.Request) {
	e, _, ok := s.episodeOf(w, r)
	if !ok {
		return
	}
	e.mu.Lock()
	log := e.log
	e.mu.Unlock()
	if log == nil {
		var err error
		if log, err = e.pastEvents(); err != nil {
			writeError(w, http.StatusInternalServerError, "", "%v", err)
			return
		}
	}
	log.serve(s.ctx, w, r)
}

// pastEvents rebuilds the events of an episode that is over, from its
// steps file and its info; only the last step carries a map, the one the
// episode ended with.
func (e *episode) pastEvents() (*eventLog, error) {
	steps, err := readSteps(e.dir)
	if err != nil {
		return nil, err
	}
	l := newEventLog()
	var total llm.Usage
	var cost float64
	var lastMap any
	if b, err := boundedfile.ReadFileIn(e.dir, mapFile, maxMapFile); err == nil {
		_ = json.Unmarshal(b, &lastMap) // no map is a replay without one
	}
	for i := range steps {
		st := &steps[i]
		total.TotalTokens += st.Usage.TotalTokens
		cost += st.Cost
		ev := newStepEvent(st, total, cost, time.Time{})
		if i == len(steps)-1 {
			ev.Map = lastMap
		}
		data, _ := json.Marshal(ev)
		l.add(event{id: st.Step, kind: "step", data: data})
	}
	data, _ := json.Marshal(e.snapshot())
	l.close(event{kind: "end", data: data})
	return l, nil
}

// Bounds of what an episode's folder may hold, read as input: its info
// file, its last map, and each line of its steps file.
const (
	maxEpisodeFile = 4 << 20
	maxMapFile     = 16 << 20
	maxStepLine    = 16 << 20
)

// readSteps reads the steps file of the episode in dir; a last line cut
// short by a crash is left out, and so is a line longer than
// maxStepLine. A missing file is no steps.
func readSteps(dir string) ([]agent.Step, error) {
	f, err := boundedfile.OpenIn(dir, stepsFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read steps: %w", err)
	}
	defer f.Close()
	var out []agent.Step
	lr := boundedfile.NewLineReader(f, maxStepLine)
	for {
		line, err := lr.Line()
		if err == io.EOF {
			return out, nil
		}
		if errors.Is(err, boundedfile.ErrLineTooLong) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read steps: %w", err)
		}
		var st agent.Step
		if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(line, &st) != nil {
			continue
		}
		out = append(out, st)
	}
}

func (s *Server) episodeTrajectory(w http.ResponseWriter, r *http.Request) {
	e, id, ok := s.episodeOf(w, r)
	if !ok {
		return
	}
	steps, err := readSteps(e.dir)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "", "%v", err)
		return
	}
	i := e.snapshot()
	if steps == nil {
		steps = []agent.Step{}
	}
	t := harness.Trajectory{Variant: i.Policy, Game: i.Game, Seed: i.Seed, Attempts: 1, RunResult: &agent.RunResult{
		FinalScore: i.FinalScore, MaxScore: i.MaxScore, Moves: i.Moves, LocationsVisited: i.LocationsVisited, Locations: i.Locations,
		GameCompleted: i.GameCompleted, Victory: i.Victory, Error: i.Error, Steps: len(steps), Tokens: i.Tokens,
		Cost: i.Cost, StoppedBy: i.StoppedBy, History: steps}}
	writeJSON(w, http.StatusOK, trajectoryView{Title: "episode " + id, Status: i.Status, Policy: i.Policy, Model: i.Model, PriceSource: i.PriceSource, Trajectory: t})
}

// trajectoryView is what the trajectory endpoints give: a title for the
// viewer, the episode's status, and its trajectory file's content.
type trajectoryView struct {
	Title  string `json:"title"`
	Status string `json:"status"`
	// Policy is what played: "llm" for a model, else the baseline
	// ("random", "walkthrough", "explorer"); "" when the record predates
	// it.
	Policy string `json:"policy,omitempty"`
	// Model is the model that played, "" for a baseline or when the
	// endpoint does not say.
	Model string `json:"model,omitempty"`
	// PriceSource says where the costs' price came from
	// (harness.EpisodeRecord.PriceSource): "unknown" when the model has
	// no known price, so its costs are unknown, not $0.
	PriceSource string `json:"price_source,omitempty"`
	harness.Trajectory
}

// trajectoryViewHead is a trajectoryView without its trajectory.
type trajectoryViewHead struct {
	Title       string `json:"title"`
	Status      string `json:"status"`
	Policy      string `json:"policy,omitempty"`
	Model       string `json:"model,omitempty"`
	PriceSource string `json:"price_source,omitempty"`
}

// UnmarshalJSON reads what MarshalJSON writes.
func (v *trajectoryView) UnmarshalJSON(b []byte) error {
	var h trajectoryViewHead
	if err := json.Unmarshal(b, &h); err != nil {
		return err
	}
	var t harness.Trajectory
	if err := json.Unmarshal(b, &t); err != nil {
		return err
	}
	*v = trajectoryView{Title: h.Title, Status: h.Status, Policy: h.Policy, Model: h.Model, PriceSource: h.PriceSource, Trajectory: t}
	return nil
}

// MarshalJSON writes the view as one object: title and status, then the
// trajectory's fields. Without it the embedded Trajectory's MarshalJSON
// would be the view's, and title and status would be lost.
func (v trajectoryView) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(trajectoryViewHead{v.Title, v.Status, v.Policy, v.Model, v.PriceSource})
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(v.Trajectory)
	if err != nil {
		return nil, err
	}
	if len(body) < 2 || body[0] != '{' {
		return nil, fmt.Errorf("trajectory view: the trajectory is not a JSON object")
	}
	if string(body) == "{}" {
		return head, nil
	}
	return append(append(head[:len(head)-1:len(head)-1], ','), body[1:]...), nil
}
