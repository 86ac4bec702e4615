//go:build !unix

package kernel

// parentGone never reports a parent gone where grue cannot watch
// processes (WatchParent).
func parentGone(start, jupyterParent int) string { return "" }
