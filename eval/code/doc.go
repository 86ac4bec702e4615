// Package code is the interactive coding session of grue code: the coding
// agent of package [github.com/grue-lab/grue/eval] working in a folder on
// task after task that a person types, the conversation carried over from
// one task to the next.
//
// A [Session] runs each task with [Session.Run] until the agent calls
// finish, a step limit stops it or its context ends (Ctrl-C), streaming
// every tool call and its result as they happen; [Session.Reset] starts a
// fresh conversation. Each task comes to a [Result]. The tools are
// [eval.TaskTools] over a [tools.Workspace]: paths stay inside the folder
// and commands run confined as in an evaluation.
package code
