package game

import (
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/grue-lab/grue/game/glk"
	"github.com/grue-lab/grue/game/glulx"
	"github.com/grue-lab/grue/internal/boundedfile"
	"github.com/grue-lab/grue/internal/lazyregexp"
)

// GlulxStory is a Glulx story file (a .ulx image, or a Blorb file holding
// one) loaded once for starting games of it with [NewGlulx]. Its bytes
// are never written.
type GlulxStory struct {
	data []byte
	sum  uint64 // FNV-1a of data, to tell a state of another story
	// inform reports that the story was compiled by Inform (the "Info"
	// block Inform writes after the header): only then is the status
	// window's left part taken for the room.
	inform bool

	// mu guards found: how the first game of the story found its score,
	// for the games started after it (the counters' addresses are the
	// story's, whatever the seed).
	mu    sync.Mutex
	found *glulxFound

	// treeOnce finds tree, the story's object list (glulxTreeOf).
	treeOnce sync.Once
	tree     *glulxTree
}

// glulxFound is what glulxScoring found of a story.
type glulxFound struct {
	scoring                       Scoring
	scoreAddr, turnsAddr, endAddr uint32
}

// ErrGlulxStory is returned (wrapped) by [LoadStory] for a Glulx story:
// it is not a Z-machine story; [LoadGlulxStory] loads it.
var ErrGlulxStory = errors.New("a Glulx story (load it with LoadGlulxStory)")

// errGlulxNA is what the Z-machine-only features say of a Glulx game.
var errGlulxNA = errors.New("not available for Glulx stories yet")

// IsGlulx reports whether data is a Glulx story file (a .ulx image, or a
// Blorb file whose game is Glulx).
func IsGlulx(data []byte) bool {
	_, _, err := glulx.StoryBytes(data)
	return err == nil
}

// NewGlulxStory checks that data is a Glulx story with a sound header and
// keeps it (data must not be changed afterwards).
func NewGlulxStory(data []byte) (*GlulxStory, error) {
	image, _, err := glulx.StoryBytes(data)
	if err != nil {
		return nil, err
	}
	if _, err := glulx.ParseHeader(image); err != nil {
		return nil, err
	}
	h := fnv.New64a()
	h.Write(data)
	return &GlulxStory{data: data, sum: h.Sum64(), inform: len(image) >= 40 && string(image[36:40]) == "Info"}, nil
}

// LoadGlulxStory loads the Glulx story nameOrPath names (as [LoadStory]
// finds it) and returns it with the game's name.
func LoadGlulxStory(nameOrPath string) (*GlulxStory, string, error) {
	path, err := Find(nameOrPath)
	if err != nil {
		return nil, "", fmt.Errorf("unknown game %q: %w", nameOrPath, err)
	}
	data, err := boundedfile.ReadFile(path, glulx.MaxStorySize)
	if err != nil {
		return nil, "", fmt.Errorf("reading story: %w", err)
	}
	s, err := NewGlulxStory(data)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	return s, storyName(path), nil
}

// readGlulxFile reads path when it is a Glulx story file; ok is false
// (and the error nil) when it is not one.
func readGlulxFile(path string) (s *GlulxStory, ok bool, err error) {
	data, err := boundedfile.ReadFile(path, glulx.MaxStorySize)
	if err != nil || !IsGlulx(data) {
		return nil, false, nil
	}
	s, err = NewGlulxStory(data)
	return s, err == nil, err
}

// glulxEngine is the part of a Game that plays a Glulx story: the VM and
// Glk (glulx.Machine), the Undo history as the machine's snapshots (each
// RAM kept as its difference from the story's), and what the status
// window last showed.
type glulxEngine struct {
	story *GlulxStory
	m     *glulx.Machine
	past  []glulxPast // states before each Step, oldest first
	// scoreAddr and turnsAddr are the addresses of the words in RAM that
	// hold the score and the turns (the Inform library's score and
	// turns globals), 0 when not found (traceGlulxWord).
	scoreAddr, turnsAddr uint32
	// endAddr is the address of the Inform library's deadflag (0 playing,
	// 1 dead, 2 won, more for other endings), 0 when not found.
	endAddr uint32
}

type glulxPast struct {
	snap *glulx.Snapshot
	v    view
}

