// Package glulx is grue's Glulx interpreter: the virtual machine that
// Inform 7 (and Inform 6 with -G) compiles to, as the Glulx specification
// 3.1.3 describes it and as the reference interpreter glulxe implements
// it, so that the same story, seed and commands print what glulxe over
// cheapglk prints.
//
// [New] loads a .ulx image ([StoryBytes] takes it out of a Blorb file)
// and checks its header; [VM.Run] executes until the story waits for
// input, halts, faults or spends its instruction budget. The VM has the
// whole instruction set: integer, float and double arithmetic, branches,
// the stack and call stubs, strings (C, Unicode and compressed with the
// decoding table, through the null, filter and Glk I/O systems), the
// malloc heap, the search opcodes, protect, saveundo/restoreundo/
// hasundo/discardundo (each state the difference of RAM from the
// original memory), save/restore in the Quetzal-based Glulx format
// through Glk streams, accelerated functions (all of glulxe's accel.c),
// glulxe's gestalt answers and its random generator (xoshiro128** seeded
// as --rngseed seeds it). The double-precision sin, cos, tan, exp, log and
// pow are correctly rounded, as the C library glulxe calls gives them, and
// math-library NaNs carry the C library's sign.
//
// Everything from the story file is hostile: a bad header is refused, an
// access outside memory or the stack, an unknown opcode or a bad
// operand is an [*Error] naming the PC, memory is bounded
// ([Options.MaxMemory]) and so is each Run ([Options.Budget]); no panic
// leaves the package.
//
// [Machine] joins a VM with grue's Glk library (package game/glk) and
// plays it a line at a time, as `grue play` does: [Machine.Start],
// [Machine.Step], [Machine.EndInput], and [Machine.Snapshot] and
// [Machine.Restore] for forks.
package glulx
