package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/chzyer/readline"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/grue-lab/grue/game"
	"github.com/grue-lab/grue/game/glulx"
	"github.com/grue-lab/grue/game/stories"
	"github.com/grue-lab/grue/game/zmachine"
	"github.com/grue-lab/grue/internal/boundedfile"
)

// readStory finds a story by path or name and reads it; the default
// story's name, when no file of that name is found, gives the built-in one.
func readStory(story string) (path string, data []byte, err error) {
	path, err = game.Find(story)
	if err != nil {
		if name, built := stories.Default(); story == name {
			return name + ".z5", built, nil
		}
		return "", nil, err
	}
	// A named pipe, a device or a huge file is refused at once. A Glulx
	// story may be larger than a Z-machine one (glulx.MaxStorySize).
	data, err = boundedfile.ReadFile(path, glulx.MaxStorySize)
	if err != nil || (len(data) > game.MaxStorySize && !isGlulx(data)) {
		data, err = game.ReadStoryFile(path)
	}
	return path, data, err
}

// playOptions are the flags of grue play.
type playOptions struct {
	seed          int64
	plain         bool
	width, height int
}

func newPlayCmd() *cobra.Command {
	var o playOptions
	cmd := &cobra.Command{
		Use:   "play [--seed N] [--plain] [--width W] [--height H] [STORY]",
		Short: "Play a story file by hand",
		Long: `Play a story file by hand.

STORY is a path to a .z3, .z4, .z5, .z7 or .z8 story file, or the name of a
story in the folder that the GRUE_GAMES environment variable names ("zork1"
finds $GRUE_GAMES/zork1.z3). Without STORY, or with "lantern", grue plays its
own default story, Lantern, which is built in.

When stdin is a terminal, grue shows the status line in reverse video above
the game's text and reads commands with line editing and history; Ctrl-D
ends the game. When stdin is not a terminal, or with --plain, it reads one
command a line and prints the plain transcript that "dfrotz -m -p -q" prints:
the lower window only, no status line, no prompts other than the game's own.

The game's random numbers are seeded with --seed (1 unless given) exactly as
"dfrotz -s N" seeds them, so the same seed and commands give the same
transcript. Save files are read and written in the current directory.`,
		Example: `  grue play
  grue play zork1
  grue play --seed 12 --width 200 zork1 < $GRUE_GAMES/zork1.walkthrough.txt
  echo 'open mailbox' | grue play ./zork1.z3`,
		Args: MaxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			story := stories.DefaultName
			if len(args) == 1 {
				story = args[0]
			}
			return o.play(cmd, story)
		},
	}
	f := cmd.Flags()
	f.Int64Var(&o.seed, "seed", 1, "seed of the game's random numbers, as dfrotz -s N")
	f.BoolVar(&o.plain, "plain", false, "print the plain transcript even when stdin is a terminal")
	f.IntVar(&o.width, "width", 0, "screen width in characters, 1 to 255 (default: the terminal's width, else 80)")
	f.IntVar(&o.height, "height", 0, "screen height in lines, 1 to 255 (default: the terminal's height, else 24)")
	return cmd
}

func (o *playOptions) play(cmd *cobra.Command, story string) error {
	changed := cmd.Flags().Changed
	if changed("width") && (o.width < 1 || o.width > 255) {
		return UsageError{fmt.Errorf("--width %d: want 1 to 255", o.width)}
	}
	if changed("height") && (o.height < 1 || o.height > 255) {
		return UsageError{fmt.Errorf("--height %d: want 1 to 255", o.height)}
	}
	path, data, err := readStory(story)
	if err != nil {
		return err
	}
	glulxStory := isGlulx(data)
	var st *zmachine.Story
	if !glulxStory {
		if st, err = zmachine.LoadInPlace(data); err != nil { // read for it, or the built-in story's, which nothing writes
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	tuneGC(false)

	in, out := cmd.InOrStdin(), cmd.OutOrStdout()
	terminal := !o.plain && isTerminal(in)
	width, height := o.width, o.height
	if !changed("width") {
		width = 80
	}
	if !changed("height") {
		height = 24
	}
	if terminal {
		if w, h, ok := terminalSize(out); ok {
			if !changed("width") {
				width = min(w, 255)
			}
			if !changed("height") {
				height = min(h, 255)
			}
		}
	}
	if glulxStory && !terminal {
		return playGlulx(path, data, o.seed, width, height, in, out)
	}
	var m machine
	if glulxStory {
		gm, err := glulx.NewMachine(data, glulx.MachineOptions{Seed: uint32(o.seed), Width: width, Height: height})
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		m = glulxTerminal{gm}
	} else {
		zm, err := zmachine.New(st, zmachine.Options{
			Seed:   o.seed,
			Width:  width,
			Height: height,
			Files:  zmachine.DirFiles("."),
			Name:   strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)),
		})
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if !terminal {
			return playPlain(zm, in, out)
		}
		m = zm
	}
	rl, err := readline.NewEx(&readline.Config{
		Stdin:             readline.NewCancelableStdin(in),
		Stdout:            out,
		Stderr:            cmd.ErrOrStderr(),
		HistoryLimit:      1000,
		InterruptPrompt:   "^C",
		HistorySearchFold: true,
	})
	if err != nil {
		return err
	}
	defer rl.Close()
	return playTerminal(m, rl, out, width, noColor())
}

