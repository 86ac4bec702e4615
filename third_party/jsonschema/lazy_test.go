package jsonschema

import (
	"strings"
	"testing"
)

// TestLazyDraftsStillValidate checks grue's patch: with the metaschemas
// compiled on the first Compile instead of in init, a schema that breaks
// its draft's metaschema is still rejected, and a good one still validates.
func TestLazyDraftsStillValidate(t *testing.T) {
	c := NewCompiler()
	bad, err := UnmarshalJSON(strings.NewReader(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": 12}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("bad.json", bad); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Compile("bad.json"); err == nil {
		t.Fatal(`Compile accepted "type": 12, which the 2020-12 metaschema forbids`)
	}
	good, err := UnmarshalJSON(strings.NewReader(`{"type": "object", "required": ["a"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("good.json", good); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("good.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(map[string]any{}); err == nil {
		t.Fatal("an object without the required property validated")
	}
	if err := sch.Validate(map[string]any{"a": 1.0}); err != nil {
		t.Fatal(err)
	}
}
