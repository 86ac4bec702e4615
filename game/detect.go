package game

import (
	"sort"
	"strconv"
	"strings"

	"github.com/grue-lab/grue/game/validactions"
	"github.com/grue-lab/grue/game/zmachine"
	"github.com/grue-lab/grue/internal/lazyregexp"
)

// Scoring says whether and how a game keeps score, and how grue reads its
// score, moves and maximum score: from the catalog, from globals found by
// probing, or not at all (with the reason).
type Scoring struct {
	// HasScore reports that the game keeps a score that grue can read.
	HasScore bool
	// ScoreGlobal and MovesGlobal are the global variables holding the
	// score and the turn count, -1 when unknown. When SCORE does not print
	// the turns, MovesGlobal is the first global that "wait" raises by one
	// each time and SCORE leaves alone.
	ScoreGlobal, MovesGlobal int
	// MaxScore is the highest score the game awards, 0 when it has none
	// or grue could not find it.
	MaxScore int
	// Method says how the globals and the maximum were found: "catalog",
	// "status line globals" (version 3 score games), "score command
	// probe" (a forked machine's answer to SCORE, with each number traced
	// to the global it prints by changing candidates one at a time), or
	// "" while nothing is known.
	Method string
	// Reason explains a game without a score, or why grue found none.
	Reason string
	// EndGlobal is the global that says the game is over (the Inform
	// library's deadflag: 0 playing, 1 dead, 2 won, more for other
	// endings), -1 when unknown; it is found by setting candidates on a
	// forked machine until a turn ends with the library's "*** ... ***"
	// banner.
	EndGlobal int
}

// scoring starts the Scoring of a game: the catalog's facts for a known
// game, the status line globals for a version 3 score game, and otherwise
// nothing yet (detect probes the game later).
func (g *Game) initScoring() {
	g.scoring = Scoring{ScoreGlobal: -1, MovesGlobal: -1, EndGlobal: -1}
	switch {
	case g.known:
		g.scoring = Scoring{
			HasScore: g.entry.MaxScore > 0, ScoreGlobal: g.entry.scoreGlobal(),
			MovesGlobal: g.entry.movesGlobal(), MaxScore: g.entry.MaxScore, Method: "catalog",
		}
		if !g.scoring.HasScore {
			g.scoring.Reason = "the catalog gives no maximum score"
		}
	case g.story.Version() <= 3 && g.m.Version() <= 3:
		flags, _ := g.m.PeekByte(0x01)
		if flags&0x02 != 0 {
			// A time game: globals 1 and 2 are the hours and minutes
			// the status line shows, not a score. Many keep a score
			// all the same, which only SCORE prints (Cutthroats'
			// "out of a possible 250", Seastalker's): the probe looks
			// for it, away from the clock's globals.
			g.timeGame = true
			g.scoring.Reason = "a time game: its status line shows the time, and its SCORE command prints no score"
			return
		}
		g.scoring.ScoreGlobal, g.scoring.MovesGlobal = 1, 2
		g.scoring.HasScore = true
		g.scoring.Method = "status line globals"
	}
}

// probeLimit is how many times grue probes a game it does not know for its
// score and player (once at the start, then after each step while the game
// is not yet at a command prompt or has not answered).
const probeLimit = 8

// detect probes an uncatalogued game, on a forked machine, for whatever is
// still unknown: the score and moves globals and the maximum score, and the
// player. It does nothing once everything is known or after probeLimit
// tries.
func (g *Game) detect() {
	if g.known || g.probes >= probeLimit || g.m.State() != zmachine.WaitLine {
		return
	}
	needScore, needPlayer := g.needScore(), g.player == 0
	if !needScore && !needPlayer {
		return
	}
	defer g.toCache()
	g.probes++
	p, err := g.newProber()
	if err != nil {
		return
	}
	if needScore {
		before := g.scoring
		g.probeScore(p)
		g.scoring = keepFound(before, g.scoring)
	}
	if needPlayer {
		g.rooms = g.roomsParent()
		g.player = g.moverProbe(p, g.findPlayer())
		g.playerGlobal = g.globalHolding(g.player)
	}
}

// keepFound is the scoring that a later probe (now) makes of a game that
// an earlier one found the score and turns globals of (before): a probe
// made where SCORE is not understood (a question waiting for its answer,
// a menu) finds less, and must not take away what was found, or the
// moves and score would depend on when grue happened to probe. It only
// adds what before lacked: a maximum, an end flag.
func keepFound(before, now Scoring) Scoring {
	if before.Method == "" || before.ScoreGlobal < 0 && before.MovesGlobal < 0 {
		return now
	}
	if before.MaxScore == 0 && now.MaxScore > 0 && now.ScoreGlobal == before.ScoreGlobal {
		before.MaxScore, before.Reason = now.MaxScore, ""
	}
	if before.MovesGlobal < 0 {
		before.MovesGlobal = now.MovesGlobal
	}
	if before.EndGlobal < 0 {
		before.EndGlobal = now.EndGlobal
	}
	return before
}

