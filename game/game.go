package game

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/grue-lab/grue/game/glk"
	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/game/validactions"
	"github.com/grue-lab/grue/game/zmachine"
	"github.com/grue-lab/grue/internal/lazyregexp"
)

// Game is one running story as a research environment: it plays commands on
// a Z-machine and reads score, moves, location, inventory and the whole
// world from the machine's memory and object tree rather than from the text.
// It ends the game on the catalog's death and victory texts for known games;
// any other game ends on the machine's evidence: it halts, or it shows an
// ending (the Inform library's deadflag or "*** You have died ***" banner,
// Infocom's final score and RESTART, RESTORE or QUIT question) while it
// waits at a read that is not its command prompt's.
//
// [Open] and [New] start one; [Game.Step] plays a command and returns a
// [StepResult]; [Game.Save], [Game.Restore], [Game.Undo] and [Game.Fork]
// branch it. The machine underneath is a [zmachine.Machine] ([Game.Machine]),
// or for a Glulx story ([NewGlulx], and [Open] of a .ulx or .gblorb file)
// a glulx.Machine ([Game.GlulxMachine]): score, moves and the end are
// then read from the Inform library's globals in RAM or the status
// window, the room's name from the status window, the player, the
// inventory, the room's number and the objects from the Inform object
// list in RAM; valid actions, the map and the dictionary are not
// available yet.
//
// A Game is not safe for concurrent use; [Game.Fork] gives an independent
// copy that may run in another goroutine.
type Game struct {
	story *zmachine.Story
	name  string
	opts  options
	entry Entry
	known bool

	m      *zmachine.Machine // nil for a Glulx story (gx)
	gx     *glulxEngine      // the Glulx engine, nil for a Z-machine story
	player uint16            // the player object, 0 if unknown
	// playerGlobal is the global that held the player when it was found
	// (the Inform library's player), -1 if none: a game that changes the
	// player object (break-in's flashback) changes it there.
	playerGlobal int
	rooms        uint16 // the parent of the rooms, 0 for top-level rooms
	objects      int    // number of objects in the object table

	start   *State // the state after the intro, for Reset
	intro   string
	reply   string // the game's last reply as printed, prompt and all (the intro before the first Step)
	done    bool
	victory bool
	history history // states before each Step, for Undo and a failed Step

	// promptPCs[:nPromptPCs] are the addresses after the read
	// instructions at which the game has waited for a command while it
	// played, endPC the one at which it was last judged over (0: none):
	// an ending is only seen away from the command prompts (judgeOn).
	promptPCs  [maxPromptPCs]uint32
	nPromptPCs int
	endPC      uint32

	gmap      *Map // the map explored so far
	mapShared bool // gmap is held by a State or a caller: copy before changing it

	// va is the game's memory of the valid actions of recent states, made
	// on first use; not shared with forks. vs is what valid actions knows
	// of the story, made on first use; shared with forks.
	va    *validactions.Cache
	vs    *validactions.Story
	vaCut bool // the last ValidActions ran out of its time budget

	scoring Scoring // how score, moves and maximum are read
	// timeGame reports a version 3 game whose status line shows the time
	// (Flags 1 bit 1): globals 1 and 2 are its clock.
	timeGame bool
	probes   int // how many times detect has probed the game
	// storyKey identifies the story in opts.detections (when set).
	storyKey detectKey
	// opening is what the game printed in reply to keys before its first
	// command (a banner after "press a key"), for Report.
	opening   string
	commanded bool // a command (not a key) has been played
}

// StepResult is what one Step gives back.
type StepResult struct {
	// Observation is the game's reply, without the trailing prompt.
	Observation string
	// Reward is the change in score that the step made.
	Reward int
	// Done reports that the game is over: the player died, won, or the
	// machine stopped; Victory that it ended in a win.
	Done, Victory bool
	// Info is the state of the game after the step.
	Info Info
}

