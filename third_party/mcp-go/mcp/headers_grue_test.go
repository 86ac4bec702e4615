package mcp

import (
	"encoding/json"
	"strings"
	"testing"
)

// grue's patch (../README.grue.md): a tool's raw schema that cannot hold an
// x-mcp-header key skips the marshal round trip; one that can is read as
// before, whatever the case or escaping of the key.

func TestMayHoldHeaderKey(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want bool
	}{
		{`{"type":"object","properties":{"action":{"type":"string"}}}`, false},
		{`{"properties":{"x":{"type":"string","description":"x-mcp"}}}`, false},
		{``, false},
		{`x-mcp-heade`, false},
		{`{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}`, true},
		{`{"properties":{"a":{"type":"string","X-MCP-Header":"A"}}}`, true},
		{`{"properties":{"a":{"type":"string","\u0078-mcp-header":"A"}}}`, true},
		{`x-mcp-header`, true},
		{`xx-MCP-HEADER`, true},
		{`-x-mcp-header`, true},
		{`a-b-c, x-mcp-header`, true},
		{`--`, false},
		{`x-mcp-heade-r`, false},
	} {
		if got := mayHoldHeaderKey([]byte(tc.raw)); got != tc.want {
			t.Errorf("mayHoldHeaderKey(%s) = %v, want %v", tc.raw, got, tc.want)
		}
	}
}

func TestRawSchemaHeaderAnnotations(t *testing.T) {
	tool := func(schema string) *Tool {
		return &Tool{Name: "t", RawInputSchema: json.RawMessage(schema)}
	}
	plain := tool(`{"type":"object","properties":{"action":{"type":"string","description":"the command"}},"required":["action"]}`)
	if err := ValidateParamHeaderAnnotations(plain); err != nil {
		t.Errorf("a schema without annotations: %v", err)
	}
	if b := ExtractParamHeaderBindings(plain); b != nil {
		t.Errorf("a schema without annotations has bindings %v", b)
	}
	for _, key := range []string{"x-mcp-header", "X-Mcp-Header", `\u0078-mcp-header`} {
		bad := tool(`{"type":"object","properties":{"o":{"type":"object","` + key + `":"Obj"}}}`)
		if err := ValidateParamHeaderAnnotations(bad); err == nil || !strings.Contains(err.Error(), "primitive") {
			t.Errorf("%s on an object: %v, want it refused", key, err)
		}
		good := tool(`{"type":"object","properties":{"region":{"type":"string","` + key + `":"Region"}}}`)
		if err := ValidateParamHeaderAnnotations(good); err != nil {
			t.Errorf("%s on a string: %v", key, err)
		}
		if b := ExtractParamHeaderBindings(good); len(b) != 1 || b[0].Header != "Region" {
			t.Errorf("%s on a string: bindings %v, want Region", key, b)
		}
	}
}
