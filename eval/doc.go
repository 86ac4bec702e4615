// Package eval is grue's coding-task evaluation: it measures a coding agent,
// not a game agent. Each [Task] plants files in a fresh temporary workspace,
// the agent ([NewCodingAgent], or any [agent.Agent]) works there with the
// tools [TaskTools] gives it (read_file, write_file, run_shell, finish), and
// the task's hidden [Verifier] (tests and checks the agent never saw)
// decides whether it passed.
//
// [RunTask] runs one task and [Run] several, trial by trial; each
// [TaskResult] can be written in the results format of package
// [github.com/grue-lab/grue/harness] ([TaskResult.Record]), so that
// experiments' tools (grue exp compare) table evaluations too.
// [ReferencePolicy] applies a task's known solution through the same
// tools, which shows that every task can be solved and that every
// verifier accepts a right answer.
package eval