// Info is the state of the game that an agent or a harness tracks.
type Info struct {
	Score, MaxScore, Moves int
	// ScoreKnown and MovesKnown report that Score and Moves were read
	// from the game; false for a game without a score (a time game, one
	// whose SCORE gives none) or whose counters grue did not find, where
	// Score or Moves is 0 only for want of a number. MaxScore is 0 when
	// the maximum is unknown (see Scoring).
	ScoreKnown, MovesKnown bool
	// Location is the name of the room the player is in and LocationID
	// its object number.
	Location   string
	LocationID uint16
	// Container and ContainerID are the vehicle or container the player
	// sits in inside that room ("" and 0 when none, or unknown).
	Container   string
	ContainerID uint16
	// KeyExpected reports that the game waits for a single key (a "press
	// SPACE to begin" or a menu), not a command: the next Step's action
	// is typed key by key, so a one-character action is that key (" " is
	// SPACE) and an empty action is Return.
	KeyExpected bool
}

// Object is one object of the world as the object tree holds it.
type Object struct {
	// ID is the object number.
	ID   uint16
	Name string
	// Parent, Sibling and Child are the tree links (0 for none).
	Parent, Sibling, Child uint16
	// Attributes lists the attributes that are set, in increasing order.
	Attributes []int
}

// Option configures a Game made by Open or New.
type Option func(*options)

type options struct {
	seed      int64
	width     int
	undoDepth int
	undoSlots int
	// detections remembers probes' results across games (nil: none).
	detections *DetectionCache
}

// Seed sets the seed of the game's random numbers, as `dfrotz -s n` does.
func Seed(n int64) Option { return func(o *options) { o.seed = n } }

// Width sets the screen width in characters that the game is told about
// (0 means 80).
func Width(n int) Option { return func(o *options) { o.width = n } }

// UndoDepth sets how many steps Undo can go back (default 1000; a negative
// number disables Undo).
func UndoDepth(n int) Option { return func(o *options) { o.undoDepth = n } }

// GameUndoSlots sets how many states the story's own undo command keeps
// (the Z-machine's save_undo; default 500, as Frotz). Inform games save
// one every turn; the newest is a copy of the game's dynamic memory and
// each older one its difference from the next (a few hundred bytes for a
// turn), so a server running many games may bound it; a negative number
// disables the story's undo.
func GameUndoSlots(n int) Option { return func(o *options) { o.undoSlots = n } }

// DefaultUndoDepth is how many steps Undo can go back unless UndoDepth says
// otherwise.
const DefaultUndoDepth = 1000

// Open finds the story nameOrPath (a path, a file in the games folder, see
// Find, or the catalog name of a file there), loads it and starts it. ""
// and the default story's name ("lantern"), when no file of that name is
// found, open the built-in default story (package stories).
func Open(nameOrPath string, opts ...Option) (*Game, error) {
	if nameOrPath == "" {
		return openDefault(opts...)
	}
	path, err := Find(nameOrPath)
	if err != nil {
		if strings.EqualFold(nameOrPath, stories.DefaultName) {
			return openDefault(opts...)
		}
		p, ok := findByCatalogName(nameOrPath)
		if !ok {
			return nil, fmt.Errorf("opening game: %w", err)
		}
		path = p
	}
	if gs, ok, err := readGlulxFile(path); err != nil {
		return nil, fmt.Errorf("opening game: %w", err)
	} else if ok {
		return NewGlulx(gs, storyName(path), opts...)
	}
	story, err := loadStory(path)
	if err != nil {
		return nil, fmt.Errorf("opening game: %w", err)
	}
	base := filepath.Base(path)
	return New(story, strings.TrimSuffix(base, filepath.Ext(base)), opts...)
}

// openDefault starts the built-in default story.
func openDefault(opts ...Option) (*Game, error) {
	name, data := stories.Default()
	story, err := zmachine.LoadInPlace(data) // Default's bytes are never written
	if err != nil {
		return nil, fmt.Errorf("opening the default story %s: %w", name, err)
	}
	return New(story, name, opts...)
}

