package mcp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Each Tool constant names a tool of the table and each tool of the table
// has its constant, so that code calling a tool by a constant calls one
// that is there.
func TestToolConstants(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "tools.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var consts []string
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				if lit, ok := vs.Values[0].(*ast.BasicLit); ok && strings.HasPrefix(vs.Names[0].Name, "Tool") {
					v, _ := strconv.Unquote(lit.Value)
					consts = append(consts, v)
				}
			}
		}
	}
	slices.Sort(consts)
	if !slices.Equal(consts, ToolNames()) {
		t.Errorf("the Tool constants are %v, the table's tools %v", consts, ToolNames())
	}
}

// ChangesGame is true exactly for the tools the server does not mark
// read-only, and false for a tool it does not have.
func TestChangesGame(t *testing.T) {
	s, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range s.tools {
		ro := st.Tool.Annotations.ReadOnlyHint
		if readOnly := ro != nil && *ro; ChangesGame(st.Tool.Name) == readOnly {
			t.Errorf("%s: read-only %v, ChangesGame %v", st.Tool.Name, readOnly, ChangesGame(st.Tool.Name))
		}
	}
	for _, name := range []string{ToolPlayAction, ToolUndo, ToolRestoreState} {
		if !ChangesGame(name) {
			t.Errorf("ChangesGame(%s) is false", name)
		}
	}
	if ChangesGame(ToolMemory) || ChangesGame("teleport") {
		t.Error("ChangesGame is true for memory or a tool there is not")
	}
}

// No code outside this package calls one of grue's tools by a string
// literal (CallTool(ctx, "get_map", ...), Get("undo"), Tool: "play_action"):
// it uses the Tool constants, so that renaming or removing a tool is a
// compile error there, not a call that fails at run time.
func TestToolNamesNotCopied(t *testing.T) {
	root := filepath.Join("..", "..")
	calls := []string{"CallTool", "Call", "Get", "callRemote", "Has"}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch rel {
			case "third_party", filepath.Join("internal", "yaegi"), filepath.Join("game", "mcp"), "bindings":
				return filepath.SkipDir
			}
			if d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		tool := func(e ast.Expr) (string, bool) {
			lit, ok := e.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return "", false
			}
			v, _ := strconv.Unquote(lit.Value)
			return v, slices.Contains(ToolNames(), v)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && slices.Contains(calls, sel.Sel.Name) {
					for _, a := range n.Args {
						if name, ok := tool(a); ok {
							t.Errorf("%s: %s(%q): use the mcp.Tool constant", fset.Position(a.Pos()), sel.Sel.Name, name)
						}
					}
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Tool" {
					if name, ok := tool(n.Value); ok {
						t.Errorf("%s: Tool: %q: use the mcp.Tool constant", fset.Position(n.Pos()), name)
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
