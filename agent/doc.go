// Package agent is grue's ReAct agent: it reads the game's observation,
// asks a model (or a baseline policy) what to do, parses and repairs the
// answer, calls the tool, and records every part of the step.
//
// An Agent is a value whose parts a script may replace: the system prompt,
// the prompt builder, the protocol (the course's THOUGHT/TOOL/ARGS text or
// native tool calls), the memory strategy (agent/memory), the tools
// (agent/tools) and the LLM client (agent/llm). Step plays one step and
// returns its record; Run plays until the game ends or a limit is reached
// and returns a RunResult.
package agent
