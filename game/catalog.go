package game

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/game/zmachine"
	"github.com/grue-lab/grue/internal/boundedfile"
)

// Entry holds what grue knows about one story file, recognised by its header
// (release, serial and checksum), so that the facts attach to the right file
// whatever it is called.
type Entry struct {
	// Name is the short name a user types ("zork1").
	Name string
	// Title is the game's full title.
	Title string
	// Release, Serial and Checksum identify the story file.
	Release  int
	Serial   string
	Checksum uint16
	// MaxScore is the highest score the game awards.
	MaxScore int
	// Player is the object number of the player in the object tree.
	Player uint16
	// Rooms is the object whose children are the rooms, or 0 when rooms
	// have no parent (as in Inform games).
	Rooms uint16
	// DeathTexts end the game badly when the reply contains one of them.
	DeathTexts []string
	// EndTexts end the game when the reply contains one of them (the
	// game's restart/restore/quit question, for example); the game counts
	// as won when the score is MaxScore.
	EndTexts []string
	// VictoryTexts end the game with a win when the reply contains one.
	VictoryTexts []string
	// Walkthrough is the file name, in the games folder, of a solution
	// with one command a line; "" when there is none (or when the story
	// is built in: see Builtin and Commands).
	Walkthrough string
	// ScoreGlobal and MovesGlobal are the global variables (0 to 239) that
	// hold the score and the number of turns. 0 (or less) means the
	// version 3 status line globals, 1 and 2, which Infocom's games and
	// Inform's version 3 games keep them in; Inform games of version 5
	// and later keep them in the library's score and turns globals, whose
	// numbers depend on the game.
	ScoreGlobal, MovesGlobal int
	// Builtin reports that the story is one of grue's own, embedded in
	// the binary (see package stories), rather than a file.
	Builtin bool
}

// Commands returns the entry's walkthrough, one command an element: the
// built-in story's own, or the file Walkthrough names in the games folder.
// It returns nil and no error when there is none.
func (e Entry) Commands() ([]string, error) {
	if e.Builtin && e.Name == stories.DefaultName {
		return stories.Walkthrough(), nil
	}
	if e.Walkthrough == "" {
		return nil, nil
	}
	dir := os.Getenv(GamesEnv)
	if dir == "" {
		return nil, fmt.Errorf("walkthrough %s: %s is not set", e.Walkthrough, GamesEnv)
	}
	data, err := os.ReadFile(filepath.Join(dir, e.Walkthrough))
	if err != nil {
		return nil, fmt.Errorf("walkthrough: %w", err)
	}
	var cmds []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			cmds = append(cmds, l)
		}
	}
	return cmds, nil
}

// scoreGlobal and movesGlobal are the globals that hold the score and the
// turns, resolving 0 to the status line's.
func (e Entry) scoreGlobal() int {
	if e.ScoreGlobal > 0 {
		return e.ScoreGlobal
	}
	return 1
}

func (e Entry) movesGlobal() int {
	if e.MovesGlobal > 0 {
		return e.MovesGlobal
	}
	return 2
}

// zorkEnd is the question the Zork games ask when a game is over.
const zorkEnd = "(Type RESTART, RESTORE, or QUIT):"

// zorkDeath is the line the Zork games print when the player dies.
const zorkDeath = "****  You have died  ****"

// The Inform library's end-of-game banners.
const (
	informDeath   = "*** You have died ***"
	informVictory = "*** You have won ***"
)