// New starts a game of story. name names it (and its save files); a story
// that the catalog knows takes the catalog's name when name is "".
func New(story *zmachine.Story, name string, opts ...Option) (*Game, error) {
	g := &Game{story: story, name: name, opts: options{undoDepth: DefaultUndoDepth}, playerGlobal: -1}
	for _, o := range opts {
		o(&g.opts)
	}
	g.entry, g.known = Lookup(story)
	if g.name == "" {
		g.name = g.entry.Name
	}
	if g.name == "" {
		g.name = "story"
	}
	m, err := g.newMachine()
	if err != nil {
		return nil, err
	}
	g.m = m
	g.objects = countObjects(m)
	if g.opts.detections != nil {
		g.storyKey = storyKey(story, m)
	}
	intro, err := m.Start()
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", g.name, err)
	}
	g.intro = trimPrompt(intro)
	g.reply = intro
	if m.State() == zmachine.WaitLine && commandPrompt(intro) {
		g.addPromptPC(m.PC())
	}
	g.initScoring()
	if g.known {
		g.player, g.rooms = g.entry.Player, g.entry.Rooms
	} else if !g.fromCache() {
		// A game that opens on "press a key" or a question has not put
		// the player anywhere yet (Spot's only object would pass for
		// it): detect finds it at the first command prompt.
		if m.State() == zmachine.WaitLine {
			g.rooms = g.roomsParent()
			g.player = g.findPlayer()
			g.playerGlobal = g.globalHolding(g.player)
		}
		g.detect()
	}
	g.gmap = newMap(g.dictionaryDirections())
	g.gmap.visit(g.locationID())
	g.start = g.Save()
	return g, nil
}

func (g *Game) newMachine() (*zmachine.Machine, error) {
	m, err := zmachine.New(g.story, zmachine.Options{Seed: g.opts.seed, Width: g.opts.width, Name: g.name, UndoSlots: g.opts.undoSlots})
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", g.name, err)
	}
	return m, nil
}

// Name is the game's name.
func (g *Game) Name() string { return g.name }

// Story is the story file the game runs; nil for a Glulx story.
func (g *Game) Story() *zmachine.Story { return g.story }

// Machine is the Z-machine that runs the game, for callers that need more
// than Game offers; nil for a Glulx story ([Game.GlulxMachine]). Changing its state behind the Game's back leaves Undo
// history and Done as they were.
func (g *Game) Machine() *zmachine.Machine { return g.m }

// Entry returns the catalog's facts about the game and whether it has any.
func (g *Game) Entry() (Entry, bool) { return g.entry, g.known }

// Intro is the text the game printed before its first prompt.
func (g *Game) Intro() string { return g.intro }

// Reset starts the game again from the beginning, with the same seed, and
// returns the intro. It forgets the Undo history.
func (g *Game) Reset() (string, error) {
	if err := g.Restore(g.start); err != nil {
		return "", fmt.Errorf("resetting %s: %w", g.name, err)
	}
	g.history = history{}
	if g.gx != nil {
		g.gx.past = nil
	}
	return g.intro, nil
}

// Step plays one command and reports its outcome. A game that is over (see
// Done) can still be stepped while the machine waits for input: the Zork
// games, for one, carry on after a death. While the game waits for a key
// (KeyExpected), action is typed key by key as dfrotz types a line: " " is
// SPACE, "" is Return, and a longer action answers as many key requests as
// it has characters.
func (g *Game) Step(action string) (StepResult, error) {
	if g.gx != nil {
		return g.stepGlulx(action)
	}
	st := g.m.State()
	if st != zmachine.WaitLine && st != zmachine.WaitKey {
		return StepResult{}, fmt.Errorf("%s: cannot play %q: the machine is %v", g.name, action, st)
	}
	g.history.push(g)
	prev := g.Score()
	_, from := g.Location()
	out, err := g.m.Step(action)
	if err == nil {
		out, err = g.answerFilePrompts(out)
	}
	if err != nil {
		// Leave the game as it was before the failed command.
		if rerr := g.history.pop(g); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return StepResult{}, fmt.Errorf("%s: playing %q: %w", g.name, action, err)
	}
	if g.opts.undoDepth >= 0 {
		g.history.keep(g.opts.undoDepth)
	} else {
		g.history.drop()
	}
	if st == zmachine.WaitKey && !g.commanded && len(g.opening) < 1<<16 {
		g.opening += "\n\n" + out
	} else if st == zmachine.WaitLine {
		g.commanded = true
	}
	g.reply = out
	g.detect()
	g.followPlayer()
	g.done, g.victory = g.judge(out)
	g.updateMap(from, action)
	return StepResult{
		Observation: trimPrompt(out),
		Reward:      g.Score() - prev,
		Done:        g.done,
		Victory:     g.victory,
		Info:        g.Info(),
	}, nil
}

