package agent

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/grue-lab/grue/agent/llm"
	"github.com/grue-lab/grue/agent/tools"
	"github.com/grue-lab/grue/game/mcp"
)

func TestResolveRepairs(t *testing.T) {
	a := lanternAgent(t, Defaults(), nil)
	tests := []struct {
		reply string
		tool  string
		args  map[string]any
		kinds []string
	}{
		{"TOOL: Play_Action\nARGS: {\"action\": \"north\"}", "play_action", map[string]any{"action": "north"}, []string{RepairToolName}},
		{"TOOL: play\nARGS: {\"action\": \"north\"}", "play_action", map[string]any{"action": "north"}, []string{RepairToolName}},
		{"TOOL: functions.play_action\nARGS: {\"action\": \"north\"}", "play_action", map[string]any{"action": "north"}, []string{RepairToolName}},
		{"TOOL: play action\nARGS: {\"action\": \"north\"}", "play_action", map[string]any{"action": "north"}, []string{RepairToolName}},
		{"TOOL: map\nARGS: {}", "get_map", map[string]any{}, []string{RepairToolName}},
		{"TOOL: get_mapp\nARGS: {}", "get_map", map[string]any{}, []string{RepairToolName}},
		{"TOOL: inv", "inventory", nil, []string{RepairToolName}},
		{"TOOL: INVENTORY()", "inventory", nil, []string{RepairToolName}},
		{"TOOL: play_action north", "play_action", map[string]any{"action": "north"}, []string{RepairToolName, RepairArgs}},
		{"TOOL: take\nARGS: {\"object\": \"lantern\"}", "play_action", map[string]any{"action": "take lantern"}, []string{RepairToolName}},
		{"TOOL: north\nARGS: {}", "play_action", map[string]any{"action": "north"}, []string{RepairToolName}},
		{"Action: take lantern", "play_action", map[string]any{"action": "take lantern"}, []string{RepairToolName}},
		{"TOOL: give\nARGS: {\"item\": \"apple\", \"recipient\": \"morwen\", \"preposition\": \"to\"}", "play_action",
			map[string]any{"action": "give apple to morwen"}, []string{RepairToolName}},
		{"TOOL: search_the_internet_for_a_walkthrough\nARGS: {\"query\": \"lantern\"}", "play_action",
			map[string]any{"action": "look"}, []string{RepairToolName, RepairDefault}},
		{"TOOL: play_action\nARGS: {\"command\": \"north\"}", "play_action", map[string]any{"command": "north", "action": "north"}, []string{RepairArgs}},
		{"TOOL: play_action\nARGS: {\"move\": \"north\"}", "play_action", map[string]any{"move": "north", "action": "north"}, []string{RepairArgs}},
		{"TOOL: play_action\nARGS: {\"direction\": \"north\"}", "play_action", map[string]any{"action": "north"}, []string{RepairArgs}},
		{"TOOL: play_action\nARGS: take lantern", "play_action", map[string]any{"action": "take lantern"}, []string{RepairArgs}},
		{"TOOL: play_action\nARGS: {}", "play_action", map[string]any{"action": "look"}, []string{RepairDefault}},
		{"TOOL: play_action\nARGS: {\"action\": \"  take   the lantern. \"}", "play_action", map[string]any{"action": "take the lantern"}, []string{RepairWhitespace}},
		{"TOOL: play_action\nARGS: {\"action\": \"**take lantern**\"}", "play_action", map[string]any{"action": "take lantern"}, []string{RepairMarkdown}},
		{"TOOL: play_action\nARGS: {\"action\": \"> west\"}", "play_action", map[string]any{"action": "west"}, []string{RepairWhitespace}},
		{"TOOL: play_action\nARGS: {\"action\": \"take lantern\\nnorth\"}", "play_action", map[string]any{"action": "take lantern"}, []string{RepairArgs}},
		{"TOOL: play_action\nARGS: {\"action\": [\"west\", \"open toolbox\"]}", "play_action", map[string]any{"action": "west"}, []string{RepairArgs}},
		{"TOOL: play_action\nARGS: {\"action\": \"check toolbox\"}", "play_action", map[string]any{"action": "examine toolbox"}, []string{RepairVerb}},
		{"TOOL: play_action\nARGS: {\"action\": \"Inspect the Toolbox\"}", "play_action", map[string]any{"action": "examine the Toolbox"}, []string{RepairVerb}},
		{"TOOL: play_action\nARGS: {\"action\": \"grab lantern\"}", "play_action", map[string]any{"action": "take lantern"}, []string{RepairVerb}},
		{"TOOL: play_action\nARGS: {\"action\": \"look at toolbox\"}", "play_action", map[string]any{"action": "examine toolbox"}, []string{RepairVerb}},
		{"TOOL: play_action\nARGS: {\"action\": \"look around\"}", "play_action", map[string]any{"action": "look"}, []string{RepairVerb}},
		{"TOOL: play_action\nARGS: {\"action\": \"walk north\"}", "play_action", map[string]any{"action": "north"}, []string{RepairVerb}},
		{"TOOL: play_action\nARGS: {\"action\": \"go to the west\"}", "play_action", map[string]any{"action": "west"}, []string{RepairVerb}},
		{"TOOL: play_action\nARGS: {\"action\": \"head ne\"}", "play_action", map[string]any{"action": "ne"}, []string{RepairVerb}},
	}
	for _, tc := range tests {
		d := a.resolve(ParseText(tc.reply))
		if d.tool != tc.tool || !reflect.DeepEqual(d.args, tc.args) {
			t.Errorf("%q: %s %v, want %s %v (repairs %+v)", tc.reply, d.tool, d.args, tc.tool, tc.args, d.repairs)
			continue
		}
		got := kinds(d.repairs)
		for _, k := range tc.kinds {
			if !slices.Contains(got, k) {
				t.Errorf("%q: repairs %+v lack %q", tc.reply, d.repairs, k)
			}
		}
	}
	// Valid commands stay as they are.
	for _, cmd := range []string{"pick up lantern", "pick apple", "search toolbox", "go cave", "look under bed", "examine toolbox", "climb up", "n"} {
		d := a.resolve(ParseText(textCall(cmd)))
		if d.args["action"] != cmd || len(d.repairs) > 0 {
			t.Errorf("%q became %v, repairs %+v", cmd, d.args["action"], d.repairs)
		}
	}
	// Verb repair off.
	a.Verbs = nil
	if d := a.resolve(ParseText(textCall("check toolbox"))); d.args["action"] != "check toolbox" {
		t.Errorf("with no verb table, check toolbox became %v", d.args["action"])
	}
	// An unknown tool with no play_action to fall back on is no call.
	a.Tools.Remove("play_action")
	d := a.resolve(ParseText("TOOL: fly\nARGS: {}"))
	if d.tool != "" || !strings.Contains(d.warning, `no tool "fly"`) {
		t.Errorf("unknown tool without play_action: %+v", d)
	}
}

