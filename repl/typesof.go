package repl

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"reflect"
	"regexp"
	"strings"
)

// typesImporter gives go/types the session's bound packages
// (Options.Symbols): each package's types, functions, variables and
// constants made from the reflect values of the bindings' tables, and the
// standard library's generic packages (slices, maps, iter, cmp) from
// their declarations (genericStubs). It needs neither the network nor a
// Go installation, and it holds exactly what the interpreter can run: a
// symbol the tables lack is undefined to the checker too.
//
// One importer serves a session for its life, so that the types it makes
// are the same objects from cell to cell.
type typesImporter struct {
	index *packageIndex
	fset  *token.FileSet
	pkgs  map[string]*types.Package
	types map[reflect.Type]types.Type
	done  map[string]bool // the packages whose symbols are all in
}

func newTypesImporter(index *packageIndex) *typesImporter {
	return &typesImporter{index: index, fset: token.NewFileSet(), pkgs: map[string]*types.Package{},
		types: map[reflect.Type]types.Type{}, done: map[string]bool{}}
}

// Import returns the package at import path p.
func (im *typesImporter) Import(p string) (*types.Package, error) {
	if im.done[p] {
		return im.pkgs[p], nil
	}
	if src, ok := genericStubs[p]; ok {
		f, err := parser.ParseFile(im.fset, p+".go", src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		pkg, err := (&types.Config{Importer: im}).Check(p, im.fset, []*ast.File{f}, nil)
		if err != nil {
			return nil, fmt.Errorf("the REPL's declarations of package %s: %w", p, err)
		}
		im.pkgs[p], im.done[p] = pkg, true
		return pkg, nil
	}
	bp, ok := im.index.lookup(p)
	if !ok || p == privatePkg {
		return nil, fmt.Errorf("package %s is not bound in the REPL (:help imports lists those that are)", p)
	}
	pkg := im.pkg(p)
	for name, v := range bp.Symbols {
		if strings.HasPrefix(name, "_") || pkg.Scope().Lookup(name) != nil {
			continue
		}
		if obj := im.object(pkg, name, v); obj != nil {
			pkg.Scope().Insert(obj)
		}
	}
	// Done and complete before the stand-ins, whose source imports the
	// package itself (gruerandv2 calls math/rand/v2's own functions; go/types
	// does not resolve an import of an incomplete package).
	im.done[p] = true
	pkg.MarkComplete()
	if err := im.addStandIns(pkg); err != nil {
		return nil, err
	}
	return pkg, nil
}

// addStandIns adds to pkg the generic names of the standard library that
// the session stands in for with its own Go source (genericNames:
// sync.OnceValue, unique.Make, rand.N), checked from that source, so that
// a cell naming one is checked against what will run.
func (im *typesImporter) addStandIns(pkg *types.Package) error {
	g, ok := genericNames[pkg.Path()]
	if !ok {
		return nil
	}
	srcs := sourcePackages[g.stand.path]
	if len(srcs) == 0 {
		return nil
	}
	f, err := parser.ParseFile(im.fset, g.stand.path+".go", srcs[len(srcs)-1], parser.SkipObjectResolution)
	if err != nil {
		return fmt.Errorf("the REPL's stand-ins of package %s: %w", pkg.Path(), err)
	}
	stand, err := (&types.Config{Importer: im}).Check(g.stand.path, im.fset, []*ast.File{f}, nil)
	if err != nil {
		return fmt.Errorf("the REPL's stand-ins of package %s: %w", pkg.Path(), err)
	}
	for _, name := range stand.Scope().Names() {
		obj := stand.Scope().Lookup(name)
		if !obj.Exported() || (g.names != nil && !g.names[name]) || pkg.Scope().Lookup(name) != nil {
			continue
		}
		pkg.Scope().Insert(obj)
	}
	return nil
}

// pkg returns the package at import path p, made empty the first time.
func (im *typesImporter) pkg(p string) *types.Package {
	if pkg, ok := im.pkgs[p]; ok {
		return pkg
	}
	name := path.Base(p)
	if bp, ok := im.index.lookup(p); ok {
		name = bp.Name
	} else if versionSuffix.MatchString(name) && path.Dir(p) != "." {
		name = path.Base(path.Dir(p))
	}
	pkg := types.NewPackage(p, name)
	im.pkgs[p] = pkg
	return pkg
}

var versionSuffix = regexp.MustCompile(`^v[0-9]+$`)

// object makes the object that the binding v of name stands for: a type
// (a nil pointer to it), a constant (a constant.Value for an untyped
// one, a value that is not addressable for a typed one), a variable
// (addressable) or a function.
func (im *typesImporter) object(pkg *types.Package, name string, v reflect.Value) types.Object {
	if !v.IsValid() {
		return nil
	}
	if c, ok := v.Interface().(constant.Value); ok && !v.CanAddr() {
		return types.NewConst(token.NoPos, pkg, name, untypedKind(c), c)
	}
	t := v.Type()
	switch {
	case v.CanAddr():
		return types.NewVar(token.NoPos, pkg, name, im.typeOf(t))
	case t.Kind() == reflect.Func:
		sig, _ := im.typeOf(t).(*types.Signature)
		return types.NewFunc(token.NoPos, pkg, name, sig)
	case t.Kind() == reflect.Pointer && v.IsNil():
		typ := im.typeOf(t.Elem())
		if n, ok := typ.(*types.Named); ok && n.Obj().Pkg() == pkg && n.Obj().Name() == name {
			return n.Obj()
		}
		return types.NewTypeName(token.NoPos, pkg, name, typ) // an alias
	}
	if c := constOf(v); c != nil {
		return types.NewConst(token.NoPos, pkg, name, im.typeOf(t), c)
	}
	return types.NewVar(token.NoPos, pkg, name, im.typeOf(t))
}

// untypedKind is the untyped type of the constant c.
func untypedKind(c constant.Value) types.Type {
	switch c.Kind() {
	case constant.Bool:
		return types.Typ[types.UntypedBool]
	case constant.String:
		return types.Typ[types.UntypedString]
	case constant.Float:
		return types.Typ[types.UntypedFloat]
	case constant.Complex:
		return types.Typ[types.UntypedComplex]
	}
	return types.Typ[types.UntypedInt]
}

// constOf is the value of a typed constant's binding.
func constOf(v reflect.Value) constant.Value {
	switch v.Kind() {
	case reflect.Bool:
		return constant.MakeBool(v.Bool())
	case reflect.String:
		return constant.MakeString(v.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return constant.MakeInt64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return constant.MakeUint64(v.Uint())
	case reflect.Float32, reflect.Float64:
		return constant.MakeFloat64(v.Float())
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		return constant.BinaryOp(constant.MakeFloat64(real(c)), token.ADD, constant.MakeImag(constant.MakeFloat64(imag(c))))
	}
	return nil
}

var errorType = reflect.TypeFor[error]()

var basicKinds = map[reflect.Kind]types.BasicKind{
	reflect.Bool: types.Bool, reflect.Int: types.Int, reflect.Int8: types.Int8, reflect.Int16: types.Int16,
	reflect.Int32: types.Int32, reflect.Int64: types.Int64, reflect.Uint: types.Uint, reflect.Uint8: types.Uint8,
	reflect.Uint16: types.Uint16, reflect.Uint32: types.Uint32, reflect.Uint64: types.Uint64,
	reflect.Uintptr: types.Uintptr, reflect.Float32: types.Float32, reflect.Float64: types.Float64,
	reflect.Complex64: types.Complex64, reflect.Complex128: types.Complex128, reflect.String: types.String,
	reflect.UnsafePointer: types.UnsafePointer,
}

// typeOf is the go/types type of the compiled type t.
func (im *typesImporter) typeOf(t reflect.Type) types.Type {
	if t == nil {
		return types.Typ[types.Invalid]
	}
	if x, ok := im.types[t]; ok {
		return x
	}
	if t == errorType {
		return types.Universe.Lookup("error").Type()
	}
	if t.Name() != "" && t.PkgPath() == "" {
		if k, ok := basicKinds[t.Kind()]; ok {
			return types.Typ[k]
		}
	}
	if t.Name() == "" || t.PkgPath() == "" {
		x := im.structure(t, nil)
		im.types[t] = x
		return x
	}
	if x := im.instance(t); x != nil {
		im.types[t] = x
		return x
	}
	pkg := im.pkg(t.PkgPath())
	obj := types.NewTypeName(token.NoPos, pkg, t.Name(), nil)
	n := types.NewNamed(obj, nil, nil)
	im.types[t] = n
	if pkg.Scope().Lookup(t.Name()) == nil {
		pkg.Scope().Insert(obj)
	}
	n.SetUnderlying(im.structure(t, pkg))
	if t.Kind() != reflect.Interface {
		pt := reflect.PointerTo(t)
		for i := range pt.NumMethod() {
			m := pt.Method(i)
			recv := types.Type(types.NewPointer(n))
			if _, ok := t.MethodByName(m.Name); ok {
				recv = n
			}
			sig := im.signature(m.Type, 1, types.NewVar(token.NoPos, pkg, "", recv))
			n.AddMethod(types.NewFunc(token.NoPos, pkg, m.Name, sig))
		}
	}
	return n
}

// instance is iter.Seq[V] or iter.Seq2[K, V] when t is one (reflect
// names it "Seq[string]"), instantiated from the generic declaration.
func (im *typesImporter) instance(t reflect.Type) types.Type {
	if t.PkgPath() != "iter" || t.Kind() != reflect.Func || t.NumIn() != 1 || t.In(0).Kind() != reflect.Func {
		return nil
	}
	var name string
	var args []types.Type
	yield := t.In(0)
	switch {
	case strings.HasPrefix(t.Name(), "Seq[") && yield.NumIn() == 1:
		name, args = "Seq", []types.Type{im.typeOf(yield.In(0))}
	case strings.HasPrefix(t.Name(), "Seq2[") && yield.NumIn() == 2:
		name, args = "Seq2", []types.Type{im.typeOf(yield.In(0)), im.typeOf(yield.In(1))}
	default:
		return nil
	}
	pkg, err := im.Import("iter")
	if err != nil {
		return nil
	}
	x, err := types.Instantiate(nil, pkg.Scope().Lookup(name).Type(), args, true)
	if err != nil {
		return nil
	}
	return x
}

// structure is the type literal of t's kind (a named type's underlying
// type); pkg is the package of t when it is named.
func (im *typesImporter) structure(t reflect.Type, pkg *types.Package) types.Type {
	switch t.Kind() {
	case reflect.Array:
		return types.NewArray(im.typeOf(t.Elem()), int64(t.Len()))
	case reflect.Slice:
		return types.NewSlice(im.typeOf(t.Elem()))
	case reflect.Map:
		return types.NewMap(im.typeOf(t.Key()), im.typeOf(t.Elem()))
	case reflect.Pointer:
		return types.NewPointer(im.typeOf(t.Elem()))
	case reflect.Chan:
		dir := types.SendRecv
		switch t.ChanDir() {
		case reflect.SendDir:
			dir = types.SendOnly
		case reflect.RecvDir:
			dir = types.RecvOnly
		}
		return types.NewChan(dir, im.typeOf(t.Elem()))
	case reflect.Func:
		return im.signature(t, 0, nil)
	case reflect.Struct:
		fields := make([]*types.Var, t.NumField())
		tags := make([]string, t.NumField())
		for i := range t.NumField() {
			f := t.Field(i)
			fp := pkg
			if f.PkgPath != "" {
				fp = im.pkg(f.PkgPath)
			}
			fields[i] = types.NewField(token.NoPos, fp, f.Name, im.typeOf(f.Type), f.Anonymous)
			tags[i] = string(f.Tag)
		}
		return types.NewStruct(fields, tags)
	case reflect.Interface:
		var methods []*types.Func
		for i := range t.NumMethod() {
			m := t.Method(i)
			mp := pkg
			if m.PkgPath != "" {
				mp = im.pkg(m.PkgPath)
			}
			methods = append(methods, types.NewFunc(token.NoPos, mp, m.Name, im.signature(m.Type, 0, nil)))
		}
		return types.NewInterfaceType(methods, nil).Complete()
	}
	if k, ok := basicKinds[t.Kind()]; ok {
		return types.Typ[k]
	}
	return types.Typ[types.Invalid]
}

// signature is the signature of the func type t, its parameters from the
// skip-th on (1 for a method's, whose first is the receiver).
func (im *typesImporter) signature(t reflect.Type, skip int, recv *types.Var) *types.Signature {
	var in, out []*types.Var
	for i := skip; i < t.NumIn(); i++ {
		in = append(in, types.NewParam(token.NoPos, nil, "", im.typeOf(t.In(i))))
	}
	for i := range t.NumOut() {
		out = append(out, types.NewParam(token.NoPos, nil, "", im.typeOf(t.Out(i))))
	}
	return types.NewSignatureType(recv, nil, nil, types.NewTuple(in...), types.NewTuple(out...), t.IsVariadic())
}
