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
// Where cheapglk prints a warning ("Glk library error: ..." for a null
// window, a cursor moved in a text buffer, a second input request), so
// does this library, in the main text: glulxe's standard output holds
// those lines. Functions glulxe runs without the prototypes (put_char,
// put_char_stream, the current stream) are run the same way, down to a
// stream id that names nothing being a warning there and a fault
// elsewhere.
//
// What the library offers:
//
//   - Windows: a tree of pair, text buffer, text grid, graphics and blank
//     windows. The first text buffer window opened is the main window,
//     whose text [Glk.TakeOutput] returns; one text grid is kept as a
//     grid of characters ([Glk.StatusLine]) and never printed in the
//     main text; a second text buffer or text grid (a quote box) is
//     refused, as cheapglk refuses it, so that the story prints it in
//     the main window. Graphics windows accept and ignore drawing.
//     [Options.OneWindow] refuses all but the main window, as cheapglk
//     does: Inform 7 stories without a status window behave differently
//     (after many turns, some stop with a run-time problem), and only
//     then is a story's text exactly glulxe's.
//   - Streams: window streams, memory streams (bytes and Unicode, the
//     Unicode ones written back to memory when closed, as glulxe does),
//     file streams over a [FileStore] (in memory unless the host hands in
//     a directory, and then confined to it), Blorb data resources
//     ([Resources]).
//   - Input: line and character input, completed by the host with
//     [Glk.SendLine] and [Glk.SendKey]; while the story waits, Call
//     returns [ErrWait] having changed nothing. Lines are read as
//     cheapglk reads them (not echoed, at most 254 characters at a time,
//     a key from a line's first character); fileref_create_by_prompt
//     prints cheapglk's prompt and waits for a file name the same way.
//   - Styles are plain text; hyperlinks, timers, mouse input, graphics
//     and sound are answered with gestalt 0 and accepted as no-ops.
//   - [Glk.Snapshot] and [Glk.Restore] copy the whole Glk state, so that
//     grue can fork and undo a Glulx game.
package glk
