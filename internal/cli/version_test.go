package cli

import (
	"runtime/debug"
	"testing"
)

func TestVersionFrom(t *testing.T) {
	module := func(v string) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Path: "github.com/grue-lab/grue", Version: v}}
	}
	for _, tc := range []struct {
		linked string
		bi     *debug.BuildInfo
		want   string
	}{
		{"", nil, defaultVersion},
		{"", module(""), defaultVersion},
		{"", module("(devel)"), defaultVersion},
		{"", module("v0.3.1"), "v0.3.1"},
		{"1.2.3", module("v0.3.1"), "1.2.3"},
	} {
		if got := versionFrom(tc.linked, tc.bi); got != tc.want {
			t.Errorf("versionFrom(%q, %v) = %q, want %q", tc.linked, tc.bi, got, tc.want)
		}
	}
}
