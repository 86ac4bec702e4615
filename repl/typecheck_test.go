package repl

import (
	"go/types"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/grue-lab/grue/bindings/std"
)

// TestGenericStubsCurrent: the declarations of slices, maps, iter and cmp
// that cells are checked against are those of the Go that builds grue;
// after a Go update, go generate ./repl writes them again.
func TestGenericStubsCurrent(t *testing.T) {
	src, err := os.ReadFile("zz_genericstubs.go")
	if err != nil {
		t.Fatal(err)
	}
	if want := "from " + runtime.Version() + ";"; !strings.Contains(string(src), want) {
		t.Errorf("zz_genericstubs.go is not %s's: run go generate ./repl", runtime.Version())
	}
}

// TestTypesImporter: the go/types packages made from the bindings'
// reflect values hold their typed constants, aliases, methods and
// variadic functions as Go declares them.
func TestTypesImporter(t *testing.T) {
	im := newTypesImporter(newPackageIndex(std.Symbols()))
	tm, err := im.Import("time")
	if err != nil {
		t.Fatal(err)
	}
	sec, ok := tm.Scope().Lookup("Second").(*types.Const)
	if !ok || sec.Type().String() != "time.Duration" || sec.Val().String() != "1000000000" {
		t.Errorf("time.Second = %v", tm.Scope().Lookup("Second"))
	}
	dur := tm.Scope().Lookup("Duration").Type()
	ms := types.NewMethodSet(dur)
	if ms.Lookup(tm, "Seconds") == nil {
		t.Errorf("time.Duration has no method Seconds: %v", ms)
	}
	os, err := im.Import("os")
	if err != nil {
		t.Fatal(err)
	}
	if fm := os.Scope().Lookup("FileMode"); fm == nil || !fm.(*types.TypeName).IsAlias() || fm.Type().String() != "io/fs.FileMode" {
		t.Errorf("os.FileMode = %v, want an alias of io/fs.FileMode", fm)
	}
	fmtp, err := im.Import("fmt")
	if err != nil {
		t.Fatal(err)
	}
	if sig := fmtp.Scope().Lookup("Println").Type().(*types.Signature); !sig.Variadic() {
		t.Errorf("fmt.Println is not variadic: %v", sig)
	}
	if _, err := im.Import("github.com/nobody/nothing"); err == nil {
		t.Error("an unbound package imported")
	}
}