func TestLoopDetection(t *testing.T) {
	s := llm.NewScripted()
	for range 3 {
		s.Text(textCall("wave"))
	}
	s.Text(textCall("wave"))
	a := lanternAgent(t, Defaults(), s)
	ctx := context.Background()
	var steps []*Step
	for range 4 {
		st, err := a.Step(ctx)
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, st)
	}
	if steps[2].Args["action"] != "look" || !slices.Contains(kinds(steps[2].Repairs), RepairLoop) {
		t.Fatalf("third wave: played %v, repairs %+v; want look and a loop repair", steps[2].Args, steps[2].Repairs)
	}
	if steps[3].Warning == "" || !strings.Contains(steps[3].Warning, `"wave" 3 times`) {
		t.Errorf("the step after the loop carries warning %q", steps[3].Warning)
	}
	if last := steps[3].Prompt[len(steps[3].Prompt)-1].Content; !strings.Contains(last, "WARNING: You repeated \"wave\" 3 times") {
		t.Errorf("the prompt after the loop lacks the warning:\n%s", last)
	}
	if steps[3].Args["action"] != "wave" || len(steps[3].Repairs) > 0 {
		t.Errorf("the fourth wave (after a look) was changed: %v %+v", steps[3].Args, steps[3].Repairs)
	}
	if a.Warning != "" {
		t.Errorf("warning %q left after a clean step", a.Warning)
	}

	// Three souths down a corridor are no loop; bumping into its end is.
	room := 0
	corridor := &fakeTool{name: "play_action", answer: func(args map[string]any) (tools.Result, error) {
		if args["action"] == "south" && room < 3 {
			room++
		}
		return tools.Result{Text: "You walk.", Structured: map[string]any{"location": fmt.Sprintf("Corridor %d", room)}}, nil
	}}
	b := New(Defaults())
	b.Tools = tools.NewRegistry(corridor)
	sc := llm.NewScripted()
	sc.Fallback = func(llm.Request) (*llm.Reply, error) { return &llm.Reply{Content: textCall("south")}, nil }
	b.LLM = sc
	var played []any
	for range 7 {
		st, err := b.Step(ctx)
		if err != nil {
			t.Fatal(err)
		}
		played = append(played, st.Args["action"])
	}
	// Rooms 1, 2, 3, then bumps at the end: south (no move), south (no
	// move), then look in place of the third south that went nowhere.
	want := []any{"south", "south", "south", "south", "south", "look", "south"}
	if !reflect.DeepEqual(played, want) {
		t.Errorf("down a corridor and against its end: played %v, want %v", played, want)
	}

	// A loop limit of 0 turns detection off.
	s3 := llm.NewScripted()
	for range 4 {
		s3.Text(textCall("wave"))
	}
	cfg := Defaults()
	cfg.LoopLimit = 0
	c := lanternAgent(t, cfg, s3)
	if res, _ := c.Run(ctx, 4); slices.ContainsFunc(res.History, func(st Step) bool { return st.Args["action"] != "wave" }) {
		t.Errorf("loop detection off, yet: %+v", res.History)
	}
}

// Every game tool the agent names (its defaults, and what it repairs a
// model's tool names to) is a tool of grue's server, so that no repair or
// default points at a tool that is not there.
func TestToolNamesAreTheServers(t *testing.T) {
	known := mcp.ToolNames()
	for _, name := range append(DefaultTools(), DefaultTool) {
		if !slices.Contains(known, name) {
			t.Errorf("default tool %q is not one of the server's %v", name, known)
		}
	}
	for from, to := range toolAliases {
		if !slices.Contains(known, to) {
			t.Errorf("alias %q repairs to %q, not one of the server's %v", from, to, known)
		}
	}
}