// NewGlulx starts a game of a Glulx story. The location is read from the
// story's status window as the Inform libraries draw it ("Room  Score: 36
// Moves: 1" for Inform 6, "Room  36/1" for Inform 7); score and moves
// from the Inform library's globals in RAM, found by probing SCORE on a
// snapshot (traceGlulxCounters), or else from the status window; the
// maximum score from the game's answer to SCORE on a snapshot that is
// then thrown away. The object tree is the Inform object list in RAM
// (glulxobj.go), found at the start. Valid actions, the map and the
// dictionary are not available for Glulx stories yet.
func NewGlulx(story *GlulxStory, name string, opts ...Option) (*Game, error) {
	if story == nil {
		return nil, errors.New("starting a Glulx game: no story")
	}
	g := &Game{name: name, opts: options{undoDepth: DefaultUndoDepth}, playerGlobal: -1}
	for _, o := range opts {
		o(&g.opts)
	}
	if g.name == "" {
		g.name = "story"
	}
	m, err := g.newGlulxMachine(story)
	if err != nil {
		return nil, err
	}
	g.gx = &glulxEngine{story: story, m: m}
	intro, err := m.Start()
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", g.name, err)
	}
	g.intro = trimPrompt(intro)
	g.reply = intro
	g.glulxTree() // found at the start, where the player's globals are told
	g.glulxScoring()
	g.start = g.Save()
	return g, nil
}

func (g *Game) newGlulxMachine(story *GlulxStory) (*glulx.Machine, error) {
	m, err := glulx.NewMachine(story.data, glulx.MachineOptions{Seed: uint32(g.opts.seed), Width: g.opts.width})
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", g.name, err)
	}
	return m, nil
}

// IsGlulx reports whether the game runs a Glulx story (and [Game.Story]
// and [Game.Machine] are nil).
func (g *Game) IsGlulx() bool { return g.gx != nil }

// GlulxMachine is the Glulx machine that runs a Glulx game, nil for a
// Z-machine one.
func (g *Game) GlulxMachine() *glulx.Machine {
	if g.gx == nil {
		return nil
	}
	return g.gx.m
}

// Halted reports whether the story has stopped (it quit, or failed).
func (g *Game) Halted() bool {
	if g.gx != nil {
		return g.gx.m.Halted()
	}
	return g.m.Halted()
}

// status is the status window as the Inform libraries draw it: the room
// on the left, the score and moves (or turns) on the right.
type status struct {
	location             string
	score, moves         int
	scoreKnown, hasMoves bool
}

var (
	// "At End Of Road      Score: 36    Moves: 1" (Inform 6's library;
	// "Turns:" in some translations and Inform 7's I6 template).
	i6StatusRE = lazyregexp.New(`^(.*?)\s*\bScore:\s*(-?\d+)\s+(?:Moves|Turns):\s*(-?\d+)\s*$`)
	// "-= Bedroom =-       0/1" (Inform 7: score/turns).
	i7StatusRE = lazyregexp.New(`^(.*?)\s{2,}(-?\d+)/(-?\d+)$`)
)

// parseStatus reads the status window's first line.
func parseStatus(line string) status {
	line, _, _ = strings.Cut(line, "\n")
	line = strings.TrimSpace(line)
	var st status
	for _, re := range []*lazyregexp.Regexp{i6StatusRE, i7StatusRE} {
		if m := re.FindStringSubmatch(line); m != nil {
			s, err1 := strconv.Atoi(m[2])
			n, err2 := strconv.Atoi(m[3])
			if err1 == nil && err2 == nil {
				return status{location: strings.TrimSpace(m[1]), score: s, moves: n, scoreKnown: true, hasMoves: true}
			}
		}
	}
	// No score: the room is what stands before a wide gap (the right part
	// being a time or a game's own text), or the whole line.
	if i := strings.Index(line, "   "); i >= 0 {
		line = line[:i]
	}
	st.location = strings.TrimSpace(line)
	return st
}

