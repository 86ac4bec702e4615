package gen

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestStdPackagesCoverGo: every package of the standard library of the Go
// that runs the tests (`go list std`, without internal, vendored, unsafe
// and syscall packages) is in StdPackages or StdLeftOut, once, and each
// listed package exists: a new Go's packages are bound, or left out with
// a reason, never missed unawares.
func TestStdPackagesCoverGo(t *testing.T) {
	out, err := exec.Command("go", "list", "std").Output()
	if err != nil {
		t.Fatalf("go list std: %v", err)
	}
	var std []string
	for _, p := range strings.Fields(string(out)) {
		if strings.Contains(p, "internal") || strings.HasPrefix(p, "vendor/") || p == "unsafe" || p == "syscall" || strings.HasPrefix(p, "syscall/") {
			continue
		}
		std = append(std, p)
	}
	listed := append(slices.Clone(StdPackages), StdLeftOut...)
	seen := map[string]bool{}
	for _, p := range listed {
		if seen[p] {
			t.Errorf("%s is listed twice", p)
		}
		seen[p] = true
		if !slices.Contains(std, p) {
			t.Errorf("%s is listed but is not a package of this Go's standard library", p)
		}
	}
	for _, p := range std {
		if !seen[p] {
			t.Errorf("%s, a package of this Go's standard library, is in neither StdPackages nor StdLeftOut", p)
		}
	}
}
