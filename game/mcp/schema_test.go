package mcp

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// TestToolSchemasAsHelpersWrote: a schema written by setParams is the JSON
// that mcp-go's helpers (WithString, WithNumber, Required) make for the
// same arguments, so clients see the tool list they saw before grue wrote
// its schemas itself; descriptions with quotes and non-ASCII text are
// escaped as JSON. (Several required arguments are listed sorted by name,
// where the helpers keep their order; no tool has more than one.)
func TestToolSchemasAsHelpersWrote(t *testing.T) {
	desc := `a "quoted" word, a backslash \ and é`
	helpers := mcpgo.NewTool("x",
		mcpgo.WithString("name", mcpgo.Required(), mcpgo.Description(desc)),
		mcpgo.WithNumber("seed", mcpgo.Description("a number")),
		mcpgo.WithString("action", mcpgo.Description("the command")),
	)
	want, err := json.Marshal(helpers.InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	var ours mcpgo.Tool
	setParams(&ours, map[string]param{
		"name":   {typ: "string", desc: desc, required: true},
		"seed":   {typ: "number", desc: "a number"},
		"action": {typ: "string", desc: "the command"},
	})
	if string(ours.RawInputSchema) != string(want) {
		t.Errorf("setParams wrote\n%s\nmcp-go's helpers\n%s", ours.RawInputSchema, want)
	}
	var none mcpgo.Tool
	setParams(&none, nil)
	if want, _ := json.Marshal(mcpgo.NewTool("y").InputSchema); string(none.RawInputSchema) != string(want) {
		t.Errorf("no arguments: setParams wrote %s, mcp-go's helpers %s", none.RawInputSchema, want)
	}
}

// TestToolSchemas: every tool's arguments as a client reads them (over
// stdio, the JSON of tools/list) are an object schema whose properties
// each have a type and a description; the game tools take an optional
// game_id, and the arguments a tool cannot do without are required.
func TestToolSchemas(t *testing.T) {
	c := newStdioTestClient(t, "plain")
	tools, err := c.listTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		required []string
		args     []string // besides game_id
		gameID   bool
	}{
		"play_action":   {[]string{"action"}, []string{"action"}, true},
		"memory":        {nil, nil, true},
		"get_map":       {nil, nil, true},
		"inventory":     {nil, nil, true},
		"valid_actions": {nil, nil, true},
		"reset_game":    {nil, []string{"game", "seed"}, true},
		"new_game":      {nil, []string{"game", "seed"}, false},
		"list_games":    {nil, nil, false},
		"save_state":    {[]string{"name"}, []string{"name"}, true},
		"restore_state": {[]string{"name"}, []string{"name"}, true},
		"undo":          {nil, nil, true},
	}
	if len(tools) != len(want) {
		t.Errorf("%d tools, want %d", len(tools), len(want))
	}
	for _, tool := range tools {
		w, ok := want[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %s", tool.Name)
			continue
		}
		info, err := toolInfo(tool)
		if err != nil {
			t.Fatal(err)
		}
		s := info.InputSchema
		if s["type"] != "object" {
			t.Errorf("%s: schema type %v, want object", tool.Name, s["type"])
		}
		props, _ := s["properties"].(map[string]any)
		var names []string
		for name, p := range props {
			p, _ := p.(map[string]any)
			typ, _ := p["type"].(string)
			desc, _ := p["description"].(string)
			if typ == "" || desc == "" {
				t.Errorf("%s: argument %s has type %q and description %q", tool.Name, name, typ, desc)
			}
			if name != gameIDArg {
				names = append(names, name)
			}
		}
		slices.Sort(names)
		if !slices.Equal(names, w.args) {
			t.Errorf("%s takes %v, want %v", tool.Name, names, w.args)
		}
		if _, ok := props[gameIDArg]; ok != w.gameID {
			t.Errorf("%s: takes game_id %v, want %v", tool.Name, ok, w.gameID)
		}
		var required []string
		req, ok := s["required"].([]any)
		if !ok {
			t.Errorf("%s: required is %v, want a list", tool.Name, s["required"])
		}
		for _, r := range req {
			required = append(required, r.(string))
		}
		if !slices.Equal(required, w.required) {
			t.Errorf("%s requires %v, want %v", tool.Name, required, w.required)
		}
	}
}

// TestParamsSchemaIsTheJSON: the schema an in-process client builds from a
// tool's arguments is the tool's JSON schema as encoding/json decodes it,
// for every tool of the server and for odd arguments, so in-process and
// remote clients see the same tools.
func TestParamsSchemaIsTheJSON(t *testing.T) {
	s, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cases := map[string]map[string]param{
		"none":   nil,
		"quoted": {`a "b"`: {typ: "string", desc: "é \\ \n", required: true}, "z": {typ: "number"}, "a": {typ: "boolean", required: true}},
	}
	for _, st := range s.mcpServer().ListTools() {
		cases[st.Tool.Name] = s.params[st.Tool.Name]
	}
	if len(cases) < 2+len(ToolNames()) {
		t.Fatalf("the server registered %d tools' arguments, want %d", len(cases)-2, len(ToolNames()))
	}
	for name, params := range cases {
		var tool mcpgo.Tool
		setParams(&tool, params)
		var fromJSON map[string]any
		if err := json.Unmarshal(tool.RawInputSchema, &fromJSON); err != nil {
			t.Fatal(err)
		}
		if got := paramsSchema(params); !reflect.DeepEqual(got, fromJSON) {
			t.Errorf("%s: paramsSchema = %#v\nthe JSON decodes to %#v", name, got, fromJSON)
		}
	}

	// And the in-process client's tool list is the one decoded from JSON.
	c, err := NewInProcessClient()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	infos, err := c.ToolInfos(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range infos {
		st := c.srv.mcpServer().GetTool(in.Name)
		if st == nil {
			t.Fatalf("no tool %s", in.Name)
		}
		want, err := toolInfo(st.Tool)
		if err != nil {
			t.Fatal(err)
		}
		if want = withoutGameID(want); !reflect.DeepEqual(in, want) {
			t.Errorf("%s: in process %#v\nfrom JSON %#v", in.Name, in, want)
		}
	}
}

// TestQuote: quote writes what jsontext.AppendQuote writes, for plain text
// and for text that needs escaping.
func TestQuote(t *testing.T) {
	for _, s := range []string{"", "the command to type", `a "quoted" word`, `back\slash`, "é and ü", "tab\there", "\x7f", "<&>", "\u2028"} {
		want, err := jsontext.AppendQuote(nil, s)
		if err != nil {
			t.Fatal(err)
		}
		if got := quote([]byte("x"), s); string(got) != "x"+string(want) {
			t.Errorf("quote(%q) = %s, want %s", s, got[1:], want)
		}
	}
}
