package bot_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/engine/nqueens"
	"github.com/gambitbot/gambit/engine/slidingtile"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies/puzzles"
)

// newPuzzle starts a puzzle with /puzzle as user and returns its game and
// board.
func newPuzzle(t *testing.T, h *harness, user string, opts ...discordtest.Option) (*storage.Game, discordtest.Message) {
	t.Helper()
	_, m := h.command(user, "puzzle", opts...)
	if m.Ephemeral() {
		t.Fatalf("/puzzle answered %q", m.Content)
	}
	g := h.waitGame(h.latestGame(user).ID, "the board's ID", func(g *storage.Game) bool { return g.MessageID != "" })
	if !g.Solo() || g.Status != storage.StatusActive || g.Start == "" || g.Start != g.Position {
		t.Fatalf("/puzzle stored %+v", g)
	}
	return g, m
}

// tileSolution returns an optimal solution of an 8- or 15-puzzle game,
// each move as "D/6": the blank's direction and the tile it slides.
func tileSolution(t *testing.T, g *storage.Game) []string {
	t.Helper()
	p, err := slidingtile.Parse(g.Position)
	if err != nil {
		t.Fatal(err)
	}
	moves, err := puzzles.Shortest(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	var tiles []string
	for _, m := range moves {
		to, _ := p.Target(m)
		tiles = append(tiles, p.FormatMove(m)+"/"+strconv.Itoa(p.Tile(to)))
		p.Play(m)
	}
	return tiles
}

// TestPuzzleSolvedWithHintAndButtons deals an easy 8-puzzle, asks for a
// hint, lets another member's click and a click on a stale board be
// refused, and solves it optimally with a typed move and the tiles'
// buttons: the game ends solved, in as many moves as the optimum that the
// bot recorded, and counts among alice's solved puzzles.
func TestPuzzleSolvedWithHintAndButtons(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g, board := newPuzzle(t, h, alice, opt("game", "8puzzle"), opt("difficulty", "easy"))
	solution := tileSolution(t, g)
	if n := len(solution); n < 4 || n > 10 {
		t.Fatalf("an easy 8-puzzle of %d moves", n)
	}
	if goal := "🎯 Slide the tiles into order, 1–8 row by row from the top-left, the blank last."; !strings.Contains(embedText(board), goal) {
		t.Errorf("the puzzle's board does not state its goal %q:\n%s", goal, embedText(board))
	}

	hint, _ := find(board, customid.Hint, nil)
	r := h.click(alice, board.ID, hint)
	dir, tile, _ := strings.Cut(solution[0], "/")
	if !r.Ephemeral() || !strings.Contains(r.Content, "Next: **"+tile+"**") || !strings.Contains(r.Content, "`/move cell:"+tile+"`") ||
		!strings.Contains(r.Content, strconv.Itoa(len(solution))+" move") {
		t.Fatalf("hint %q; solution %v", r.Content, solution)
	}
	if r := h.click(bob, board.ID, hint); !r.Ephemeral() || !strings.Contains(r.Content, "not your game") {
		t.Errorf("bob's hint answered %q", r.Content)
	}
	cid, _, ok := moveControl(board, dir)
	if !ok {
		t.Fatalf("no button plays %s on %+v", dir, board.Components)
	}
	if r := h.click(bob, board.ID, cid); !r.Ephemeral() || !strings.Contains(r.Content, "not your game") {
		t.Errorf("bob's move answered %q", r.Content)
	}

	// The first move typed, by the tile's number.
	if _, r := h.command(alice, "move", opt("cell", tile)); !strings.Contains(r.Content, "You played tile **"+tile+"**") {
		t.Fatalf("/move %s: %q", tile, r.Content)
	}
	h.waitGame(g.ID, "the typed move", func(g *storage.Game) bool { return len(g.Moves) == 1 })
	// The board names the move as the hint and /move did: the tile.
	h.waitBoard(g.ID, "the tile slid on the board", func(m discordtest.Message) bool {
		return strings.Contains(embedText(m), "Last move: <@"+alice+"> slid tile **"+tile+"**")
	})
	if r := h.clickSeen(alice, board, hint); !r.Ephemeral() || !strings.Contains(r.Content, "out of date") {
		t.Errorf("a hint on the stale board answered %q", r.Content)
	}
	if len(solution) > 1 {
		next, _, _ := strings.Cut(solution[1], "/")
		if id, _, ok := moveControl(board, next); ok {
			if r := h.clickSeen(alice, board, id); !r.Ephemeral() || !strings.Contains(r.Content, "out of date") {
				t.Errorf("a move on the stale board answered %q", r.Content)
			}
		}
	}
	for _, s := range solution[1:] {
		dir, _, _ := strings.Cut(s, "/")
		if r := h.move(alice, g.ID, dir); r.Ephemeral() {
			t.Fatalf("move %s: %q", dir, r.Content)
		}
	}
	g = h.waitGame(g.ID, "the puzzle solved", func(g *storage.Game) bool { return !g.Status.Open() })
	if !g.Solved() || g.Result.MovesUsed != len(solution) || g.Result.Optimal != len(solution) {
		t.Fatalf("solved puzzle: status %s, result %+v; want %d moves, optimal %d", g.Status, g.Result, len(solution), len(solution))
	}
	h.waitBoard(g.ID, "the solved board", func(m discordtest.Message) bool {
		return strings.Contains(embedText(m), "**Solved** in "+strconv.Itoa(len(solution))+" move") && strings.Contains(embedText(m), "optimal! · with 1 hint") &&
			len(controls(m)) == 0
	})
	if g.Hints != 1 {
		t.Errorf("the puzzle counted %d hints; alice asked for one (bob's and the stale board's were refused)", g.Hints)
	}
	solved, err := h.store.Solved(h.ctx(), storage.User(alice), g.Kind, 10)
	if err != nil || len(solved) != 1 || solved[0].ID != g.ID {
		t.Fatalf("alice's solved puzzles: %v, %v", solved, err)
	}
}

// TestPuzzleSolveCompareAndGiveUp plays N-Queens through its menus, shows
// the algorithms compared, and has Gambit solve it: the puzzle ends
// abandoned, solved by Gambit, not among alice's own solves. A 15-puzzle
// is then compared (the pattern databases) and given up.
func TestPuzzleSolveCompareAndGiveUp(t *testing.T) {
	t.Parallel()
	// The solvers' time on the manual clock never runs out: the node caps
	// decide, however loaded the machine.
	h := start(t, withClock(), withCompare(5_000, nil))
	alice := h.srv.AddUser("alice").ID
	g, _ := newPuzzle(t, h, alice, opt("game", "nqueens"), opt("n", 5))
	if g.Position != "0,0,0,0,0" {
		t.Fatalf("a 5-queens puzzle starts at %q", g.Position)
	}
	if r := h.move(alice, g.ID, "a1"); r.Ephemeral() {
		t.Fatalf("a1: %q", r.Content)
	}
	board := h.board(g.ID)
	compare, _ := find(board, customid.Compare, nil)
	r := h.click(alice, board.ID, compare)
	if !r.Ephemeral() {
		t.Fatalf("Compare answered %q in public", r.Content)
	}
	r = compared(t, h, r)
	for _, want := range []string{"backtracking", "hill-climbing", "min-conflicts", "swap-repair", "optimal?"} {
		if !strings.Contains(r.Content, want) {
			t.Fatalf("Compare answered %q, want %q in it", r.Content, want)
		}
	}
	solve, _ := find(board, customid.Solve, nil)
	r = h.click(alice, board.ID, solve)
	if r.Ephemeral() || !strings.Contains(r.Content, "Gambit solved it") || !strings.Contains(embedText(r), "Solved by Gambit") {
		t.Fatalf("Solve answered %q %q", r.Content, embedText(r))
	}
	g = h.game(g.ID)
	p, err := nqueens.Parse(g.Position)
	if err != nil || !p.Solved() || g.Status != storage.StatusAbandoned || g.Result.MovesUsed != 1 || g.Result.Outcome != storage.SolvedByGambit {
		t.Fatalf("after Solve: %s %s %+v (%v)", g.Position, g.Status, g.Result, err)
	}
	if solved, err := h.store.Solved(h.ctx(), storage.User(alice), g.Kind, 10); err != nil || len(solved) != 0 {
		t.Fatalf("a puzzle solved by Gambit counts as alice's: %v, %v", solved, err)
	}
	if r := h.clickSeen(alice, board, solve); !r.Ephemeral() || !strings.Contains(r.Content, "over") {
		t.Errorf("Solve on the ended puzzle's old board answered %q", r.Content)
	}

	puzzles.DefaultPDB(4) // the bot builds it at start; a 15-puzzle is refused until it is ready
	g, board = newPuzzle(t, h, alice, opt("game", "15puzzle"), opt("difficulty", "easy"))
	compare, _ = find(board, customid.Compare, nil)
	r = compared(t, h, h.click(alice, board.ID, compare))
	if row := compareRows(t, r)["idastar-pdb"]; row[3] != "proved" {
		t.Fatalf("Compare on the 15-puzzle answered %q", r.Content)
	}
	giveUp, _ := find(board, customid.Resign, nil)
	confirm := h.click(alice, board.ID, giveUp)
	if !strings.Contains(confirm.Content, "Give up this puzzle?") {
		t.Errorf("Give up asks %q", confirm.Content)
	}
	yes, _ := find(confirm, customid.ResignConfirm, nil)
	if r := h.click(alice, confirm.ID, yes); r.Content != "You gave up the puzzle." {
		t.Errorf("giving up answered %q", r.Content)
	}
	g = h.waitGame(g.ID, "the puzzle given up", func(g *storage.Game) bool { return !g.Status.Open() })
	if g.Status != storage.StatusAbandoned || g.Result.Outcome != storage.GaveUp {
		t.Fatalf("given up: %s %+v", g.Status, g.Result)
	}
}

// TestSolveNamesTheTiles has Gambit solve an 8-puzzle: its answer lists
// the tiles it slid, as the board and the hint name moves, and the board's
// last move is Gambit's.
func TestSolveNamesTheTiles(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	g, board := newPuzzle(t, h, alice, opt("game", "8puzzle"), opt("difficulty", "easy"))
	var tiles []string
	for _, s := range tileSolution(t, g) {
		_, tile, _ := strings.Cut(s, "/")
		tiles = append(tiles, tile)
	}
	solve, _ := find(board, customid.Solve, nil)
	r := h.click(alice, board.ID, solve)
	if !strings.Contains(r.Content, ": "+strings.Join(tiles, " ")+".") {
		t.Errorf("Solve answered %q, want the tiles %v", r.Content, tiles)
	}
	if !strings.Contains(embedText(r), "Last move: 🪄 Gambit slid tile **"+tiles[len(tiles)-1]+"**") {
		t.Errorf("the solved board reads %q", embedText(r))
	}
}

// TestPuzzleResumesAfterARestart stops the bot in the middle of an
// 8-puzzle and starts it again on the same database: the board from
// before the restart is redrawn and takes the remaining moves, and the
// puzzle ends solved.
func TestPuzzleResumesAfterARestart(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	g, _ := newPuzzle(t, h, alice, opt("game", "8puzzle"), opt("difficulty", "easy"))
	solution := tileSolution(t, g)
	first, _, _ := strings.Cut(solution[0], "/")
	h.move(alice, g.ID, first)
	h.waitGame(g.ID, "the first move", func(g *storage.Game) bool { return len(g.Moves) == 1 })
	h.stop()
	h.run()
	h.waitLog("bot running")
	for _, s := range solution[1:] {
		dir, _, _ := strings.Cut(s, "/")
		if r := h.move(alice, g.ID, dir); r.Ephemeral() {
			t.Fatalf("after the restart, move %s: %q", dir, r.Content)
		}
	}
	g = h.waitGame(g.ID, "the puzzle solved after the restart", func(g *storage.Game) bool { return !g.Status.Open() })
	if !g.Solved() || g.Result.MovesUsed != len(solution) || g.Result.Optimal != len(solution) {
		t.Fatalf("after the restart: %s %+v", g.Status, g.Result)
	}
}

// TestLargestQueensBoardIsPlayable deals N-Queens with N = 12, the
// largest board, and places a queen through its menu: every square is
// offered by the column buttons' pickers, and the board is within
// Discord's limits (the harness checks every body against the spec).
func TestLargestQueensBoardIsPlayable(t *testing.T) {
	t.Parallel()
	h := start(t, withClock()) // Discord's 3 seconds on the manual clock, not the loaded machine's
	alice := h.srv.AddUser("alice").ID
	_, board := h.command(alice, "puzzle", opt("game", "nqueens"), opt("n", 12))
	if board.Ephemeral() {
		t.Fatalf("/puzzle n:12 refused: %q", board.Content)
	}
	if squares := pickerSquares(t, h, alice, board); squares != 144 {
		t.Fatalf("the pickers offer %d squares, want 144", squares)
	}
	var menu discordtest.Component
	for _, c := range controls(board) {
		if _, ok := customid.Pick.Match(c.CustomID); ok && menu.CustomID == "" {
			menu = c
		}
	}
	if menu.CustomID == "" {
		t.Fatal("no menu of squares under the board")
	}
	if r := h.click(alice, board.ID, menu.CustomID, menu.Options[0].Value); r.Ephemeral() {
		t.Fatalf("placing a queen: %q", r.Content)
	}
	g := h.latestGame(alice)
	if g.Position == g.Start || len(g.Moves) != 1 {
		t.Fatalf("after a click: position %s, moves %v", g.Position, g.Moves)
	}
}

// TestHelpHasAPagePerPuzzle: /help game: offers the puzzles too, and each
// page states the puzzle's goal and how to move, in both languages.
func TestHelpHasAPagePerPuzzle(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	for _, name := range []string{"8puzzle", "15puzzle", "nqueens"} {
		_, m := h.command(alice, "help", opt("game", name))
		if text := embedText(m); !m.Ephemeral() || !strings.Contains(text, "**Goal.**") || !strings.Contains(text, "Hint") {
			t.Errorf("/help game:%s answered %q / %q", name, m.Content, text)
		}
	}
	h.srv.SetLocale(alice, "id")
	if _, m := h.command(alice, "help", opt("game", "nqueens")); !strings.Contains(embedText(m), "ratu") {
		t.Errorf("/help game:nqueens in Indonesian: %q", embedText(m))
	}
}