// roomsParent finds the object whose children are the rooms, in a
// version 3 game: the parent of global 0's room when that parent has none
// itself (Infocom's ROOMS object); 0 when the rooms have no parent (the
// Inform library's) or the game is of a later version.
func (g *Game) roomsParent() uint16 {
	if g.story.Version() > 3 {
		return 0
	}
	loc := g.m.Global(0)
	if loc == 0 || int(loc) > g.objects {
		return 0
	}
	p, _, _ := g.m.Object(loc)
	if p == 0 {
		return 0
	}
	if pp, _, _ := g.m.Object(p); pp != 0 {
		return 0
	}
	return p
}

// globalHolding returns the lowest global other than global 0 (the
// location) that holds object o, -1 if none does or o is 0.
func (g *Game) globalHolding(o uint16) int {
	if o == 0 {
		return -1
	}
	for gl := 1; gl < 240; gl++ {
		if g.m.Global(gl) == o {
			return gl
		}
	}
	return -1
}

// followPlayer takes the player from the global that held it when it was
// found, when that now holds another object that is somewhere in the
// tree: the Inform library's ChangePlayer puts the new player object
// there.
func (g *Game) followPlayer() {
	if g.known || g.playerGlobal < 0 {
		return
	}
	v := g.m.Global(g.playerGlobal)
	if v == 0 || v == g.player || int(v) > g.objects {
		return
	}
	if parent, _, _ := g.m.Object(v); parent != 0 && !g.within(v, g.player, g.objects) {
		// Not something the player holds: a global that held the
		// player and now holds a thing it carries is not the
		// library's player (Sherbet's telescope, Tryst's gold watch).
		g.player = v
	}
}

// needScore reports whether the score probes have not found how the game
// keeps score yet.
func (g *Game) needScore() bool {
	return g.scoring.Method == "" || (g.scoring.HasScore && g.scoring.MaxScore == 0)
}

// moverProbe finds the player as the object that moves when the player
// moves: each direction is tried from the current state, and the object
// that reaches the most different rooms (parentless objects, or the
// children of the rooms' parent: Infocom's ROOMS) is the player; a character walking on its own goes to the same room whatever
// the direction. guess (findPlayer's answer) wins a tie, and stands when
// no direction moves anything.
func (g *Game) moverProbe(p *prober, guess uint16) uint16 {
	before := make([]uint16, g.objects+1)
	for o := 1; o <= g.objects; o++ {
		before[o], _, _ = g.m.Object(uint16(o))
	}
	dests := map[uint16]map[uint16]bool{}
	for _, dir := range validactions.Directions() {
		if _, ok := p.run(dir, -1, 0); !ok {
			continue
		}
		for o := 1; o <= g.objects; o++ {
			now, _, _ := p.m.Object(uint16(o))
			if now == before[o] || now == 0 || before[o] == 0 {
				continue
			}
			if pp, _, _ := p.m.Object(now); pp != 0 && pp != g.rooms {
				continue // moved into something, not to another room
			}
			if dests[uint16(o)] == nil {
				dests[uint16(o)] = map[uint16]bool{}
			}
			dests[uint16(o)][now] = true
		}
	}
	best, bestN := guess, len(dests[guess])
	for o, d := range dests {
		if len(d) > bestN || (len(d) == bestN && best != guess && o < best) {
			best, bestN = o, len(d)
		}
	}
	return best
}

// prober runs commands on a fork of the game's machine from its current
// state, each from that same state.
type prober struct {
	m     *zmachine.Machine
	start *zmachine.Snapshot
}

func (g *Game) newProber() (*prober, error) {
	m, err := g.newMachine()
	if err != nil {
		return nil, err
	}
	snap := g.m.Snapshot()
	if err := m.Restore(snap); err != nil {
		return nil, err
	}
	return &prober{m: m, start: snap}, nil
}

// run plays cmd from the start state with global gl set to v first (gl
// < 0: nothing set) and returns the reply.
func (p *prober) run(cmd string, gl int, v uint16) (string, bool) {
	if err := p.m.Restore(p.start); err != nil {
		return "", false
	}
	if gl >= 0 && p.m.SetGlobal(gl, v) != nil {
		return "", false
	}
	out, err := p.m.Step(cmd)
	return out, err == nil
}

// scoreKeys bounds the Returns that score gives a SCORE that waits before
// it prints the score.
const scoreKeys = 2

