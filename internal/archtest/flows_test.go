package archtest

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// flows is where the bot's flows live, one package each by what it is for
// (bot/flows/info, bot/flows/settings, …). A flow imports what lies below
// the flows — bot/mux, bot/render, bot/gamenames, bot/play, storage… —
// and never another flow nor package bot, which assembles them: what two
// flows share lives below them.
const flows = "bot/flows/"

// TestFlowsNeverImportFlows checks that no package under bot/flows
// imports another flow or package bot.
func TestFlowsNeverImportFlows(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for pkg, deps := range packages(t, root) {
		if !strings.HasPrefix(pkg, flows) {
			continue
		}
		seen++
		for _, d := range deps {
			if d == "bot" || strings.HasPrefix(d, flows) && d != pkg {
				t.Errorf("the flow %s imports %s: flows never import another flow nor the bot that assembles them", pkg, d)
			}
		}
	}
	if seen == 0 {
		t.Fatalf("no package under %s: the rule is stale", flows)
	}
}

// Types in bot/... stay small: at most maxFields fields and maxMethods
// methods, so that no type is a namespace every flow reaches into.
const (
	maxFields  = 15
	maxMethods = 30
)

type typeSize struct{ fields, methods int }

// TestTypesInTheBotStaySmall counts the fields and methods of every type
// declared in bot/... (outside tests) and checks them against the limits,
// which every type meets (the last over them, bot.Bot and bot.Config,
// were split into groups).
func TestTypesInTheBotStaySmall(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string]*typeSize{}
	err = walkPackages(filepath.Join(root, "bot"), func(p *build.Package, _ string) error {
		countTypes(t, p, sizes)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(sizes) < 50 {
		t.Fatalf("counted %d types under bot: the walk is broken", len(sizes))
	}
	var names []string
	for name := range sizes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		got := *sizes[name]
		if got.fields > maxFields || got.methods > maxMethods {
			t.Errorf("%s has %d fields and %d methods: at most %d and %d; split it", name, got.fields, got.methods, maxFields, maxMethods)
		}
	}
}

// countTypes adds the fields and methods of the types p declares to sizes,
// by package name and type name.
func countTypes(t *testing.T, p *build.Package, sizes map[string]*typeSize) {
	t.Helper()
	fset := token.NewFileSet()
	size := func(name string) *typeSize {
		key := p.Name + "." + name
		if sizes[key] == nil {
			sizes[key] = &typeSize{}
		}
		return sizes[key]
	}
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					ts, ok := spec.(*ast.TypeSpec)
					if !ok || ts.Assign.IsValid() {
						continue // an alias declares no type of its own
					}
					s := size(ts.Name.Name)
					if st, ok := ts.Type.(*ast.StructType); ok {
						for _, fl := range st.Fields.List {
							s.fields += max(len(fl.Names), 1)
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) == 0 {
					continue
				}
				size(receiverName(d.Recv.List[0].Type)).methods++
			}
		}
	}
}

// receiverName is the name of a method's receiver type: T of T, *T, T[P].
func receiverName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return receiverName(x.X)
	case *ast.IndexExpr:
		return receiverName(x.X)
	case *ast.IndexListExpr:
		return receiverName(x.X)
	case *ast.Ident:
		return x.Name
	}
	panic(fmt.Sprintf("a receiver of type %T", e))
}

// TestFlowsBuildNoCustomIDs checks that no flow — package bot and the
// packages under bot/flows — builds a custom ID (customid.X.Build):
// components and their custom IDs are built in bot/render, where the
// tests that check every ID a message carries against its route look at
// them.
func TestFlowsBuildNoCustomIDs(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := filepath.Glob(filepath.Join(root, "bot", "flows", "*"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, dir := range append(dirs, filepath.Join(root, "bot")) {
		p, err := build.ImportDir(dir, 0)
		if _, ok := err.(*build.NoGoError); ok {
			continue // bot/flows/internal: the flows' tests' support, no flow
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range p.GoFiles {
			path := filepath.Join(dir, name)
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "Build" {
					return true
				}
				if inner, ok := sel.X.(*ast.SelectorExpr); ok {
					if pkg, ok := inner.X.(*ast.Ident); ok && pkg.Name == "customid" {
						t.Errorf("%s builds a custom ID (customid.%s.Build): build the component in bot/render", fset.Position(sel.Pos()), inner.Sel.Name)
					}
				}
				return true
			})
		}
	}
}
