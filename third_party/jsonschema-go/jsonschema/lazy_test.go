package jsonschema

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestLazyTablesStillWork checks grue's patch: with Schema's field table,
// the standard types' schemas and the tag check made on first use instead
// of in init, inference, marshalling and $ref resolution behave as
// upstream's.
func TestLazyTablesStillWork(t *testing.T) {
	type rec struct {
		When time.Time `json:"when"`
		N    int       `json:"n" jsonschema:"a count"`
	}
	s, err := For[rec](nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Properties["when"].Type; got != "string" {
		t.Errorf("time.Time inferred as %q, want string (initialSchemaMap)", got)
	}
	if got := s.Properties["n"].Description; got != "a count" {
		t.Errorf("description %q", got)
	}
	type bad struct {
		X int `jsonschema:"WORD=x"`
	}
	if _, err := For[bad](nil); err == nil || !strings.Contains(err.Error(), "WORD=") {
		t.Errorf("a WORD= tag: error %v, want it refused (disallowedPrefixRegexp)", err)
	}

	// Marshalling walks Schema's fields in JSON-name order, and a $ref
	// into the schema's own properties resolves through the field map.
	var ref Schema
	if err := json.Unmarshal([]byte(`{"type":"object","properties":{"a":{"type":"integer"},"b":{"$ref":"#/properties/a"}}}`), &ref); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(&ref)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"type":"object","properties":{"a":{"type":"integer"},"b":{"$ref":"#/properties/a"}}}`; string(b) != want {
		t.Errorf("marshalled %s, want %s", b, want)
	}
	rs, err := ref.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Validate(map[string]any{"b": 1.5}); err == nil {
		t.Error(`{"b": 1.5} validated against a $ref to an integer`)
	}
	if err := rs.Validate(map[string]any{"b": 2}); err != nil {
		t.Errorf(`{"b": 2}: %v`, err)
	}
}