// glulxStatus is the score, moves and room as the game shows them now:
// its status window, but for a game over the score and turns of its final
// score line ("In that game you scored 5 out of a possible 5, in 2
// turns"): the Inform libraries end the game before they redraw the
// status window.
func (g *Game) glulxStatus() status {
	st := parseStatus(g.gx.m.StatusLine())
	if !g.gx.story.inform {
		// Another compiler's status window is no known layout.
		return status{}
	}
	if !g.scoring.HasScore {
		st.score, st.scoreKnown = 0, false
	}
	if a := g.gx.scoreAddr; a != 0 && g.scoring.HasScore {
		if v, err := g.gx.m.VM().Load32(a); err == nil {
			st.score, st.scoreKnown = int(int32(v)), true
		}
	}
	if a := g.gx.turnsAddr; a != 0 {
		if v, err := g.gx.m.VM().Load32(a); err == nil {
			st.moves, st.hasMoves = int(int32(v)), true
		}
	}
	if !g.done || !st.scoreKnown || g.gx.scoreAddr != 0 {
		return st
	}
	for _, line := range strings.Split(g.reply, "\n") {
		if !scoreLineRE.MatchString(line) {
			continue
		}
		score, moves := -1, -1
		for _, n := range scoreNumbers(line) {
			switch {
			case n.kind == numScore && score < 0:
				score = n.value
			case n.kind == numMoves && moves < 0:
				moves = n.value
			}
		}
		if score >= 0 {
			st.score = score
		}
		if moves >= 0 {
			st.moves = moves
		}
	}
	return st
}

// glulxScoring finds how the game's score is read: from the status
// window, with the maximum from the game's answer to SCORE played on a
// snapshot that is then restored.
func (g *Game) glulxScoring() {
	s := g.gx.story
	s.mu.Lock()
	defer s.mu.Unlock()
	if f := s.found; f != nil {
		g.scoring, g.gx.scoreAddr, g.gx.turnsAddr, g.gx.endAddr = f.scoring, f.scoreAddr, f.turnsAddr, f.endAddr
		return
	}
	g.findGlulxScoring()
	if g.gx.m.Waiting() == glk.InputLine {
		// Found at a command prompt: good for every game of the story.
		s.found = &glulxFound{scoring: g.scoring, scoreAddr: g.gx.scoreAddr, turnsAddr: g.gx.turnsAddr, endAddr: g.gx.endAddr}
	}
}

// findGlulxScoring is glulxScoring's search.
func (g *Game) findGlulxScoring() {
	g.scoring = Scoring{ScoreGlobal: -1, MovesGlobal: -1, EndGlobal: -1}
	if !g.gx.story.inform {
		g.scoring.Reason = "not an Inform story (no Info block): its status window is not read"
		return
	}
	st := parseStatus(g.gx.m.StatusLine())
	if !st.scoreKnown {
		g.scoring.Reason = "the status window shows no score (Score: N Moves: M or N/M)"
		return
	}
	g.scoring.HasScore = true
	g.scoring.Method = "status window: Inform's Score: and Moves:, or score/turns"
	if g.gx.m.Waiting() != glk.InputLine {
		return
	}
	snap := g.gx.m.Snapshot()
	out, err := g.gx.m.Step("score")
	if rerr := g.gx.m.Restore(snap); rerr != nil {
		// The machine is not as it was: keep nothing of the probe.
		g.scoring = Scoring{ScoreGlobal: -1, MovesGlobal: -1, EndGlobal: -1,
			Reason: "the SCORE probe could not be undone: " + rerr.Error()}
		return
	}
	if err != nil {
		g.scoring.Reason = "the maximum is unknown: SCORE failed: " + err.Error()
		return
	}
	if s, mx, ok := finalScore(out); ok && mx > 0 {
		g.scoring.MaxScore = mx
		g.scoring.Method += "; maximum from SCORE"
		g.traceGlulxCounters(snap, s, printedTurns(out))
	} else if ok || strings.Contains(out, "out of a possible 0") {
		// "You have so far scored 0 out of a possible 0": Inform 7's
		// default for a game that awards no points.
		g.scoring = Scoring{ScoreGlobal: -1, MovesGlobal: -1, EndGlobal: -1,
			Reason: "SCORE gives a maximum of 0"}
	} else {
		g.scoring.Reason = "the maximum is unknown: SCORE gives none"
	}
}