// answerFilePrompts answers the file-name prompt of the game's own save
// and restore commands with the default name (and "yes" to "Overwrite
// existing file?"), so that typing save or restore uses the game's one
// in-memory save slot and play goes on, instead of leaving the machine
// waiting for a file name that the next command would be taken for. The
// prompts and the game's answer are all in the returned text.
func (g *Game) answerFilePrompts(out string) (string, error) {
	for i := 0; i < 4 && g.m.State() == zmachine.WaitFile; i++ {
		answer := ""
		if strings.HasSuffix(strings.TrimSpace(out), "Overwrite existing file?") {
			answer = "yes"
		}
		more, err := g.m.Step(answer)
		if err != nil {
			return out, err
		}
		out += answer + "\n" + more
	}
	if st := g.m.State(); st == zmachine.WaitFile {
		return out, fmt.Errorf("the game keeps asking for a file name")
	}
	return out, nil
}

// judge decides from a reply and the machine whether the game is over and
// whether it was won, and remembers where the machine waits: the read
// instructions of a game still playing (promptPCs) and the one of its
// ending (endPC).
func (g *Game) judge(out string) (done, victory bool) {
	done, victory = g.judgeOn(g.m, out)
	if g.m.State() != zmachine.WaitLine {
		return done, victory
	}
	pc := g.m.PC()
	switch {
	case done:
		g.endPC = pc
	case pc != g.endPC && commandPrompt(out):
		g.addPromptPC(pc)
	}
	return done, victory
}

// maxPromptPCs bounds the read instructions a Game remembers as its
// command prompts.
const maxPromptPCs = 8

// addPromptPC remembers pc as the address after a read instruction at
// which the game waits for a command while it plays.
func (g *Game) addPromptPC(pc uint32) {
	if g.isPromptPC(pc) || g.nPromptPCs >= maxPromptPCs {
		return
	}
	g.promptPCs[g.nPromptPCs] = pc
	g.nPromptPCs++
}

func (g *Game) isPromptPC(pc uint32) bool {
	for _, p := range g.promptPCs[:g.nPromptPCs] {
		if p == pc {
			return true
		}
	}
	return false
}

// commandPrompt reports whether a reply ends at a command prompt (">")
// rather than at a question that waits for its answer.
func commandPrompt(out string) bool {
	out = strings.TrimRight(out, " \n")
	if !strings.HasSuffix(out, ">") {
		return false
	}
	out = strings.TrimRight(strings.TrimSuffix(out, ">"), " \n")
	last := strings.TrimSpace(out[strings.LastIndex(out, "\n")+1:])
	return !yesNo.MatchString(last) && !strings.HasSuffix(last, "?") && !endQuestionText(out)
}

