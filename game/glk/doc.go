// Package glk is the Glk library of grue's Glulx interpreter: what a
// Glulx story's glk opcode calls, answered as a plain-text interpreter
// answers it, so that the story's main window prints exactly what the
// reference glulxe over cheapglk prints on stdout.
//
// The VM hands each glk opcode to [Glk.Call] with the dispatch selector
// and the arguments it popped. Call parses them as the Glk dispatch
// layer's prototypes say (cheapglk's gi_dispa.c) and in the way glulxe's
// glkop.c passes them: arrays as an address and a length, references as
// addresses (0xFFFFFFFF meaning the VM's stack: a read pops, a write
// pushes), structures as consecutive words, and Glk objects by an
// identity number, never a pointer. A hostile argument (an object that
// does not exist, an array outside memory, a length beyond any bound)
// is an error naming the function, never a panic.
//
// What the library offers:
//
//   - Windows: a tree of pair, text buffer, text grid, graphics and blank
//     windows. The first text buffer window opened is the main window,
//     whose text [Glk.TakeOutput] returns; a text grid is kept as a grid
//     of characters ([Glk.StatusLine]) and never printed in the main
//     text. Graphics windows accept and ignore drawing.
//   - Streams: window streams, memory streams (bytes and Unicode, the
//     Unicode ones written back to memory when closed, as glulxe does),
//     file streams over a [FileStore] (in memory unless the host hands in
//     a directory, and then confined to it), Blorb data resources
//     ([Resources]).
//   - Input: line and character input, completed by the host with
//     [Glk.SendLine] and [Glk.SendKey]; while the story waits, Call
//     returns [ErrWait] having changed nothing.
//   - Styles are plain text; hyperlinks, timers, mouse input, graphics
//     and sound are answered with gestalt 0 and accepted as no-ops.
//   - [Glk.Snapshot] and [Glk.Restore] copy the whole Glk state, so that
//     grue can fork and undo a Glulx game.
package glk