// stepGlulx is Step for a Glulx game.
func (g *Game) stepGlulx(action string) (StepResult, error) {
	x := g.gx
	if x.m.Halted() || x.m.Waiting() == glk.InputNone {
		return StepResult{}, fmt.Errorf("%s: cannot play %q: the story waits for no input", g.name, action)
	}
	prev := g.glulxStatus()
	x.past = append(x.past, glulxPast{snap: x.m.Snapshot(), v: g.view()})
	out, err := x.m.Step(action)
	// The story's own save and restore ask for a file name: answer the
	// game's name, its one in-memory slot, so that play goes on.
	for i := 0; err == nil && i < 4 && x.m.Waiting() == glk.InputFileName; i++ {
		var more string
		more, err = x.m.Step(g.name)
		out += g.name + "\n" + more
	}
	if err == nil && x.m.Waiting() == glk.InputFileName {
		err = errors.New("the game keeps asking for a file name")
	}
	if err != nil {
		// Leave the game as it was before the failed command.
		if rerr := g.glulxPop(); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return StepResult{}, fmt.Errorf("%s: playing %q: %w", g.name, action, err)
	}
	if n := g.opts.undoDepth; n < 0 {
		x.past = x.past[:len(x.past)-1]
	} else if over := len(x.past) - n; over > 0 {
		clear(x.past[:over])
		x.past = x.past[over:]
	}
	g.reply = out
	g.done, g.victory = g.judgeGlulx(out)
	reward := 0
	if now := g.glulxStatus(); prev.scoreKnown && now.scoreKnown {
		// A status window that shows no score for a turn (a menu, a
		// quotation) is no loss of points.
		reward = now.score - prev.score
	}
	return StepResult{Observation: trimPrompt(out), Reward: reward,
		Done: g.done, Victory: g.victory, Info: g.Info()}, nil
}

// glulxPop goes back to the newest state before a Step and forgets it.
func (g *Game) glulxPop() error {
	x := g.gx
	n := len(x.past)
	if n == 0 {
		return ErrNoUndo
	}
	p := x.past[n-1]
	x.past[n-1] = glulxPast{}
	x.past = x.past[:n-1]
	if err := x.m.Restore(p.snap); err != nil {
		return err
	}
	g.setView(p.v)
	return nil
}

// judgeGlulx decides from a reply whether a Glulx game is over: the story
// halted, or it shows the Inform library's end banner ("*** You have died
// ***") or its RESTART, RESTORE or QUIT question; a game over stays over
// until the reply shows it playing again (glulxResumed). It is won when
// the banner or the text says so, or it ends with the maximum score.
func (g *Game) judgeGlulx(out string) (done, victory bool) {
	banner, won := endBanner(out)
	if flag, ok := g.glulxEndFlag(); ok {
		// The library's own flag: 0 playing, 2 won, others over.
		switch {
		case g.gx.m.Halted():
		case flag == 0:
			return false, false
		case flag == 2:
			return true, true
		}
		if won || wonLine(out) {
			return true, true
		}
		return true, g.scoring.MaxScore > 0 && g.Score() >= g.scoring.MaxScore
	}
	done = g.gx.m.Halted() || banner || endQuestionText(out) || (g.done && !glulxResumed(out))
	if !done {
		return false, false
	}
	if won || wonLine(out) {
		return true, true
	}
	if g.done && !banner {
		return true, g.victory
	}
	score := g.Score()
	if s, _, ok := finalScore(out); ok {
		score = s // the status window is not redrawn at the end
	}
	return true, g.scoring.MaxScore > 0 && score >= g.scoring.MaxScore
}

// glulxResumed reports whether the reply to a command typed once the game
// was over shows it playing again: the banner of a RESTART, "[Previous
// turn undone.]" of an UNDO, the "Ok." of a RESTORE. (A Glulx game reads
// every line through the same Glk call, so the read instruction does not
// tell the final question from the command prompt as it does on the
// Z-machine.)
func glulxResumed(out string) bool {
	out = strings.TrimSpace(out)
	return strings.Contains(out, "Serial number") || strings.Contains(strings.ToLower(out), "undone") ||
		strings.HasPrefix(out, "Ok.")
}

// saveGlulx is Save for a Glulx game.
func (g *Game) saveGlulx() *State {
	g.mapShared = true
	return &State{gstory: g.gx.story, gsnap: g.gx.m.Snapshot(), done: g.done, victory: g.victory, reply: g.reply}
}

// restoreGlulx is Restore for a Glulx game.
func (g *Game) restoreGlulx(s *State) error {
	if s.gsnap == nil {
		return fmt.Errorf("%s: restoring: the state is not of a Glulx game", g.name)
	}
	if s.gstory != g.gx.story && s.gstory.sum != g.gx.story.sum {
		return fmt.Errorf("%s: restoring: the state comes from another story", g.name)
	}
	if err := g.gx.m.Restore(s.gsnap); err != nil {
		return fmt.Errorf("%s: restoring: %w", g.name, err)
	}
	g.setView(view{done: s.done, victory: s.victory, reply: s.reply})
	return nil
}

