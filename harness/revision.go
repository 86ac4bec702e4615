package harness

import "runtime/debug"

// grueModule is grue's module path.
const grueModule = "github.com/grue-lab/grue"

// UnknownRevision is BuildRevision's answer when the build does not say.
const UnknownRevision = "unknown"

// BuildRevision is the VCS revision grue was built from, as the Go build
// info says (debug.ReadBuildInfo): the commit ("vcs.revision", with
// "+modified" when the tree had changes) when grue is the main module, or
// grue's module version when it is a dependency of the program; never
// invented: UnknownRevision when the build records neither (go test, go
// run, a build with -buildvcs=false).
func BuildRevision() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return UnknownRevision
	}
	return revisionOf(bi)
}

// revisionOf reads the revision from bi (see BuildRevision).
func revisionOf(bi *debug.BuildInfo) string {
	if bi.Main.Path == grueModule {
		rev, modified := "", false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if rev == "" {
			return UnknownRevision
		}
		if modified {
			rev += "+modified"
		}
		return rev
	}
	for _, d := range bi.Deps {
		if d.Path == grueModule && d.Version != "" && d.Version != "(devel)" {
			return d.Version
		}
	}
	return UnknownRevision
}