// judgeOn is judge for a reply of machine m, which plays g's story (a
// worker machine of valid actions).
//
// A game the catalog knows ends on the catalog's texts. Any other game
// ends on the machine's evidence: it halted (QUIT), or it shows an ending
// (the Inform library's deadflag set, its "*** ... ***" banner, or the
// RESTART, RESTORE or QUIT question as the reply's last paragraph) while
// it waits at a read instruction that is not one of the command prompts
// it has played at: Infocom's FINISH and the library's AfterGameOver read
// their answer apart from the parser. A flag or a text that looks like an
// ending while the game waits at its command prompt ends nothing (a
// global mistaken for deadflag, a sign that prints a banner, a hint that
// names the three words).
func (g *Game) judgeOn(m *zmachine.Machine, out string) (done, victory bool) {
	if g.known {
		return g.judgeCatalog(m, out)
	}
	halted := m.State() == zmachine.Halted
	if !halted && m.State() != zmachine.WaitLine {
		return false, false
	}
	shown, won := false, false
	if eg := g.scoring.EndGlobal; eg >= 0 {
		// The game's own end flag (the Inform library's deadflag): 1
		// dead, 2 won, more for other endings.
		switch v := m.Global(eg); v {
		case 0:
		case 2:
			shown, won = true, true
		default:
			shown = true
		}
	}
	if banner, bannerWon := endBanner(out); banner {
		shown, won = true, won || bannerWon
	}
	if endQuestionText(out) {
		shown = true
	}
	pc := m.PC()
	switch {
	case halted:
	case !shown && (pc != g.endPC || g.endPC == 0 || !g.done):
		return false, false
	case shown && g.isPromptPC(pc):
		// Waiting at the command prompt: the game plays on.
		return false, false
	}
	if won || wonLine(out) {
		return true, true
	}
	if !shown && pc == g.endPC {
		// A wrong answer to the final question: still over, as it was.
		return true, g.victory
	}
	// A game that ends with the full score is won: the maximum found, or
	// the one the final score line gives ("Your score is 80 (out of 80
	// points)").
	score, maxv := g.scoreOn(m), g.scoring.MaxScore
	if s, mx, ok := finalScore(out); ok {
		if !g.scoring.HasScore || g.scoring.ScoreGlobal < 0 {
			score = s
		}
		if maxv == 0 {
			maxv = mx
		}
	}
	return true, maxv > 0 && score >= maxv
}

// judgeCatalog is judgeOn for a game the catalog knows: its death,
// victory and end texts, or the machine halting.
func (g *Game) judgeCatalog(m *zmachine.Machine, out string) (done, victory bool) {
	done = m.State() == zmachine.Halted
	e := g.entry
	if containsAny(out, e.VictoryTexts) {
		return true, true
	}
	if containsAny(out, e.DeathTexts) {
		return true, false
	}
	if containsAny(out, e.EndTexts) {
		done = true
	}
	return done, done && e.MaxScore > 0 && g.scoreOn(m) >= e.MaxScore
}

// endBanner reports whether a reply has the Inform library's end of game
// banner ("*** You have died ***") and whether it says the game was won.
func endBanner(out string) (banner, won bool) {
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if len(line) > 8 && strings.HasPrefix(line, "*** ") && strings.HasSuffix(line, " ***") {
			banner = true
			won = won || strings.Contains(line, "You have won")
		}
	}
	return banner, won
}

// finalScore reads the last score line of a reply that prints both a
// score and its maximum ("Your score is 80 (out of 80 points)", "you
// scored 25 of a possible 25").
func finalScore(out string) (score, maxv int, ok bool) {
	for _, line := range strings.Split(out, "\n") {
		if !scoreLineRE.MatchString(line) {
			continue
		}
		s, mx := -1, -1
		for _, n := range scoreNumbers(line) {
			switch {
			case n.kind == numScore && s < 0:
				s = n.value
			case n.kind == numMax && mx < 0:
				mx = n.value
			}
		}
		if s >= 0 && mx > 0 {
			score, maxv, ok = s, mx, true
		}
	}
	return score, maxv, ok
}

var (
	endQuestionRE = lazyregexp.New(`(?i)\brestart\b.{0,160}\brestore\b.{0,160}\bquit\b[^.!?]{0,40}(?:[?:]\)?|\.\))$`)
	scoreLineRE   = lazyregexp.New(`(?i)\bscor(?:e|ed)\b[^\n]*\d`) // "Your score is 5", "you scored 60 out of"
	wonRE         = lazyregexp.New(`(?i)\byou have won\b|\bcongratulations\b`)
)

// endQuestionText reports whether a reply's last paragraph is the
// question that waits for RESTART, RESTORE or QUIT once a game is over
// ("(Type RESTART, RESTORE, or QUIT):", Planetfall's "(Type RESTART,
// RESTORE, or QUIT.)", "Would you like to RESTART, RESTORE a saved game
// or QUIT?").
func endQuestionText(out string) bool {
	out = strings.TrimRight(out, " \n>")
	i := strings.LastIndex(out, "\n\n")
	if i < 0 {
		return false
	}
	last := strings.Join(strings.Fields(out[i+2:]), " ")
	return endQuestionRE.MatchString(last)
}