// forkGlulx is Fork for a Glulx game.
func (g *Game) forkGlulx() (*Game, error) {
	f := *g
	m, err := f.newGlulxMachine(g.gx.story)
	if err != nil {
		return nil, fmt.Errorf("%s: fork: %w", g.name, err)
	}
	if err := m.Restore(g.gx.m.Snapshot()); err != nil {
		return nil, fmt.Errorf("%s: fork: %w", g.name, err)
	}
	f.gx = &glulxEngine{story: g.gx.story, m: m, past: append([]glulxPast(nil), g.gx.past...)}
	return &f, nil
}

// glulxHash is StateHash for a Glulx game: its RAM (the story's globals
// and objects are there, as are the parser's buffers).
func (g *Game) glulxHash() uint64 {
	h := fnv.New64a()
	h.Write(g.gx.m.VM().RAM())
	return h.Sum64()
}

// glulxGlobalsSpan is how much of the start of RAM is searched for the
// Inform library's score and turns: Inform puts the global variables
// first in RAM (512 of them by default for Glulx).
const glulxGlobalsSpan = 4 << 10

// maxTraceRuns bounds the SCORE commands one trace plays, maxEndRuns the
// LOOKs that the search for deadflag plays.
const (
	maxTraceRuns = 128
	maxEndRuns   = 48
)

// printedTurns is the turn count a SCORE reply prints ("in 2 turns"), -1
// when it prints none.
func printedTurns(out string) int {
	for _, n := range scoreNumbers(out) {
		if n.kind == numMoves {
			return n.value
		}
	}
	return -1
}

// traceGlulxCounters finds the words in RAM that hold the score and the
// turns SCORE printed (score, turns; -1 for none), so that they are read
// from the game's memory rather than from its status window: each word
// near the start of RAM that holds the number is changed, on the
// snapshot snap (on a probe machine: the game's own is left alone), to a
// mark of its own, and the one whose mark SCORE then prints is the
// counter, checked once more alone. A word not found leaves the status
// window's reading.
func (g *Game) traceGlulxCounters(snap *glulx.Snapshot, score, turns int) {
	first := func(kind numberKind) func(string) (int, bool) {
		return func(out string) (int, bool) {
			for _, n := range scoreNumbers(out) {
				if n.kind == kind {
					return n.value, true
				}
			}
			return 0, false
		}
	}
	x := g.gx
	// The probes run on a machine of their own with a small budget: a
	// word changed to a mark can send the story into a loop.
	pm, err := glulx.NewMachine(x.story.data, glulx.MachineOptions{Seed: uint32(g.opts.seed), Width: g.opts.width, Budget: probeBudget})
	if err != nil {
		return
	}
	x.scoreAddr = traceGlulxWord(pm, snap, score, first(numScore))
	if turns >= 0 {
		x.turnsAddr = traceGlulxWord(pm, snap, turns, first(numMoves))
	}
	x.endAddr = traceGlulxEnd(pm, snap, x.scoreAddr)
	if x.endAddr != 0 {
		defer func() {
			g.scoring.Method += fmt.Sprintf("; the end from the library's deadflag in RAM (%#x)", x.endAddr)
		}()
	}
	switch {
	case x.scoreAddr != 0 && x.turnsAddr != 0:
		g.scoring.Method = fmt.Sprintf("the Inform library's score and turns in RAM (%#x, %#x), found by SCORE on a snapshot; maximum from SCORE",
			x.scoreAddr, x.turnsAddr)
	case x.scoreAddr != 0:
		g.scoring.Method = fmt.Sprintf("the Inform library's score in RAM (%#x), found by SCORE on a snapshot; moves from the status window; maximum from SCORE",
			x.scoreAddr)
	}
}

// probeBudget is the instruction budget of one probe's SCORE (a few
// hundred thousand instructions in Inform 7 games).
const probeBudget = 2_000_000

