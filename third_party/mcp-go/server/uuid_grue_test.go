package server

import (
	"testing"

	"github.com/google/uuid"
)

// TestNewUUID: task IDs are version 4 UUIDs that uuid.Parse reads back,
// and two are never the same.
func TestNewUUID(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		s := newUUID()
		u, err := uuid.Parse(s)
		if err != nil || u.Version() != 4 || u.Variant() != uuid.RFC4122 || u.String() != s {
			t.Fatalf("%q: parsed %v (version %d, variant %v), %v", s, u, u.Version(), u.Variant(), err)
		}
		if seen[s] {
			t.Fatalf("%q twice", s)
		}
		seen[s] = true
	}
}