var catalog = []Entry{
	{
		// Lantern, grue's own default story (game/stories). Its score and
		// turns globals were found by play: global 19 rises by exactly the
		// points each "[Your score has just gone up by N points.]" announces
		// and global 14 rises by one every turn (the library's score and
		// turns; gameinfo.dbg from inform6 -k agrees). Player 21 is the
		// library's "(self object)"; rooms have no parent.
		Name: stories.DefaultName, Title: "Lantern",
		Release: 1, Serial: "261121", Checksum: 0x0b7a,
		MaxScore: stories.MaxScore, Player: 21, Rooms: 0,
		DeathTexts:   []string{informDeath},
		VictoryTexts: []string{informVictory},
		ScoreGlobal:  19, MovesGlobal: 14,
		Builtin: true,
	},
	{
		Name: "zork1", Title: "Zork I: The Great Underground Empire",
		Release: 119, Serial: "880429", Checksum: 0xbf44,
		MaxScore: 350, Player: 44, Rooms: 39,
		DeathTexts:   []string{zorkDeath},
		EndTexts:     []string{zorkEnd},
		VictoryTexts: []string{`The ZORK trilogy continues with "ZORK II`},
		Walkthrough:  "zork1.walkthrough.txt",
	},
	{
		Name: "zork2", Title: "Zork II: The Wizard of Frobozz",
		Release: 63, Serial: "860811", Checksum: 0x4492,
		MaxScore: 400, Player: 40, Rooms: 37,
		DeathTexts: []string{zorkDeath},
		EndTexts:   []string{zorkEnd},
	},
	{
		Name: "zork3", Title: "Zork III: The Dungeon Master",
		Release: 25, Serial: "860811", Checksum: 0xf645,
		MaxScore: 7, Player: 35, Rooms: 34,
		DeathTexts: []string{zorkDeath},
		EndTexts:   []string{zorkEnd},
	},
}

// Catalog returns the games grue knows facts about, as copies.
func Catalog() []Entry {
	out := make([]Entry, len(catalog))
	for i, e := range catalog {
		e.DeathTexts = append([]string(nil), e.DeathTexts...)
		e.EndTexts = append([]string(nil), e.EndTexts...)
		e.VictoryTexts = append([]string(nil), e.VictoryTexts...)
		out[i] = e
	}
	return out
}

// Lookup returns the catalog entry for story, recognised by its release,
// serial number and checksum.
func Lookup(story *zmachine.Story) (Entry, bool) {
	for _, e := range Catalog() {
		if e.Release == story.Release() && e.Serial == story.Serial() && e.Checksum == story.Checksum() {
			return e, true
		}
	}
	return Entry{}, false
}

// GameFile is a story file found in the games folder.
type GameFile struct {
	// Name is the catalog name when the file is recognised, else the file
	// name without its extension.
	Name string
	// Path is where the file is.
	Path string
	// Known reports whether the catalog recognised the file; Title is
	// then the game's title.
	Known bool
	Title string
	// Version, Release, Serial and Checksum come from the header.
	Version  int
	Release  int
	Serial   string
	Checksum uint16
}

// gamesDepth is how deep [Games] looks under the games folder: its own
// files and those of its folders ("corpus/candy.z5"), and one level more.
const gamesDepth = 3

// Games lists the story files (by extension, see StoryExts) in the folder
// that the GRUE_GAMES environment variable names and in its folders, two
// levels down (hidden folders, whose names start with ".", and symbolic
// links to folders are not entered), sorted by name. A file the catalog
// knows is named as the catalog names it; another by its path under the
// games folder without its extension, with "/" between folders
// ("corpus/candy"), the very name [Find] takes. A file that does not load
// as a story is reported in the error, after the others are listed.
func Games() ([]GameFile, error) {
	dir := os.Getenv(GamesEnv)
	if dir == "" {
		return nil, nil
	}
	if _, err := os.ReadDir(dir); err != nil {
		return nil, fmt.Errorf("listing games: %w", err)
	}
	var out []GameFile
	var errs []error
	walkErr := filepath.WalkDir(dir, func(path string, de fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, fmt.Errorf("listing games: %w", err))
			if de != nil && de.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		rel, rerr := filepath.Rel(dir, path)
		if rerr != nil {
			return rerr
		}
		if de.IsDir() {
			if rel != "." && (strings.HasPrefix(de.Name(), ".") || len(strings.Split(filepath.ToSlash(rel), "/")) >= gamesDepth) {
				return fs.SkipDir
			}
			return nil
		}
		if !de.Type().IsRegular() || !isStoryExt(de.Name()) {
			return nil
		}
		gf, err := describe(path)
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		if !gf.Known {
			gf.Name = strings.TrimSuffix(filepath.ToSlash(rel), filepath.Ext(rel))
		}
		out = append(out, gf)
		return nil
	})
	if walkErr != nil {
		errs = append(errs, fmt.Errorf("listing games: %w", walkErr))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, errors.Join(errs...)
}

