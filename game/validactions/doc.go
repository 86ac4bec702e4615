// Package validactions finds a game's valid actions: the commands that
// change the world from its current state, one for each distinct outcome.
// They are what a baseline agent chooses from (grue's explorer and random
// policies, the MCP tool valid_actions) and what a study measures an
// agent's choices against; package game offers them as
// [github.com/grue-lab/grue/game.Game.ValidActions], which most callers
// use.
//
// # How they are found
//
// As Jericho finds them: generate candidate commands, try each one from a
// snapshot of the current state on worker machines (in parallel over the
// cores), and keep those that change the world. The candidates are the
// directions the dictionary knows ([Directions]), fixed verbs with each
// object in scope (take, open, turn on, ...), two-object templates (put X
// in Y, unlock X with Y, ...), and the verbs of the game's own grammar,
// read from an Inform grammar table (grammar.go) or found as an Infocom
// syntax table (infocom.go). Objects are named by a word only they answer
// to (names.go), so that the parser never asks which one is meant.
//
// What counts as a change of the world (Search.hash): the parent and
// attributes of the objects that matter from this state (the player's
// room, all in it, its local globals, the player), the room's contents,
// the score (the global Search.ScoreGlobal names, when known), and
// whether the game ended. Globals other than the score are left out on
// purpose: the move counter and the games' per-turn bookkeeping (the
// parser's memory of the last command, say) change on every turn whatever
// the command, and would make every command that takes a turn look valid.
// Objects far away are left out too: daemons move them (the Zork thief
// wanders) with random numbers that a command's own draws shift, so their
// moves are noise, not the command's effect. A command is also dropped
// when its outcome equals the outcome of waiting a turn ("wait", or "z"
// when the dictionary lacks it), so that daemons (the thief wandering, a
// lamp burning down) do not make a do-nothing command look like one that
// changes the world. Of the commands with one outcome the one of fewest
// words stands for it, then the first: "take lamp" over "eat lamp".
//
// # What they cost
//
// Every candidate is a whole turn of the game on a worker machine, and
// most of them are refusals (some 50 000 instructions each in an Inform
// game); two-object templates grow as what is carried times what is in
// scope. So the candidates leave out what the game's grammar cannot parse
// (grammar.go), targets that cannot take the action (kinds.go: nothing is
// put into a key or given to a lamp), message-only verbs with objects that
// have no routine to react (react.go), and commands the Inform library
// only refuses for want of an attribute, read from the objects' routines
// (rules.go); none of this loses an outcome that trying every candidate
// finds (the tests compare the two). Over the corpus's scripted play the
// median state costs under a million Z-machine instructions, some 7 ms on
// two cores (docs/games.md has the table); Lantern with seven things
// carried some 11 ms. A game remembers the answers of its last 8 states
// ([Cache]), so asking again in a state costs a hash of dynamic memory;
// what is read of a story once (vocabulary, grammar, attribute layout,
// idle worker machines: [Story]) is shared by a game and its forks and
// forgotten with them. A candidate that runs past 2 million instructions
// is a loop, not a valid action; a state where even waiting loops has no
// valid actions to find, and [Search.Find] says so. A Find takes at most
// about [DefaultBudget] (a second; [Search.Budget]): past it, the
// candidates not yet tried are left out, the answer is not cached, and
// [Search.CutShort] says so.
package validactions
