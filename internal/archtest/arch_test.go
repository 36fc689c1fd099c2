// Package archtest checks that Gambit's packages depend on each other only
// in the directions docs/contributing.md ("Architecture") draws: the
// engine is pure rules, the plug-ins know no Discord and no storage, the
// strategies know no bot and no storage, storage knows no game, nothing
// but the binary depends on the bot, and the bot's transport packages
// (ingress, egress, scheduler) know nothing of its flows.
package archtest

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/gambitbot/gambit/"

// rules maps a package prefix to the prefixes of ours it must not import
// (outside its tests).
var rules = []struct {
	pkg       string
	forbidden []string
}{
	{"engine", []string{"games", "strategies", "storage", "bot", "internal", "cmd"}},
	{"games", []string{"strategies", "storage", "bot", "internal", "cmd"}},
	{"strategies", []string{"storage", "bot", "internal", "cmd"}},
	{"storage", []string{"engine", "games", "strategies", "bot", "internal", "cmd"}},
	{"bot", []string{"internal/discordtest", "internal/playground", "internal/aiqueue", "cmd"}},
	{"internal/discordtest", []string{"bot", "storage", "games", "strategies", "engine", "cmd"}},
	{"internal/playground", []string{"cmd", "storage/bolt"}},
	{"internal/terminal", []string{"bot", "storage", "internal/discordtest", "internal/playground", "cmd"}},
	{"tournament", []string{"engine", "games", "strategies", "storage", "bot", "internal", "cmd"}},
	{"tournament/league", []string{"engine", "games", "strategies", "bot", "internal", "cmd"}},
}

// own are the packages that their own rule governs instead of the rules
// of the packages above them: tournament/league reads the stored
// tournaments (storage) for the rules (tournament), which stay a leaf.
var own = []string{"tournament/league"}

// only maps the bot's transport packages, and the interaction machinery
// over them, to the only packages of ours each may import (outside its
// tests): they sit below the flows (package bot), which use them, and
// beside each other.
var only = map[string][]string{
	"bot/ingress":   {},
	"bot/scheduler": {},
	"bot/egress":    {"bot/render", "bot/ops", "internal/apiurl"},
	"bot/mux":       {"bot/customid", "bot/egress", "bot/i18n", "bot/render"},
}

// wiring is the one file of package bot that may import bot/ingress: Run
// and Serve connect the transports to the flows, and no flow knows how
// its interactions arrive.
const wiring = "bot.go"

// TestTransportKnowsNoFlows checks the arrows of the bot's packages: the
// transport packages import only what only allows them, and no file of
// package bot but the wiring imports ingress.
func TestTransportKnowsNoFlows(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	imports := packages(t, root)
	for pkg, allowed := range only {
		deps, ok := imports[pkg]
		if !ok {
			t.Errorf("no package %s: the rule is stale", pkg)
		}
		for _, d := range deps {
			if !slices.Contains(allowed, d) {
				t.Errorf("%s imports %s: it may import only %v of ours", pkg, d, allowed)
			}
		}
	}
	p, err := build.ImportDir(filepath.Join(root, "bot"), 0)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if imp.Path.Value == `"`+module+`bot/ingress"` && name != wiring {
				t.Errorf("bot/%s imports bot/ingress: only %s, the wiring, may", name, wiring)
			}
		}
	}
}

// generators are the packages that generate what a product package
// embeds (trained weights, an opening book), each with the command that
// runs it through go generate, its only importer: the product packages
// keep only what the bot runs, and the binary links no generator.
var generators = map[string]string{
	"strategies/adjsearch/internal/filltrain": "strategies/adjsearch/internal/fillgen",
	"strategies/c4solver/internal/bookgen":    "strategies/c4solver/genbook",
}

// TestGeneratorsStayOutOfTheBinary checks that each generator exists, is
// imported (outside tests) only by its command, and is not among the
// packages cmd/gambit depends on.
func TestGeneratorsStayOutOfTheBinary(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	imports := packages(t, root)
	for gen, cmd := range generators {
		if _, ok := imports[gen]; !ok {
			t.Errorf("no package %s: the rule is stale", gen)
		}
		if !slices.Contains(imports[cmd], gen) {
			t.Errorf("%s does not import %s: the rule is stale", cmd, gen)
		}
		for pkg, deps := range imports {
			if pkg != cmd && slices.Contains(deps, gen) {
				t.Errorf("%s imports the generator %s: only %s may", pkg, gen, cmd)
			}
		}
	}
	seen := map[string]bool{}
	var walk func(pkg string)
	walk = func(pkg string) {
		if seen[pkg] {
			return
		}
		seen[pkg] = true
		if _, ok := generators[pkg]; ok {
			t.Errorf("cmd/gambit depends on the generator %s", pkg)
		}
		for _, d := range imports[pkg] {
			walk(d)
		}
	}
	walk("cmd/gambit")
	if len(seen) < 10 {
		t.Fatalf("cmd/gambit depends on %d packages of ours; the test is not looking at the binary", len(seen))
	}
}

// dispatch are the files of bot/mux that read an interaction's raw
// discordgo value (Interaction.raw): dispatch makes the typed events, and
// a handler sees only its own kind's data; the answers send it back.
// Outside bot/mux the field is out of reach.
var dispatch = []string{"mux.go", "interaction.go"}

// TestOnlyDispatchReadsTheRawInteraction checks that no file of bot/mux
// but dispatch's and the answers' reads Interaction.raw, through which a
// handler could read another kind's data (a command handler a
// component's custom ID).
func TestOnlyDispatchReadsTheRawInteraction(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	p, err := build.ImportDir(filepath.Join(root, "bot", "mux"), 0)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range p.GoFiles {
		if slices.Contains(dispatch, name) {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "raw" {
				t.Errorf("%s reads .raw: only %v may read an interaction's raw value", fset.Position(sel.Pos()), dispatch)
			}
			return true
		})
	}
}

// TestDependenciesRunOneWay reads every package's imports and checks them
// against the rules.
func TestDependenciesRunOneWay(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	imports := packages(t, root)
	if len(imports) < 10 {
		t.Fatalf("found %d packages under %s; the test is not looking at the repository", len(imports), root)
	}
	checked := 0
	for pkg, deps := range imports {
		for _, r := range rules {
			if pkg != r.pkg && !strings.HasPrefix(pkg, r.pkg+"/") {
				continue
			}
			if slices.ContainsFunc(own, func(o string) bool {
				return (pkg == o || strings.HasPrefix(pkg, o+"/")) && strings.HasPrefix(o, r.pkg+"/")
			}) {
				continue // a rule of its own governs it
			}
			checked++
			for _, d := range deps {
				for _, f := range r.forbidden {
					if d == f || strings.HasPrefix(d, f+"/") {
						t.Errorf("%s imports %s: %s must not depend on %s", pkg, d, r.pkg, f)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no package matched a rule")
	}
}

// packages returns the non-test imports of ours of every package under
// root, by their paths relative to the module.
func packages(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := walkPackages(root, func(p *build.Package, rel string) error {
		var ours []string
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, module) {
				ours = append(ours, strings.TrimPrefix(imp, module))
			}
		}
		out[rel] = ours
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", root, err)
	}
	return out
}
