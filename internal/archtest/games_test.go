package archtest

import (
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// gameSpecific are the code outside a game's own packages (engine/<game>
// and games/<game>) that may import its engine and so name its types:
// algorithms written for that game alone, by package (and the packages
// below it) or by file, each with why. Everything else reads a game
// through its plug-in (games.Game) and games/catalog, so that a game is
// its own packages and one catalog line; tests are left out.
var gameSpecific = map[string][]struct{ path, why string }{
	"adjacency": {
		{"strategies/adjsearch", "Adjacency's own search engine and solver"},
		{"strategies/adjeval", "the learned Adjacency evaluation and its training"},
		{"strategies/minimax_adjacency.go", "minimax's way into adjsearch (ownEngines)"},
		{"strategies/seed001.go", "a seed strategy written for Adjacency"},
		{"strategies/seed002.go", "a seed strategy written for Adjacency"},
		{"strategies/daily", "the daily puzzles, chosen by the solvers"},
		{"internal/train/adjbook", "the generator of adjsearch's opening book (a maintainers' tool)"},
	},
	"connect4": {
		{"strategies/c4solver", "the exact Connect Four solver, its book and the book's generator"},
		{"strategies/rules_connect4.go", "the search's way into c4solver (exact)"},
		{"strategies/seed004.go", "a seed strategy written for Connect Four"},
		{"strategies/daily", "the daily puzzles, chosen by the solvers"},
	},
	"othello": {
		{"strategies/othsolve", "the exact Othello endgame solver"},
		{"strategies/rules_othello.go", "the search's way into othsolve (exact)"},
		{"internal/train/othello", "the training of Othello's evaluation and the building of its opening book"},
	},
	"gomoku": {
		{"strategies/gomsearch", "Gomoku's own search engine: line patterns, threat-space search"},
		{"strategies/minimax_gomoku.go", "minimax's way into gomsearch (ownEngines)"},
	},
	"tictactoe": {
		{"strategies/seed003.go", "a seed strategy written for Tic-Tac-Toe"},
	},
	"slidingtile": {
		{"games/tiles", "the plug-in of the 8- and 15-puzzles"},
		{"strategies/puzzles", "the puzzles' solvers"},
		{"cmd/gambit/solve_puzzle.go", "gambit solve on a sliding-tile position: the solvers on the command line"},
	},
	"nqueens": {
		{"games/queens", "the N-Queens plug-in"},
		{"strategies/puzzles", "the puzzles' solvers"},
		{"strategies/daily", "the daily puzzles, chosen by the solvers"},
	},
}

// TestGameTypesStayWithTheirGame checks that a game's engine package is
// imported only by the game's own packages (engine/<game>/…,
// games/<game>) and by the game-specific code listed in gameSpecific, and
// that every listed exception still imports it.
func TestGameTypesStayWithTheirGame(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	engines := gameEngines(t, root)
	if len(engines) < 5 {
		t.Fatalf("found the engines %v under %s; the test is not looking at the repository", engines, root)
	}
	used := map[string]bool{} // game and exception path
	fset := token.NewFileSet()
	err = walkTree(root, nil, func(p, rel string) error {
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			dep, _ := strconv.Unquote(imp.Path.Value)
			game, ok := strings.CutPrefix(dep, module+"engine/")
			if !ok || !slices.Contains(engines, game) {
				continue
			}
			if why, ok := allowedImport(rel, game); ok {
				used[game+" "+why] = true
				continue
			}
			t.Errorf("%s imports engine/%s: only the game's own packages (engine/%s, games/%s) and the game-specific code listed in gameSpecific may name its types; read the game through its plug-in (games.Game, games/catalog)", rel, game, game, game)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for game, list := range gameSpecific {
		if !slices.Contains(engines, game) {
			t.Errorf("gameSpecific lists engine/%s, which does not exist", game)
		}
		for _, e := range list {
			if !used[game+" "+e.path] {
				t.Errorf("gameSpecific lets %s import engine/%s, and it no longer does: remove it from the list", e.path, game)
			}
		}
	}
}

// allowedImport reports whether the file rel may import engine/game, and
// the exception of gameSpecific that allows it ("" for the game's own
// packages).
func allowedImport(rel, game string) (string, bool) {
	dir := path.Dir(rel)
	for _, own := range []string{"engine/" + game, "games/" + game} {
		if dir == own || strings.HasPrefix(dir, own+"/") {
			return "", true
		}
	}
	for _, e := range gameSpecific[game] {
		if rel == e.path || dir == e.path || strings.HasPrefix(dir, e.path+"/") {
			return e.path, true
		}
	}
	return "", false
}

// gameEngines returns the names of the game engines: the packages under
// engine/ but the shared test helpers.
func gameEngines(t *testing.T, root string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(root, "engine"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "enginetest" {
			out = append(out, e.Name())
		}
	}
	return out
}