// endQuestion reports whether a reply ends as an Infocom game's does once
// it is over, by its text alone: a final score line, then the RESTART,
// RESTORE or QUIT question as its last paragraph (endQuestionText). A
// reference transcript is judged so; grue's own replies are judged by the
// machine as well (judgeOn).
func endQuestion(out string) bool {
	if !endQuestionText(out) {
		return false
	}
	out = strings.TrimRight(out, " \n>")
	return scoreLineRE.MatchString(out[:strings.LastIndex(out, "\n\n")])
}

// wonLine reports whether a reply says the game was won.
func wonLine(out string) bool { return wonRE.MatchString(out) }

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if sub != "" && strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// trimPrompt removes the trailing input prompt and surrounding blank space.
func trimPrompt(s string) string {
	s = strings.TrimRight(s, " \n")
	s = strings.TrimSuffix(s, ">")
	return strings.TrimSpace(s)
}

// Done reports whether the last step ended the game.
func (g *Game) Done() bool { return g.done }

// Victory reports whether the last step ended the game with a win.
func (g *Game) Victory() bool { return g.victory }

// Info returns score, moves and location as they are now.
func (g *Game) Info() Info {
	if g.gx != nil {
		st := g.glulxStatus()
		in, inID := g.glulxContainer()
		return Info{Score: st.score, MaxScore: g.scoring.MaxScore, Moves: st.moves, Location: st.location,
			LocationID: g.glulxRoom(st.location), Container: in, ContainerID: inID,
			ScoreKnown: st.scoreKnown, MovesKnown: st.hasMoves, KeyExpected: g.KeyExpected()}
	}
	name, id := g.Location()
	in, inID := g.Container()
	return Info{Score: g.Score(), MaxScore: g.MaxScore(), Moves: g.Moves(), Location: name, LocationID: id,
		Container: in, ContainerID: inID,
		ScoreKnown: g.scoring.HasScore && g.scoring.ScoreGlobal >= 0, MovesKnown: g.scoring.MovesGlobal >= 0,
		KeyExpected: g.KeyExpected()}
}

// KeyExpected reports that the game waits for a single key rather than a
// command (see Info.KeyExpected).
func (g *Game) KeyExpected() bool {
	if g.gx != nil {
		return g.gx.m.Waiting() == glk.InputChar
	}
	return g.m.State() == zmachine.WaitKey
}

// Score is the score, from the machine: the global that the catalog names
// for a known game (Entry.ScoreGlobal), global 1 for a version 3 score
// game (its status line's), and for any other game the global that a
// forked machine's SCORE command prints (see Scoring); for a Glulx story
// the word in RAM that SCORE prints, or else the status window's. It is 0
// for a game without a score.
func (g *Game) Score() int {
	if g.gx != nil {
		return g.glulxStatus().score
	}
	return g.scoreOn(g.m)
}

// scoreOn is Score as machine m, which plays g's story, holds it.
func (g *Game) scoreOn(m *zmachine.Machine) int {
	if !g.scoring.HasScore || g.scoring.ScoreGlobal < 0 {
		return 0
	}
	return int(int16(m.Global(g.scoring.ScoreGlobal)))
}

// Moves is the number of turns, from the global found as Score's is (the
// catalog's, the version 3 status line's global 2, or the one SCORE
// prints); 0 when no such global is known.
func (g *Game) Moves() int {
	if g.gx != nil {
		return g.glulxStatus().moves
	}
	if g.scoring.MovesGlobal < 0 {
		return 0
	}
	return int(int16(g.m.Global(g.scoring.MovesGlobal)))
}

// MaxScore is the game's maximum score: the catalog's, or what its SCORE
// command gives as the maximum; 0 for a game without a score or when it
// is unknown (Scoring says which, and why).
func (g *Game) MaxScore() int { return g.scoring.MaxScore }

// Scoring says whether the game keeps a score and how grue reads it.
func (g *Game) Scoring() Scoring { return g.scoring }