// describe loads the story at path and recognises it.
func describe(path string) (GameFile, error) {
	story, err := loadStory(path)
	if err != nil {
		return GameFile{}, err
	}
	base := filepath.Base(path)
	gf := GameFile{
		Name:     strings.TrimSuffix(base, filepath.Ext(base)),
		Path:     path,
		Version:  story.Version(),
		Release:  story.Release(),
		Serial:   story.Serial(),
		Checksum: story.Checksum(),
	}
	if e, ok := Lookup(story); ok {
		gf.Name, gf.Title, gf.Known = e.Name, e.Title, true
	}
	return gf, nil
}

// LoadStory loads the story nameOrPath names, for starting many games of
// it with [New]: a path, a name in the games folder (see [Find]), a name
// the catalog recognises there, or the built-in default story's name. It
// returns the story and the game's name, the file's base name without its
// extension. A Glulx story is an error wrapping [ErrGlulxStory] (with
// its name): [LoadGlulxStory] loads it.
func LoadStory(nameOrPath string) (*zmachine.Story, string, error) {
	path, err := Find(nameOrPath)
	def, data := stories.Default()
	// The built-in story is looked for before the catalog's files: a
	// file the catalog recognises as the default story is the same story
	// (same release, serial and checksum), and finding one loads every
	// story in the games folder (grue serve's and grue agent's start).
	if err != nil && !strings.EqualFold(nameOrPath, def) {
		if p, ok := findByCatalogName(nameOrPath); ok {
			path, err = p, nil
		}
	}
	if err != nil {
		if strings.EqualFold(nameOrPath, def) {
			story, lerr := zmachine.LoadInPlace(data) // Default's bytes are never written
			if lerr != nil {
				return nil, "", fmt.Errorf("loading the default story: %w", lerr)
			}
			return story, def, nil
		}
		return nil, "", fmt.Errorf("unknown game %q: %w", nameOrPath, err)
	}
	if _, ok, _ := readGlulxFile(path); ok {
		return nil, storyName(path), fmt.Errorf("opening game %q: %w", nameOrPath, ErrGlulxStory)
	}
	story, err := loadStory(path)
	if err != nil {
		return nil, "", fmt.Errorf("opening game %q: %w", nameOrPath, err)
	}
	return story, storyName(path), nil
}

// storyName is the base name of a story's path, without its extension.
func storyName(path string) string {
	base := path
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	if i := strings.LastIndex(base, "."); i > 0 {
		base = base[:i]
	}
	return base
}

// MaxStorySize is the largest story file grue reads: 512 KiB, the most a
// Z-machine story can hold (version 8). Anything larger is not a story,
// and reading it whole (a device such as /dev/zero, a huge file) would
// only exhaust memory.
const MaxStorySize = 512 << 10

// ReadStoryFile reads the story file at path without trusting it: only a
// regular file of at most [MaxStorySize] bytes is read (see
// [boundedfile.ReadFile]); a named pipe, a device or a directory is
// refused without blocking or reading a byte.
func ReadStoryFile(path string) ([]byte, error) {
	data, err := boundedfile.ReadFile(path, MaxStorySize)
	if err != nil {
		return nil, fmt.Errorf("reading story: %w", err)
	}
	return data, nil
}

// loadStory reads and loads the story file at path.
func loadStory(path string) (*zmachine.Story, error) {
	data, err := ReadStoryFile(path)
	if err != nil {
		return nil, err
	}
	story, err := zmachine.LoadInPlace(data) // data is ours alone
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return story, nil
}

func isStoryExt(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	for _, e := range StoryExts {
		if ext == e {
			return true
		}
	}
	return false
}

// findByCatalogName looks in the games folder for a file that the catalog
// recognises as name, for files not called NAME.z3 and the like.
func findByCatalogName(name string) (string, bool) {
	games, _ := Games()
	for _, g := range games {
		if g.Known && strings.EqualFold(g.Name, name) {
			return g.Path, true
		}
	}
	return "", false
}
