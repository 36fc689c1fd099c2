package strategies

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/engine/tictactoe"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
)

// bruteForce is plain negamax to the end of the game, with no pruning:
// the exact value of p for the side to move in the game's unit.
func bruteForce(p engine.Position) int {
	if p.Terminal() {
		return p.Score(p.SideToMove())
	}
	best := -1 << 30
	for _, m := range p.Moves(nil) {
		p.Play(m)
		best = max(best, -bruteForce(p))
		p.Undo()
	}
	return best
}

// randomMoves bounds the moves of randomPosition: more than a game on 64
// cells or fewer lasts (Othello: 60 discs and its passes), so their
// positions are the same as without it.
const randomMoves = 100

// randomPosition plays random moves from the start of game until at most
// left plies remain (for Adjacency, a game of the given rounds), or
// randomMoves moves are played, and returns the position, freshly parsed
// so it has no history. The bound matters on a large board alone: random
// play on a 15×15 board nearly always makes five in a row long before 56
// points are left, and every such game would be drawn again.
func randomPosition(t testing.TB, rng *rand.Rand, game string, rounds, left int) engine.Position {
	t.Helper()
	g, err := catalog.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	opts := games.Options{}
	if g.Setup.Any() {
		opts = games.Options{Rounds: rounds, First: engine.Side(rng.IntN(2))}
	}
	for {
		p, err := g.Start(opts)
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; !p.Terminal() && p.PliesLeft() > left && n < randomMoves; n++ {
			moves := p.Moves(nil)
			p.Play(moves[rng.IntN(len(moves))])
		}
		if p.Terminal() {
			continue
		}
		q, err := g.Position(p.String(), games.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
}

// TestMinimaxExactOnAdjacencyEndgames: searched to the end, minimax's
// score equals brute force on random endgames with up to 8 plies left,
// and its move achieves that score. Games of 28 rounds fill the board, so
// brute force has as many empty cells as plies; shorter games are used
// with up to 3 plies left.
func TestMinimaxExactOnAdjacencyEndgames(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	n := 60
	if testing.Short() {
		n = 15
	}
	for i := range n {
		left, rounds := 1+i%8, 28
		if left <= 3 {
			rounds = 2 + rng.IntN(27)
		}
		p := randomPosition(t, rng, "adjacency", rounds, left)
		want := bruteForce(p)
		res, err := Minimax{}.Search(context.Background(), p, Limits{HashMiB: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Exact || res.Score != want || res.Depth != p.PliesLeft() {
			t.Fatalf("%v: score %d exact %v depth %d; brute force %d over %d plies", p, res.Score, res.Exact, res.Depth, want, p.PliesLeft())
		}
		p.Play(res.Move)
		if got := -bruteForce(p); got != want {
			t.Fatalf("%v: move %s scores %d, want %d", p, p.FormatMove(res.Move), got, want)
		}
	}
}

// TestMinimaxPerfectTicTacToe checks every reachable tic-tac-toe position:
// the score is exact and right, and the move keeps it.
func TestMinimaxPerfectTicTacToe(t *testing.T) {
	seen := map[string]bool{}
	var walk func(p *tictactoe.Position)
	walk = func(p *tictactoe.Position) {
		if seen[p.String()] || p.Terminal() {
			return
		}
		seen[p.String()] = true
		want := bruteForce(p)
		res, err := Minimax{}.Search(context.Background(), p.Clone(), Limits{HashMiB: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Exact || res.Score != want {
			t.Fatalf("%v: score %d exact %v, want %d", p, res.Score, res.Exact, want)
		}
		p.Play(res.Move)
		got := -bruteForce(p)
		p.Undo()
		if got != want {
			t.Fatalf("%v: move %s leads to %d, want %d", p, p.FormatMove(res.Move), got, want)
		}
		for _, m := range p.Moves(nil) {
			p.Play(m)
			walk(p)
			p.Undo()
		}
	}
	if testing.Short() {
		walk(tictactoe.New()) // x first only
	} else {
		for _, text := range []string{tictactoe.StartText, "......... o"} {
			p, _ := tictactoe.Parse(text)
			walk(p)
		}
	}
	if len(seen) < 4520 { // 4,520 unfinished positions with x first
		t.Errorf("visited %d positions", len(seen))
	}
}

// TestConnectFourExactNearTheEnd: with few empty cells left, minimax solves
// Connect Four and agrees with brute force in Pons' convention.
func TestConnectFourExactNearTheEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for range 20 {
		p := randomPosition(t, rng, "connect4", 0, 9)
		want := bruteForce(p)
		res, err := Minimax{}.Search(context.Background(), p, Limits{HashMiB: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Exact || res.Score != want {
			t.Fatalf("%v: score %d exact %v, want %d", p, res.Score, res.Exact, want)
		}
	}
}

// TestOthelloExactNearTheEnd: with few empty squares left, minimax solves
// Othello with its endgame solver, agrees with brute force, plays a move
// that keeps the score and gives the solver's principal variation to the
// end of the game.
func TestOthelloExactNearTheEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 24))
	for range 12 {
		p := randomPosition(t, rng, "othello", 0, 2*9-1) // at most 9 empty squares
		want := bruteForce(p)
		res, err := Minimax{}.Search(context.Background(), p, Limits{HashMiB: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Exact || res.Score != want {
			t.Fatalf("%v: score %d exact %v, want %d", p, res.Score, res.Exact, want)
		}
		me := p.SideToMove()
		q := p.Clone()
		for _, m := range res.PV {
			if !q.Legal(m) {
				t.Fatalf("%v: principal variation %v: %v is not legal", p, res.PV, m)
			}
			q.Play(m)
		}
		if !q.Terminal() || q.Score(me) != want {
			t.Fatalf("%v: principal variation %v ends the game %v with %d, want the end with %d", p, res.PV, q.Terminal(), q.Score(me), want)
		}
		p.Play(res.Move)
		if got := -bruteForce(p); got != want {
			t.Fatalf("%v: move %v scores %d, want %d", p, res.Move, got, want)
		}
	}
}

// TestExpiredContextStillGetsALegalMove: an expired context is answered at
// once with a legal move, for every game.
func TestExpiredContextStillGetsALegalMove(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rng := rand.New(rand.NewPCG(25, 26))
	for _, game := range allGames { // the games a strategy plays: not the puzzles
		for range 20 {
			p := randomPosition(t, rng, game, 28, 60)
			res, err := Minimax{}.Search(ctx, p, Limits{})
			if err != nil || !p.Legal(res.Move) {
				t.Fatalf("%s %v: move %v, err %v", game, p, res.Move, err)
			}
		}
	}
}

// TestDeadline: a search of an open position stops when its context is
// done — cancelled once the search has reported progress, or at its
// deadline — and answers with a legal move. Nothing here measures time (the
// benchmarks measure the overshoot); a search that ignored its context runs
// into the hang guard.
func TestDeadline(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	for _, game := range []string{"adjacency", "connect4"} {
		p := randomPosition(t, rng, game, 28, 60)
		before := p.String()

		// Cancelled by the test once the first iteration is reported.
		ctx, cancel := context.WithCancel(context.Background())
		progress := 0
		res := searchWithHangGuard(t, ctx, p, Limits{Threads: 2, Progress: func(Progress) {
			progress++
			cancel()
		}})
		if !p.Legal(res.Move) || res.Exact || progress == 0 || res.Depth == 0 || res.Nodes == 0 || len(res.PV) == 0 || res.PV[0] != res.Move {
			t.Errorf("%s, cancelled after progress: move %v, exact %v, progress %d, depth %d, nodes %d, pv %v",
				game, res.Move, res.Exact, progress, res.Depth, res.Nodes, res.PV)
		}

		// A deadline soon after the start: the search may get anywhere
		// by then, but it must stop.
		ctx, cancel = context.WithDeadline(context.Background(), time.Now().Add(20*time.Millisecond))
		res = searchWithHangGuard(t, ctx, p, Limits{Threads: 2})
		cancel()
		if !p.Legal(res.Move) {
			t.Errorf("%s, past its deadline: move %v", game, res.Move)
		}
		if p.String() != before {
			t.Errorf("%s: search changed the position to %v", game, p)
		}
	}
}

// searchWithHangGuard runs Minimax on p and returns its result; a search
// still running a minute after it started fails the test (a generous bound
// that only guards against a search that never stops).
func searchWithHangGuard(t *testing.T, ctx context.Context, p engine.Position, limits Limits) Result {
	t.Helper()
	type answer struct {
		res Result
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := Minimax{}.Search(ctx, p, limits)
		done <- answer{res, err}
	}()
	select {
	case a := <-done:
		if a.err != nil {
			t.Fatalf("search: %v", a.err)
		}
		return a.res
	case <-time.After(time.Minute):
		t.Fatal("the search ignored its context: still running after a minute")
		return Result{}
	}
}

// TestLimits: depth and node caps are honoured.
func TestLimits(t *testing.T) {
	p, _ := adjacency.New(28, engine.X)
	res, err := Minimax{}.Search(context.Background(), p, Limits{Depth: 3})
	if err != nil || res.Depth != 3 || res.Exact {
		t.Errorf("depth cap 3: depth %d exact %v err %v", res.Depth, res.Exact, err)
	}
	res, err = Minimax{}.Search(context.Background(), p, Limits{Nodes: 20000})
	if err != nil || res.Nodes > 20000+4096 || !p.Legal(res.Move) {
		t.Errorf("node cap 20000: %d nodes, move %v, err %v", res.Nodes, res.Move, err)
	}
	// A node cap without a deadline is reproducible.
	again, _ := Minimax{}.Search(context.Background(), p, Limits{Nodes: 20000})
	if again.Move != res.Move || again.Score != res.Score || again.Depth != res.Depth {
		t.Errorf("two node-capped searches differ: %+v and %+v", res, again)
	}
}

func TestNoMovesAndUnsupported(t *testing.T) {
	p, _ := connect4.Parse("1212121") // x has won
	if _, err := (Minimax{}).Search(context.Background(), p, Limits{}); !errors.Is(err, ErrNoMoves) {
		t.Errorf("finished game: %v, want ErrNoMoves", err)
	}
	if _, err := (Minimax{}).Search(context.Background(), fakePosition{p}, Limits{}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("unknown game: %v, want ErrUnsupported", err)
	}
}

// fakePosition is a position of a game no strategy knows.
type fakePosition struct{ engine.Position }

func TestRegistry(t *testing.T) {
	for _, i := range All() {
		if i.Name == "" || i.Description == "" || i.Strategy == nil || len(i.Games) == 0 {
			t.Errorf("incomplete registration %+v", i)
		}
		for _, g := range i.Games {
			if d := i.DifficultyIn(g); !slices.Contains(Difficulties, d) {
				t.Errorf("%s in %s: difficulty %q outside the vocabulary", i.Name, g, d)
			}
		}
		got, err := Lookup(" " + i.Name + " ")
		if err != nil || got.Name != i.Name {
			t.Errorf("Lookup(%s) = %v, %v", i.Name, got.Name, err)
		}
		for _, g := range i.Games {
			if _, err := catalog.Lookup(g); err != nil {
				t.Errorf("%s plays unknown game %q", i.Name, g)
			}
		}
	}
	if _, err := Lookup("deep-blue"); err == nil {
		t.Error("Lookup of an unknown name succeeded")
	}
	if len(ForGame("tictactoe")) == 0 || len(ForGame("chess")) != 0 {
		t.Error("ForGame lists wrong strategies")
	}
}

// TestNamesForPlayers checks what players read of each strategy: a display
// name of its own, a blurb without the course's jargon, and a label that
// fits an autocomplete choice whole.
func TestNamesForPlayers(t *testing.T) {
	seen := map[string]string{}
	for _, i := range All() {
		if i.DisplayName == "" || i.Blurb == "" {
			t.Errorf("%s: display name %q, blurb %q", i.Name, i.DisplayName, i.Blurb)
		}
		if other, ok := seen[strings.ToLower(i.DisplayName)]; ok {
			t.Errorf("%s and %s are both shown as %q", i.Name, other, i.DisplayName)
		}
		seen[strings.ToLower(i.DisplayName)] = i.Name
		for _, jargon := range []string{"alpha-beta", "minimax", "ply", "heuristic", "transposition", "UCT", "2001"} {
			if strings.Contains(strings.ToLower(i.Blurb+" "+i.DisplayName), strings.ToLower(jargon)) {
				t.Errorf("%s: %q speaks of %s", i.Name, i.Label(i.Games[0]), jargon)
			}
		}
		for _, g := range i.Games {
			if n := utf8.RuneCountInString(i.Label(g)); n > MaxLabel {
				t.Errorf("%s: label %q has %d characters, more than %d", i.Name, i.Label(g), n, MaxLabel)
			}
		}
	}
}

// TestEveryStrategyHasACalibratedRating keeps the ratings table complete:
// every strategy has a figure in every game it plays, and random, the
// weakest, is the lowest.
func TestEveryStrategyHasACalibratedRating(t *testing.T) {
	for _, info := range All() {
		for _, game := range info.Games {
			r, ok := Rating(game, info.Name)
			if !ok {
				t.Errorf("%s has no calibrated rating in %s", info.Name, game)
				continue
			}
			if low, _ := Rating(game, "random"); r < low || r < 500 || r > 3000 {
				t.Errorf("%s's rating in %s is %v (random's %v)", info.Name, game, r, low)
			}
		}
	}
	if _, ok := Rating("connect4", "no-such-strategy"); ok {
		t.Error("a rating for an unknown strategy")
	}
}
