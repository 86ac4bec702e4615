package agent

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/grue-lab/grue/agent/llm"
)

// Step is the record of one step: everything that went in, came out and
// was changed on the way. A slice of Steps is an episode's trajectory; it
// is plain data and marshals to JSON as such.
type Step struct {
	// Step is the step's number in the episode, from 1.
	Step     int    `json:"step"`
	Protocol string `json:"protocol,omitempty"`
	// Policy names the policy that chose the action; empty when the LLM
	// did.
	Policy string `json:"policy,omitempty"`
	// Warning is the warning the step's prompt carried (a loop, a reply
	// that could not be read), if any.
	Warning string `json:"warning,omitempty"`
	// Prompt is exactly the messages the model was sent.
	Prompt []llm.Message `json:"prompt,omitempty"`
	// Reply is the model's reply as it came: text, native tool calls, and
	// the call's usage, cost, latency, retries and whether it was cached.
	Reply *llm.Reply `json:"reply,omitempty"`

	// Thought, Tool and Args are the decision after parsing and repair:
	// what was really called.
	Thought string         `json:"thought,omitempty"`
	Tool    string         `json:"tool"`
	Args    map[string]any `json:"args,omitempty"`
	// CallID is the native tool call's ID that the result answers.
	CallID string `json:"call_id,omitempty"`
	// Repairs lists every change made between the reply and the call.
	Repairs []Repair `json:"repairs,omitempty"`

	// Observation is the text the tool gave back, as the model will see it.
	Observation string `json:"observation"`
	// ToolError is true when the tool refused the call (an empty action, a
	// game that is over); Observation then says why.
	ToolError bool `json:"tool_error,omitempty"`
	Reward    int  `json:"reward"`
	Score     int  `json:"score"`
	MaxScore  int  `json:"max_score,omitempty"`
	Moves     int  `json:"moves"`
	// MovesUnknown is true when the game's move count is unknown: "moves"
	// is then null in JSON, and Moves 0.
	MovesUnknown bool   `json:"-"`
	Location     string `json:"location,omitempty"`
	Done         bool   `json:"done,omitempty"`
	Victory      bool   `json:"victory,omitempty"`

	// Error is why the step failed (the model could not be reached, the
	// game server died); empty for a step that played.
	Error string `json:"error,omitempty"`

	// Usage and Cost are the step's tokens and dollars: the reply's and
	// any the memory strategy spent summarising.
	Usage llm.Usage `json:"usage"`
	Cost  float64   `json:"cost"`
	// EstimatedTokens is how many of Usage's tokens the agent estimated
	// (llm.EstimateMessages of the request and the reply) because a reply
	// came without usage, as some servers send none: those tokens count
	// towards Limits.MaxTokens all the same. 0 when the server counted
	// every token; Reply.Usage is always what the server said. When the
	// agent's LLM is an llm.Pricer those tokens are priced too, so Cost
	// is then in part an estimate.
	EstimatedTokens int `json:"estimated_tokens,omitempty"`

	// Wall is the step's wall time. LLMTime, ToolTime and MemoryTime are
	// the parts spent waiting for the model (or policy), the tool and the
	// memory strategy; Overhead is the rest, the agent's own work. In
	// JSON they are wall_ms, llm_time_ms, tool_time_ms, memory_time_ms
	// and overhead_ms, in milliseconds (llm.Millis); steps written
	// before, in nanoseconds under the names without _ms, still read.
	Wall       time.Duration `json:"-"`
	LLMTime    time.Duration `json:"-"`
	ToolTime   time.Duration `json:"-"`
	MemoryTime time.Duration `json:"-"`
	Overhead   time.Duration `json:"-"`
}

// Repair is one change the agent made to a model's reply before acting on
// it: Kind says what sort (the Repair* constants), From and To what was
// changed into what, Detail anything else worth knowing.
type Repair struct {
	Kind   string `json:"kind"`
	From   string `json:"from,omitempty"`
	To     string `json:"to,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// The kinds of Repair.
const (
	// RepairMarkdown: code fences, **bold**, list markers, headings or
	// backticks removed.
	RepairMarkdown = "markdown"
	// RepairWhitespace: spaces collapsed, trailing punctuation or a prompt
	// sign removed from an action.
	RepairWhitespace = "whitespace"
	// RepairKey: a key written another way (Thought:, Action:, Arguments:)
	// read as THOUGHT, TOOL or ARGS.
	RepairKey = "key"
	// RepairSingleQuotes: single-quoted JSON strings read.
	RepairSingleQuotes = "single-quotes"
	// RepairJSON: broken JSON read anyway (trailing commas, bare keys, a
	// missing brace, text around it).
	RepairJSON = "json"
	// RepairArgs: arguments reshaped to fit the tool (a bare string as the
	// action, an argument under another name, a second command dropped).
	RepairArgs = "args"
	// RepairRegexFallback: no THOUGHT/TOOL/ARGS layout; the call was found
	// another way (play_action("..."), a "> command" line, a JSON object, a
	// bare command).
	RepairRegexFallback = "regex-fallback"
	// RepairDefault: nothing usable in the reply; the safe default action
	// (look) was played.
	RepairDefault = "default-action"
	// RepairToolName: a tool name corrected (case, an alias, a typo), or an
	// unknown tool turned into a game command.
	RepairToolName = "tool-name"
	// RepairVerb: a verb games do not know replaced (check -> examine).
	RepairVerb = "verb"
	// RepairLoop: the same action a third time in a row replaced by look.
	RepairLoop = "loop"
	// RepairExtra: more than one call in a reply; all but the first
	// ignored.
	RepairExtra = "extra"
	// RepairCutOff: the reply was cut off at its token limit before it
	// gave any answer (finish_reason length, no content, no tool call),
	// as a reasoning model whose budget went on reasoning is; Detail
	// says how many tokens, and the safe default action follows.
	RepairCutOff = "cut-off"
	// RepairTextFallback: a native-protocol reply with no tool call, read
	// with the text parser.
	RepairTextFallback = "text-fallback"
)

// The reasons a Run stops (RunResult.StoppedBy).
const (
	StopDone      = "done"      // the game ended
	StopSteps     = "steps"     // the step limit
	StopTokens    = "tokens"    // the token limit
	StopCost      = "cost"      // the cost limit
	StopWall      = "wall"      // the wall-time limit
	StopPolicy    = "policy"    // the policy had no more actions (ErrDone)
	StopError     = "error"     // a step failed; RunResult.Error says why
	StopCancelled = "cancelled" // the caller's context ended
)

// String is the step on one line, as the REPL shows it: the call, where it
// led, the score and any repairs or error.
func (s *Step) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "step %d: %s %s", s.Step, s.Tool, argsJSON(s.Args))
	if s.Error != "" {
		fmt.Fprintf(&b, " failed: %s", s.Error)
		return b.String()
	}
	if s.Location != "" {
		fmt.Fprintf(&b, " -> %s", s.Location)
	}
	fmt.Fprintf(&b, " (score %d", s.Score)
	if s.Reward != 0 {
		fmt.Fprintf(&b, ", %+d", s.Reward)
	}
	b.WriteString(")")
	if s.ToolError {
		b.WriteString(" tool error")
	}
	if s.Done {
		b.WriteString(" GAME OVER")
	}
	if len(s.Repairs) > 0 {
		var ks []string
		for _, r := range s.Repairs {
			if !slices.Contains(ks, r.Kind) {
				ks = append(ks, r.Kind)
			}
		}
		fmt.Fprintf(&b, " [repaired: %s]", strings.Join(ks, ", "))
	}
	return b.String()
}
