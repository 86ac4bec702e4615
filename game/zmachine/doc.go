// Package zmachine is grue's Z-machine interpreter: it runs Infocom and
// Inform story files of versions 3, 4, 5, 7 and 8 as the Z-Machine Standards
// Document 1.1 describes, and as Frotz runs them.
//
// It is made for programs that play games, not for a terminal. A [Story] is
// a loaded, validated story file ([Load]); it is read-only and may be shared
// by any number of Machines. A [Machine] is one running game ([New]):
//
//	story, err := zmachine.Load(data)
//	m, err := zmachine.New(story, zmachine.Options{Seed: 12})
//	intro, err := m.Start()            // runs to the first input request
//	reply, err := m.Step("open mailbox") // one command, to the next input request
//
// Each [Machine.Step] returns the text the game printed to the lower window;
// the upper window (or the version 3 status line) is read separately with
// [Machine.StatusLine] and [Machine.UpperWindow], and the machine's condition
// (waiting for a line, for a key, for a file name, or halted) with
// [Machine.State].
//
// A Machine can be copied cheaply: [Machine.Snapshot] captures the whole
// state (dynamic memory, stack, call frames, program counter, random number
// generator and output state) and [Machine.Restore] puts it back, so a caller can branch a game, undo
// a move or try an action and come back.
//
// A program that reads the game's code rather than running it (a
// disassembler, or one that walks a routine to see whether it only prints
// and returns) decodes one instruction at a time with
// [Machine.Instruction]: its opcode's name, operands, store variable,
// branch and inline text, through the same decoder exec runs, without
// running anything. [Instruction.String] writes it as a disassembler does
// (`05621: je L03 L02 ?~0563b`).
//
// Random numbers follow Frotz's seeded generator, so a Machine with seed N
// prints what `dfrotz -s N` prints for the same commands.
//
// Nothing here panics past the package boundary: a bad story file, an illegal
// instruction, a stack overflow, a division by zero or a runaway loop ends
// with an [*Error] naming the problem and the program counter.
//
// The files follow Frotz's map of an interpreter: story.go (loading and the
// header), blorb.go (stories packaged in Blorb files), memory.go,
// process.go (the instruction loop), decode.go (the instruction forms and
// the decoded-instruction cache), instruction.go and opcodes.go (decoding
// for readers, the opcodes' names), ops*.go (the opcodes), object.go,
// text.go, input.go, output.go (streams, windows and the status line),
// random.go, snapshot.go (Snapshot, Restore and undo), quetzal.go (save
// files) and errors.go.
package zmachine