// score plays SCORE as run does, and when the reply has no number yet and
// the game waits for more (The Hitchhiker's Guide's "Put on your
// peril-sensitive sunglasses now. (Hit RETURN or ENTER when ready.)", a
// "[MORE]" pause), answers with Return and takes what follows as well.
func (p *prober) score(gl int, v uint16) (string, bool) {
	reply, ok := p.run("score", gl, v)
	for i := 0; ok && i < scoreKeys && !numberRE.MatchString(reply); i++ {
		if st := p.m.State(); st != zmachine.WaitLine && st != zmachine.WaitKey {
			break
		}
		more, err := p.m.Step("")
		if err != nil {
			return reply, false
		}
		reply += "\n" + more
	}
	return reply, ok
}

// number is one number in a reply and what the words around it make it.
type number struct {
	value int
	kind  numberKind
}

type numberKind int

const (
	numScore numberKind = iota
	numMax
	numMoves
	numOther
)

var numberRE = lazyregexp.New(`-?\d+`)

// scoreNumbers finds the numbers of a reply to SCORE and tells the score,
// the maximum and the moves apart by the words around them ("out of a
// possible 50", "in 3 turns", "total of 350 points"); the first number
// that is neither is the score.
func scoreNumbers(reply string) []number {
	low := strings.ToLower(reply)
	var out []number
	haveScore := false
	for _, loc := range numberRE.FindAllStringIndex(low, -1) {
		v, err := strconv.Atoi(low[loc[0]:loc[1]])
		if err != nil {
			continue
		}
		before := strings.Join(strings.Fields(low[max(0, loc[0]-24):loc[0]]), " ")
		after := strings.TrimSpace(low[loc[1]:min(len(low), loc[1]+12)])
		k := numOther
		switch {
		case strings.HasPrefix(after, "turn") || strings.HasPrefix(after, "move"):
			k = numMoves
		case maxWord(before):
			k = numMax
		case !haveScore:
			k, haveScore = numScore, true
		}
		out = append(out, number{value: v, kind: k})
	}
	return out
}

var (
	statusScoreRE = lazyregexp.New(`(?i)\bscore:?\s*(-?\d+)`)
	statusMovesRE = lazyregexp.New(`(?i)\b(?:moves|turns):?\s*(\d+)`)
)

// probeStatusLine reads score and moves from the status line that a game
// of version 4 or later draws in its upper window ("Score: 3  Moves: 12"),
// and traces each to its global: each global holding the number is set to
// probeValue on the fork, and the one that makes the status line drawn
// after a turn show probeValue (or one more, for the moves) is it. Games
// without a score on their status line are left unknown; the maximum
// score is not on a status line, so it stays 0.
func (g *Game) probeStatusLine(p *prober) {
	if g.story.Version() <= 3 {
		return
	}
	line := g.m.StatusLine()
	sm, mm := statusScoreRE.FindStringSubmatch(line), statusMovesRE.FindStringSubmatch(line)
	if sm == nil {
		return
	}
	s := Scoring{ScoreGlobal: -1, MovesGlobal: -1, EndGlobal: -1, Method: "status line"}
	trace := func(re *lazyregexp.Regexp, value string) int {
		v, err := strconv.Atoi(value)
		if err != nil {
			return -1
		}
		for gl := 0; gl < 240; gl++ {
			if int(int16(g.m.Global(gl))) != v {
				continue
			}
			if _, ok := p.run("wait", gl, probeValue); !ok {
				continue
			}
			if m := re.FindStringSubmatch(p.m.StatusLine()); m != nil && (m[1] == strconv.Itoa(probeValue) || m[1] == strconv.Itoa(probeValue+1)) {
				return gl
			}
		}
		return -1
	}
	s.ScoreGlobal = trace(statusScoreRE, sm[1])
	if mm != nil {
		s.MovesGlobal = trace(statusMovesRE, mm[1])
	}
	if s.ScoreGlobal >= 0 {
		s.HasScore = true
		s.Reason = "the status line shows the score but not its maximum, and the game has no SCORE command that gives it"
	} else {
		s.Reason = "no global holds the score the status line shows"
	}
	g.scoring = s
}

// maxWord reports whether the words before a number make it a maximum.
func maxWord(before string) bool {
	for _, w := range []string{"possible", "out of", "maximum of", "maximum", "total of", "out of a possible"} {
		if strings.HasSuffix(before, w) {
			return true
		}
	}
	return false
}

// probeValue is the value a candidate global is set to: a number no score
// line prints by chance.
const probeValue = 4321

