// Package agent is grue's ReAct agent: it reads the game's observation,
// asks a model (or a baseline policy) what to do, parses and repairs the
// answer, calls the tool, and records every part of the step.
//
// An [Agent] is a value whose parts a script may replace: the system
// prompt, the [PromptBuilder], the protocol (THOUGHT/TOOL/ARGS text or
// native tool calls), the memory strategy ([memory.Strategy]), the tools
// ([tools.Registry]) and the LLM client ([llm.Client]). [Agent.Step] plays
// one step and returns its record; [Agent.Run] plays until the game ends
// or a limit is reached and returns a [RunResult]. A [Policy] other than
// the model (the baselines: [NewExplorer], [NewRandom], [NewWalkthrough])
// may choose the actions instead. docs/design.md shows where the agent
// sits in an episode.
package agent