// traceGlulxWord is the address of the word near the start of RAM that
// SCORE prints as the number value (read reads it from SCORE's reply), 0
// when none is found. It plays SCORE from snap at most maxTraceRuns
// times, each with a group of candidate words changed to marks of their
// own; a group whose run fails is tried in halves. It runs on pm, a
// machine of the same story.
func traceGlulxWord(pm *glulx.Machine, snap *glulx.Snapshot, value int, read func(string) (int, bool)) uint32 {
	if pm.Restore(snap) != nil {
		return 0
	}
	vm := pm.VM()
	start := vm.Header().RAMStart
	end := min(start+glulxGlobalsSpan, vm.MemSize())
	var cands []uint32
	for a := start; a+4 <= end; a += 4 {
		if v, err := vm.Load32(a); err == nil && int32(v) == int32(value) {
			cands = append(cands, a)
		}
	}
	const markBase = 20011
	runs := 0
	// try plays SCORE with the words of group (indexes into cands) set to
	// their marks and returns the index SCORE printed the mark of, -1 for
	// none, and whether the run went through.
	try := func(group []int) (int, bool) {
		runs++
		if pm.Restore(snap) != nil {
			return -1, false
		}
		for _, i := range group {
			if vm.Store32(cands[i], uint32(markBase+7*i)) != nil {
				return -1, false
			}
		}
		out, err := pm.Step("score")
		if err != nil {
			return -1, false
		}
		v, ok := read(out)
		if !ok || v < markBase || (v-markBase)%7 != 0 {
			return -1, true
		}
		i := (v - markBase) / 7
		for _, j := range group {
			if i == j {
				return i, true
			}
		}
		return -1, true
	}
	var search func(group []int) int
	search = func(group []int) int {
		if len(group) == 0 || runs >= maxTraceRuns {
			return -1
		}
		i, ok := try(group)
		if ok || len(group) == 1 {
			return i
		}
		if i := search(group[:len(group)/2]); i >= 0 {
			return i
		}
		return search(group[len(group)/2:])
	}
	const groupSize = 16
	for lo := 0; lo < len(cands) && runs < maxTraceRuns; lo += groupSize {
		group := make([]int, 0, groupSize)
		for i := lo; i < min(lo+groupSize, len(cands)); i++ {
			group = append(group, i)
		}
		if i := search(group); i >= 0 {
			// Checked alone: the mark of this word, and no other, is
			// what SCORE prints.
			if j, ok := try([]int{i}); ok && j == i {
				return cands[i]
			}
		}
	}
	return 0
}

// traceGlulxEnd is the address of the Inform library's deadflag, 0 when
// not found: the word near the start of RAM that, set to 1 on snap (on
// pm), makes a LOOK end with the library's "*** ... ***" banner, found by
// setting the zero words in groups and halving the group that ends the
// game down to one word. The words nearest near (the score's address,
// when found: the library declares score, turns and deadflag together)
// are tried first.
func traceGlulxEnd(pm *glulx.Machine, snap *glulx.Snapshot, near uint32) uint32 {
	if pm.Restore(snap) != nil {
		return 0
	}
	vm := pm.VM()
	start := vm.Header().RAMStart
	end := min(start+glulxGlobalsSpan, vm.MemSize())
	var cands []uint32
	for a := start; a+4 <= end; a += 4 {
		if v, err := vm.Load32(a); err == nil && v == 0 {
			cands = append(cands, a)
		}
	}
	if near != 0 {
		dist := func(a uint32) uint32 { return max(a, near) - min(a, near) }
		slices.SortStableFunc(cands, func(a, b uint32) int { return cmp.Compare(dist(a), dist(b)) })
	}
	runs := 0
	// ends reports whether LOOK with the words of group set to 1 ends
	// the game, and whether the run went through.
	ends := func(group []uint32) (banner, ok bool) {
		runs++
		if pm.Restore(snap) != nil {
			return false, false
		}
		for _, a := range group {
			if vm.Store32(a, 1) != nil {
				return false, false
			}
		}
		out, err := pm.Step("look")
		banner, _ = endBanner(out)
		return banner && err == nil, err == nil
	}
	var find func(group []uint32) uint32
	find = func(group []uint32) uint32 {
		if len(group) == 0 || runs >= maxEndRuns {
			return 0
		}
		banner, ok := ends(group)
		switch {
		case ok && !banner, !ok && len(group) == 1:
			return 0
		case banner && len(group) == 1:
			return group[0]
		}
		// A banner to narrow down, or a word of the group that made the
		// story fail (a Glk object, a string address): try the halves.
		if a := find(group[:len(group)/2]); a != 0 {
			return a
		}
		return find(group[len(group)/2:])
	}
	const groupSize = 16
	for lo := 0; lo < len(cands) && runs < maxEndRuns; lo += groupSize {
		if a := find(cands[lo:min(lo+groupSize, len(cands))]); a != 0 {
			return a
		}
	}
	return 0
}

// glulxEndFlag is the game's deadflag, ok false when it is not known.
func (g *Game) glulxEndFlag() (v uint32, ok bool) {
	if g.gx.endAddr == 0 {
		return 0, false
	}
	v, err := g.gx.m.VM().Load32(g.gx.endAddr)
	return v, err == nil
}