// probeScore asks the fork for its SCORE and traces each number of the
// reply to the global that holds it.
func (g *Game) probeScore(p *prober) {
	reply, ok := p.score(-1, 0)
	if !ok {
		return
	}
	nums := scoreNumbers(reply)
	var score, maxv, moves *number
	for i := range nums {
		n := &nums[i]
		switch {
		case n.kind == numScore && score == nil:
			score = n
		case n.kind == numMax && maxv == nil:
			maxv = n
		case n.kind == numMoves && moves == nil:
			moves = n
		}
	}
	if score == nil && moves == nil {
		// Not at a prompt that takes commands yet, or no SCORE verb: the
		// status line the game draws may still show the score.
		g.probeStatusLine(p)
		return
	}
	s := Scoring{ScoreGlobal: -1, MovesGlobal: -1, EndGlobal: -1, Method: "score command probe"}
	if moves != nil {
		s.MovesGlobal = g.traceGlobal(p, moves.value, numMoves)
	}
	if score != nil {
		s.ScoreGlobal = g.traceGlobal(p, score.value, numScore)
	}
	if s.MovesGlobal < 0 {
		s.MovesGlobal = g.turnCounter(p)
	}
	s.EndGlobal = g.endGlobal(p, s.ScoreGlobal)
	if maxv != nil {
		s.MaxScore = maxv.value
	}
	switch {
	case score == nil:
		s.Reason = "its SCORE command prints no score"
	case maxv == nil && s.ScoreGlobal >= 0:
		s.HasScore = true
		s.Reason = "its SCORE command prints no maximum score: the maximum is unknown"
	case maxv == nil:
		s.Reason = "its SCORE command prints no maximum score"
	case s.MaxScore <= 0:
		s.Reason = "its SCORE command gives a maximum of " + strconv.Itoa(s.MaxScore) + ": the game keeps no score"
		s.MaxScore = 0
	case s.ScoreGlobal < 0:
		s.Reason = "no global holds the score that SCORE prints"
	default:
		s.HasScore = true
	}
	g.scoring = s
}

// endProbeLimit bounds the turns endGlobal plays.
const endProbeLimit = 40

// endGlobal finds the global that ends the game when set (the Inform
// library's deadflag): each global that holds 0 is set to 1 in turn, the
// nearest to the score global first (the library declares them together),
// and the first after which a "wait" ends with a "*** ... ***" banner is
// it. It returns -1 when none of the first endProbeLimit does.
func (g *Game) endGlobal(p *prober, near int) int {
	if near < 0 {
		near = 0
	}
	var zero []int
	for gl := 1; gl < 240; gl++ {
		if g.m.Global(gl) == 0 && gl != near {
			zero = append(zero, gl)
		}
	}
	dist := func(gl int) int {
		if gl < near {
			return 2*(near-gl) + 1 // after the score before before it
		}
		return 2 * (gl - near)
	}
	sort.SliceStable(zero, func(i, j int) bool { return dist(zero[i]) < dist(zero[j]) })
	for i, gl := range zero {
		if i >= endProbeLimit {
			break
		}
		if out, ok := p.run("wait", gl, 1); ok && hasEndBanner(out) {
			return gl
		}
	}
	return -1
}

// hasEndBanner reports whether a reply has the Inform library's end of
// game banner, a line "*** You have died ***" or the like.
func hasEndBanner(out string) bool {
	banner, _ := endBanner(out)
	return banner
}

// turnCounter finds the turn counter of a game whose SCORE does not print
// it: the first global that "wait" raises by exactly one, twice running,
// and SCORE (which takes no turn) leaves alone. It returns -1 when no
// global does.
func (g *Game) turnCounter(p *prober) int {
	if _, ok := p.run("score", -1, 0); !ok {
		return -1
	}
	after := make([]uint16, 240)
	for gl := range after {
		after[gl] = p.m.Global(gl)
	}
	if _, ok := p.run("wait", -1, 0); !ok {
		return -1
	}
	once := make([]uint16, 240)
	for gl := range once {
		once[gl] = p.m.Global(gl)
	}
	if _, err := p.m.Step("wait"); err != nil {
		return -1
	}
	for gl := 0; gl < 240; gl++ {
		if g.timeGame && (gl == 1 || gl == 2) {
			continue // the clock's hours and minutes, not a turn count
		}
		v := g.m.Global(gl)
		if after[gl] == v && once[gl] == v+1 && p.m.Global(gl) == v+2 {
			return gl
		}
	}
	return -1
}

// traceGlobal finds the global that holds the number of kind k that SCORE
// prints as value: each global holding value is set to probeValue in turn,
// and the one that makes SCORE print probeValue in that place is it. It
// returns -1 when none does.
func (g *Game) traceGlobal(p *prober, value int, k numberKind) int {
	for gl := 0; gl < 240; gl++ {
		if int(int16(g.m.Global(gl))) != value {
			continue
		}
		reply, ok := p.score(gl, probeValue)
		if !ok {
			continue
		}
		for _, n := range scoreNumbers(reply) {
			if n.value == probeValue && (n.kind == k || (k == numScore && n.kind == numOther)) {
				return gl
			}
		}
	}
	return -1
}
