package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
)

// nameUsers are the packages outside every game's own that may still
// write games' names as strings, each with why: they serve the tests and
// the docs, not the program (a package's tests are left out anyway).
// Nothing but tests may import them, which the test checks.
var nameUsers = map[string]string{
	"storage/storetest":    "the stores' conformance suite: its records are games of real kinds, and storage itself keeps kinds as data",
	"internal/playerwords": "the tests' check for developers' words in players' texts, which lists the names that are no words",
	"internal/figures":     "the maintainers' command that regenerates docs/figures.md, running the docs' own command lines",
}

// gameHome is where a game's name may be written as a string: the
// game's own packages and the code written for it alone.
type gameHome struct {
	name string
	// own are the game's engine and plug-in packages (with the packages
	// below them).
	own []string
	// engine is the game's engine, the key of its gameSpecific entries.
	engine string
}

// TestGameNamesStayWithTheirGame checks that no Go string literal outside
// a game's own code names the game: what the rest of the program knows of
// a game it reads from the plug-in (games.Game) through games/catalog,
// never by switching on or keying by the name.
//
// A game's names are catalog.All()'s (catalog.Lookup reads any case, so
// the comparison ignores case; the catalog has no other aliases). A
// literal names a game when its value is the name, or when it has no
// white space (an ID, a key, a path, a custom ID, a file name) and holds
// the name as a token, between its ends or characters other than letters
// and digits ("connect4/7", "game.connect4.title", "15puzzle-7-8.pdb").
// A literal with white space is prose — a message, a usage text, a flag's
// help — and may mention a game as the docs do. Import paths are left to
// the import rules.
//
// The game's own code is its engine and plug-in packages (found from the
// plug-in's position type and functions), games/catalog, and what
// gameSpecific lists for its engine alone: the strategy packages and files
// written for that game (strategies/adjsearch, strategies/c4solver,
// rules_connect4.go, …) and its training commands (internal/train/…).
// nameUsers lists the few packages beside them, for tests and docs.
func TestGameNamesStayWithTheirGame(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	homes := gameHomes(t)
	if len(homes) < 5 {
		t.Fatalf("the catalog lists %d games; the test is not looking at it", len(homes))
	}
	imports := packages(t, root)
	for _, h := range homes {
		for _, own := range h.own {
			if _, ok := imports[own]; !ok {
				t.Fatalf("%s's own package %s is not in the repository", h.name, own)
			}
		}
	}
	for pkg, why := range nameUsers {
		if _, ok := imports[pkg]; !ok {
			t.Errorf("no package %s (%s): remove it from nameUsers", pkg, why)
		}
		for other, deps := range imports {
			if slices.Contains(deps, pkg) {
				t.Errorf("%s imports %s, which may name games only because tests alone use it", other, pkg)
			}
		}
	}
	fset := token.NewFileSet()
	files := 0
	err = walkTree(root, nil, func(p, rel string) error {
		dir := path.Dir(rel)
		if under(dir, "games/catalog") {
			return nil
		}
		for pkg := range nameUsers {
			if under(dir, pkg) {
				return nil
			}
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		paths := map[*ast.BasicLit]bool{}
		for _, imp := range f.Imports {
			paths[imp.Path] = true
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING || paths[lit] {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Errorf("%s:%d: unquote %s: %v", rel, fset.Position(lit.Pos()).Line, lit.Value, err)
				return true
			}
			for _, h := range homes {
				if namesGame(s, h.name) && !homeOf(rel, h) {
					t.Errorf("%s:%d: %q names the game %s outside its own code: read the game through its plug-in (games.Game, games/catalog), or single it out by the plug-in's value", rel, fset.Position(lit.Pos()).Line, s, h.name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read %d Go files under %s; the test is not looking at the repository", files, root)
	}
}

// gameHomes returns every registered game's name and own packages, read
// from its plug-in: the package of its start position's type (its
// engine) and the package of its Parse function (its plug-in).
func gameHomes(t *testing.T) []gameHome {
	t.Helper()
	var out []gameHome
	for _, g := range catalog.All() {
		pos, err := g.Start(games.Options{})
		if err != nil {
			t.Fatalf("%s does not start: %v", g.Name, err)
		}
		typ := reflect.TypeOf(pos)
		if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		engine, ok := strings.CutPrefix(typ.PkgPath(), module)
		if !ok || !strings.HasPrefix(engine, "engine/") {
			t.Fatalf("%s's positions are a %s, of no engine package of ours", g.Name, typ)
		}
		fn := runtime.FuncForPC(reflect.ValueOf(g.Parse).Pointer()).Name() // module/games/x.func1
		slash := strings.LastIndex(fn, "/")
		plugin, ok := strings.CutPrefix(fn[:slash+strings.Index(fn[slash:], ".")], module)
		if !ok || !strings.HasPrefix(plugin, "games/") {
			t.Fatalf("%s's Parse is %s, in no plug-in package of ours", g.Name, fn)
		}
		out = append(out, gameHome{name: g.Name, own: []string{engine, plugin}, engine: strings.TrimPrefix(engine, "engine/")})
	}
	return out
}

// homeOf reports whether the file rel is the game's own code: in its
// engine or plug-in package, or listed in gameSpecific for its engine and
// no other.
func homeOf(rel string, h gameHome) bool {
	dir := path.Dir(rel)
	for _, own := range h.own {
		if under(dir, own) {
			return true
		}
	}
	for _, e := range gameSpecific[h.engine] {
		if (rel == e.path || under(dir, e.path)) && alone(e.path, h.engine) {
			return true
		}
	}
	return false
}

// alone reports whether gameSpecific lists p for engine and for no other.
func alone(p, engine string) bool {
	for other, list := range gameSpecific {
		if other == engine {
			continue
		}
		for _, e := range list {
			if e.path == p {
				return false
			}
		}
	}
	return true
}

// under reports whether dir is pkg or below it.
func under(dir, pkg string) bool { return dir == pkg || strings.HasPrefix(dir, pkg+"/") }

// namesGame reports whether the literal's value s names the game name:
// is it, in any case, or has no white space and holds it as a token
// between non-alphanumeric characters.
func namesGame(s, name string) bool {
	if strings.EqualFold(s, name) {
		return true
	}
	if strings.IndexFunc(s, unicode.IsSpace) >= 0 {
		return false
	}
	lower, name := strings.ToLower(s), strings.ToLower(name)
	for i := 0; ; {
		j := strings.Index(lower[i:], name)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(name)
		if (start == 0 || !alnum(lower[start-1])) && (end == len(lower) || !alnum(lower[end])) {
			return true
		}
		i = start + 1
	}
}

// alnum reports whether the byte b is an ASCII letter or digit (a byte of
// a multi-byte character counts as one, so a name never ends inside a
// word of another script).
func alnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}

// TestNamesGame pins the rule of TestGameNamesStayWithTheirGame: what
// counts as a literal naming a game.
func TestNamesGame(t *testing.T) {
	for s, want := range map[string]bool{
		"connect4": true, "Connect4": true, "connect4/7": true, "game.connect4.title": true,
		"15puzzle-7-8.pdb": true, "--game=connect4": true, "ratings/connect4": true,
		"connect45": false, "xconnect4": false, "connect4é": false, "the game: connect4 or nqueens": false,
		"Connect Four": false, "": false,
	} {
		if got := namesGame(s, "connect4") || namesGame(s, "15puzzle"); got != want {
			t.Errorf("namesGame(%q) = %v, want %v", s, got, want)
		}
	}
}
