// Package jsonmstest checks, in tests, that a value's JSON is byte for
// byte what grue wrote before: the golden comparison that keeps the
// results, trajectories and caches already on users' disks readable
// when a type's encoding changes (see package jsonms).
package jsonmstest

import (
	"encoding/json"
	"reflect"
	"testing"
)

// AsBefore reports, as errors of t named by name, whether v's JSON
// differs from want, whether want fails to read back into a value of
// v's type, and whether what was read writes anything but want again.
func AsBefore(t testing.TB, name string, v any, want string) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil || string(b) != want {
		t.Errorf("%s: wrote\n%s, %v\nwant\n%s", name, b, err, want)
		return
	}
	back := reflect.New(reflect.TypeOf(v))
	if err := json.Unmarshal(b, back.Interface()); err != nil {
		t.Errorf("%s: reading %s: %v", name, b, err)
		return
	}
	if again, err := json.Marshal(back.Elem().Interface()); err != nil || string(again) != want {
		t.Errorf("%s: read back and written again\n%s, %v\nwant\n%s", name, again, err, want)
	}
}