// noColor reports whether the user asked for no colours or other ANSI
// styling: NO_COLOR set and not empty (https://no-color.org).
func noColor() bool { return os.Getenv("NO_COLOR") != "" }

// machine is what grue play needs of a *zmachine.Machine.
type machine interface {
	Start() (string, error)
	Step(input string) (string, error)
	State() zmachine.State
	StatusLine() string
	UpperChanges() string
}

var _ machine = (*zmachine.Machine)(nil)

// playPlain plays m with commands read from in, one a line, and writes the
// plain transcript to out: the game's text, as `dfrotz -m -p -q` prints it,
// the rows of the upper window the game changed (menus, title screens, box
// quotes: [zmachine.Machine.UpperChanges]) before the text of each reply,
// and a newline after each line of input where a terminal would have shown
// the Return, so that every reply starts on a line of its own. It stops at
// the end of in or when the game halts. A last line without a newline is
// played too (dfrotz drops it).
//
// dfrotz itself prints nothing after input from a pipe (Zork's "foo" gives
// ">I don't know the word") but blank lines where its status line changed;
// transcripts are held to dfrotz's with whitespace aside.
//
// The transcript is written out whenever reading the next command would
// wait (a program on the other end of a pipe sees each reply before it
// must answer) and at the end; commands already read ahead, from a script
// say, are answered into a buffer instead of with a write each, which for
// a script of 300 commands into a pipe took 5 to 15 % off the run.
func playPlain(m machine, in io.Reader, out io.Writer) error {
	w := bufio.NewWriterSize(out, 64<<10)
	text, err := m.Start()
	if _, werr := w.WriteString(m.UpperChanges() + text); err == nil {
		err = werr
	}
	r := bufio.NewReader(in)
	for err == nil && m.State() != zmachine.Halted {
		// Show the prompt before waiting for input from a pipe.
		if !lineBuffered(r) {
			if err = w.Flush(); err != nil {
				break
			}
		}
		line, rerr := r.ReadString('\n')
		if rerr != nil && rerr != io.EOF {
			err = rerr
			break
		}
		if line == "" && rerr == io.EOF {
			break
		}
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if m.State() == zmachine.WaitLine {
			if _, err = w.WriteString("\n"); err != nil {
				break
			}
		}
		text, err = m.Step(line)
		if _, werr := w.WriteString(m.UpperChanges() + text); err == nil {
			err = werr
		}
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return err
}

// lineBuffered reports whether r holds a whole line already read, so that
// reading it will not wait.
func lineBuffered(r *bufio.Reader) bool {
	b, _ := r.Peek(r.Buffered())
	return bytes.IndexByte(b, '\n') >= 0
}

// lineReader is what playTerminal needs of a *readline.Instance.
type lineReader interface {
	SetPrompt(prompt string)
	Readline() (string, error)
}

// playTerminal plays m in a terminal: the status line in reverse video when
// it changes (plain when plain is set: NO_COLOR), then the game's text; the text's last line (the game's prompt,
// such as ">") becomes the prompt of the line editor. It ends when the game
// halts, at Ctrl-D, or at Ctrl-C on an empty line.
func playTerminal(m machine, rl lineReader, out io.Writer, width int, plain bool) error {
	style := "\x1b[7m%s\x1b[0m\n"
	if plain {
		style = "%s\n"
	}
	status := ""
	show := func(text string) error {
		if s := m.StatusLine(); s != status {
			status = s
			if s != "" {
				if _, err := fmt.Fprintf(out, style, padRight(s, width)); err != nil {
					return err
				}
			}
		}
		body, prompt := splitPrompt(text)
		if m.State() == zmachine.Halted {
			body, prompt = text, ""
			if body != "" && !strings.HasSuffix(body, "\n") {
				body += "\n"
			}
		}
		rl.SetPrompt(prompt)
		_, err := io.WriteString(out, wrap(body, width))
		return err
	}

	text, err := m.Start()
	if serr := show(text); err == nil {
		err = serr
	}
	for err == nil && m.State() != zmachine.Halted {
		line, rerr := rl.Readline()
		switch {
		case errors.Is(rerr, readline.ErrInterrupt):
			if line == "" {
				return nil
			}
			continue
		case errors.Is(rerr, io.EOF):
			_, err = io.WriteString(out, "\n")
			return err
		case rerr != nil:
			return rerr
		}
		text, err = m.Step(line)
		if serr := show(text); err == nil {
			err = serr
		}
	}
	return err
}

// splitPrompt splits the game's text before its last line, which is the
// prompt that the game left the cursor after.
func splitPrompt(text string) (body, prompt string) {
	i := strings.LastIndexByte(text, '\n')
	return text[:i+1], text[i+1:]
}

// padRight pads s with spaces to width characters.
func padRight(s string, width int) string {
	if n := width - len([]rune(s)); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

// isTerminal reports whether r is a terminal.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// terminalSize returns the size of the terminal w, if it is one.
func terminalSize(w io.Writer) (width, height int, ok bool) {
	f, isFile := w.(*os.File)
	if !isFile || !term.IsTerminal(int(f.Fd())) {
		return 0, 0, false
	}
	width, height, err := term.GetSize(int(f.Fd()))
	return width, height, err == nil && width > 0 && height > 0
}
