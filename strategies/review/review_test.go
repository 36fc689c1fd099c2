package review

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/internal/racetest"
	"github.com/gambitbot/gambit/strategies"
	"github.com/gambitbot/gambit/strategies/c4solver"
)

func game(t testing.TB, name string) *games.Game {
	t.Helper()
	g, err := catalog.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func analyze(t testing.TB, name, start string, moves []string, budget Budget) *Review {
	t.Helper()
	gm := game(t, name)
	pos, err := gm.Position(start, games.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Analyze(context.Background(), strategies.Minimax{}, gm, pos, moves, budget, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestTicTacToeIsExact: after x takes the centre, o's edge loses (x
// forks), a corner draws; every first move draws. The values are exact
// and the labels follow: x's centre the best, o's edge a blunder whose
// best is a corner, and the turning point o's edge.
func TestTicTacToeIsExact(t *testing.T) {
	r := analyze(t, "tictactoe", "start", []string{"5", "2", "1"}, Budget{})
	if len(r.Moves) != 3 {
		t.Fatalf("%d moves reviewed, want 3", len(r.Moves))
	}
	x, o := r.Moves[0], r.Moves[1]
	if x.Label != Best || plain(x.Before) != (Value{Exact: true}) || plain(x.After) != (Value{Exact: true}) || x.Side != engine.X {
		t.Errorf("x's centre: %+v; want the best, drawn before and after", x)
	}
	if o.Label != Blunder || plain(o.Before) != (Value{Exact: true}) || plain(o.After) != (Value{Score: -1, Exact: true}) || o.Side != engine.O {
		t.Errorf("o's edge: %+v; want a blunder from a draw to a loss", o)
	}
	if !strings.Contains("1379", o.Best) {
		t.Errorf("o's best move %q; want a corner", o.Best)
	}
	if got := r.TurningPoint(engine.O, true); got != 1 {
		t.Errorf("turning point %d, want 1 (o's edge)", got)
	}
	if got := r.TurningPoint(engine.X, true); got != -1 {
		t.Errorf("turning point of x %d, want -1: x made no mistake", got)
	}
	if n := r.Counts(engine.O); n[Blunder] != 1 || n[Best] != 0 {
		t.Errorf("o's counts %v, want one blunder", n)
	}
}

// plain is v without how far the end is.
func plain(v Value) Value { return Value{Score: v.Score, Exact: v.Exact} }

// c4positions reads the first n positions of a benchmark set of Pascal
// Pons (engine/connect4/testdata) with their exact scores.
func c4positions(t *testing.T, set string, n int) (moves []string, scores []int) {
	t.Helper()
	f, err := os.Open("../../engine/connect4/testdata/Test_" + set)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(moves) < n {
		m, s, ok := strings.Cut(sc.Text(), " ")
		score, err := strconv.Atoi(s)
		if !ok || err != nil {
			t.Fatalf("line %q", sc.Text())
		}
		moves, scores = append(moves, m), append(scores, score)
	}
	return moves, scores
}

// TestConnectFourLabelsAgainstTheBenchmark reviews every move of
// benchmark positions whose exact scores are known: the value before each
// move is the position's score, exact; the value after it is the exact
// score of the position it leads to (solved here apart); a move that
// loses the win or the draw is a blunder, one that keeps the best score
// the best, one that keeps the win but wins later good (an inaccuracy
// where a win on the spot was passed up), one that loses sooner a
// mistake (a blunder if the opponent then wins at once); the best move
// shown scores the position's score.
func TestConnectFourLabelsAgainstTheBenchmark(t *testing.T) {
	n := 12
	if testing.Short() {
		n = 4
	}
	solver := c4solver.New(16 << 20)
	ctx := context.Background()
	for _, set := range []string{"L3_R1", "L2_R1"} {
		lines, scores := c4positions(t, set, n)
		for i, line := range lines {
			pos, err := connect4.Parse(line)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range pos.Moves(nil) {
				r := analyze(t, "connect4", line, []string{pos.FormatMove(m)}, Budget{})
				got := r.Moves[0]
				if plain(got.Before) != (Value{Score: float64(scores[i]), Exact: true}) {
					t.Fatalf("%s %s: value before %+v, want %d exact", set, line, got.Before, scores[i])
				}
				child := pos.Clone().(*connect4.Position)
				child.Play(m)
				after := 0
				if child.Terminal() {
					after = child.Score(pos.SideToMove())
				} else {
					res, err := solver.Solve(ctx, child)
					if err != nil {
						t.Fatal(err)
					}
					after = -res.Score
				}
				if plain(got.After) != (Value{Score: float64(after), Exact: true}) {
					t.Fatalf("%s %s then %s: value after %+v, want %d exact", set, line, got.Move, got.After, after)
				}
				want := Best
				switch {
				case sign(after) < sign(scores[i]):
					want = Blunder
				case after == scores[i]:
				case after < 0 && winsAtOnce(child):
					want = Blunder
				case after < 0:
					want = Mistake
				case winsAtOnce(pos):
					want = Inaccuracy
				default:
					want = Good
				}
				if got.Label != want {
					t.Errorf("%s %s then %s (%d → %d): %v, want %v", set, line, got.Move, scores[i], after, got.Label, want)
				}
				best, _ := pos.ParseMove(got.Best)
				bp := pos.Clone().(*connect4.Position)
				bp.Play(best)
				if v := bestValue(t, solver, pos, bp); v != scores[i] {
					t.Errorf("%s %s: best move %s scores %d, want %d", set, line, got.Best, v, scores[i])
				}
			}
		}
	}
}

// bestValue is the exact score, for pos's side to move, of child, a
// position after one of its moves.
func bestValue(t *testing.T, s *c4solver.Solver, pos, child *connect4.Position) int {
	t.Helper()
	if child.Terminal() {
		return child.Score(pos.SideToMove())
	}
	res, err := s.Solve(context.Background(), child)
	if err != nil {
		t.Fatal(err)
	}
	return -res.Score
}

// winsAtOnce reports whether the side to move in p has a winning move.
func winsAtOnce(p *connect4.Position) bool {
	for _, m := range p.Moves(nil) {
		q := p.Clone().(*connect4.Position)
		q.Play(m)
		if q.Terminal() && q.Result(p.SideToMove()) == engine.Win {
			return true
		}
	}
	return false
}

func sign(n int) int { return max(-1, min(1, n)) }

// TestLabelThresholds labels losses in Adjacency's marks, Othello's
// discs and Connect Four's wins at and beyond each threshold, and exact
// results lost.
func TestLabelThresholds(t *testing.T) {
	est := func(before, after float64) Move {
		return Move{Move: "a", Best: "b", Before: Value{Score: before}, After: Value{Score: after}}
	}
	exact := func(before, after float64) Move {
		return Move{Move: "a", Best: "b", Before: Value{Score: before, Exact: true}, After: Value{Score: after, Exact: true}}
	}
	// far is exact with how far the end is: before's plies, after's.
	far := func(before, after float64, bp, ap int) Move {
		m := exact(before, after)
		m.Before.Distance, m.Before.Plies, m.After.Distance, m.After.Plies = before != 0, bp, after != 0, ap
		return m
	}
	for _, c := range []struct {
		game string
		m    Move
		want Label
	}{
		{"adjacency", est(4, 4), Best},
		{"adjacency", est(4, 6), Best}, // the search found more after the move
		{"adjacency", est(4, 2), Good}, // the side to move's tempo
		{"adjacency", est(4, 1), Inaccuracy},
		{"adjacency", est(4, -4), Mistake},
		{"adjacency", est(4, -5), Blunder},
		{"adjacency", exact(8, 2), Mistake}, // still won: the marks count
		{"adjacency", exact(1, -1), Blunder},
		{"adjacency", exact(0, -2), Blunder},
		{"othello", est(10, 8), Good},
		{"othello", est(10, 4), Inaccuracy},
		{"othello", est(10, -2), Mistake},
		{"othello", est(10, -3), Blunder},
		{"connect4", exact(9, 2), Good}, // still won, later
		{"connect4", exact(0, -20), Blunder},
		{"connect4", exact(-3, -10), Good}, // lost either way, sooner
		{"connect4", Move{Move: "a", Best: "b", Before: Value{Score: 5, Exact: true}, After: Value{Score: 0.9}}, Good},
		{"connect4", Move{Move: "a", Best: "b", Before: Value{Score: 5, Exact: true}, After: Value{Score: 0.6}}, Mistake},
		{"connect4", Move{Move: "a", Best: "b", Before: Value{Score: 5, Exact: true}, After: Value{Score: 0.1}}, Mistake}, // the estimate proves no loss
		{"connect4", Move{Move: "a", Best: "b", Before: Value{Score: 0.9}, After: Value{Score: 0.1}}, Blunder},
		{"gomoku", est(0.5, 0.25), Inaccuracy},
		{"gomoku", est(0.5, -0.5), Blunder},
		{"tictactoe", exact(1, 0), Blunder},
		{"tictactoe", exact(0, 0), Best},
		// A won or lost game, where the exact values tell how far the end is.
		{"tictactoe", far(-1, -1, 4, 1), Blunder},   // the opponent wins at once; blocking held out 4 plies
		{"tictactoe", far(-1, -1, 2, 1), Best},      // every move loses at once
		{"connect4", far(-5, -6, 20, 13), Mistake},  // loses 6 plies sooner
		{"connect4", far(-5, -17, 24, 1), Blunder},  // loses at once
		{"connect4", far(-5, -5, 24, 23), Best},     // holds out as long as the best
		{"connect4", far(9, 2, 5, 12), Good},        // wins later
		{"connect4", far(18, 17, 1, 2), Inaccuracy}, // a win on the spot passed up
		{"connect4", far(1, -1, 5, 6), Blunder},     // the win thrown away
	} {
		if got := ThresholdsOf(c.game).label(c.m); got != c.want {
			t.Errorf("%s %+v: %v, want %v", c.game, c.m, got, c.want)
		}
	}
	same := exact(3, -5)
	same.Best = same.Move
	if got := ThresholdsOf("adjacency").label(same); got != Best {
		t.Errorf("the best move itself: %v, want best whatever the values", got)
	}
}

// TestTurningPoint finds the loser's first blunder, else the loser's
// largest loss; in a draw, either side's.
func TestTurningPoint(t *testing.T) {
	mv := func(side engine.Side, before, after float64, l Label) Move {
		return Move{Side: side, Move: "a", Best: "b", Before: Value{Score: before}, After: Value{Score: after}, Label: l}
	}
	r := &Review{Moves: []Move{
		mv(engine.X, 0, -2, Inaccuracy), mv(engine.O, 2, -6, Mistake), mv(engine.X, 6, -10, Blunder),
		mv(engine.O, 10, 9, Good), mv(engine.X, -9, -11, Inaccuracy), mv(engine.O, 11, 0, Blunder),
	}}
	for _, c := range []struct {
		loser    engine.Side
		hasLoser bool
		want     int
	}{{engine.X, true, 2}, {engine.O, true, 5}, {engine.X, false, 2}} {
		if got := r.TurningPoint(c.loser, c.hasLoser); got != c.want {
			t.Errorf("TurningPoint(%v, %v) = %d, want %d", c.loser, c.hasLoser, got, c.want)
		}
	}
	r.Moves[2].Label, r.Moves[5].Label = Mistake, Mistake
	if got := r.TurningPoint(engine.X, true); got != 2 {
		t.Errorf("without blunders: %d, want 2 (x's loss of 16)", got)
	}
}

// TestNodeCapIsReproducible reviews the same Adjacency and Othello games
// twice under a node cap and no time: the reviews are the same, values
// and labels, and every move has a best move in the game's notation.
// Under -race -short the games are 4 moves long, not 10.
func TestNodeCapIsReproducible(t *testing.T) {
	plies := 10
	if racetest.Short(t, "4 moves a game, not 10") {
		plies = 4
	}
	for _, c := range []struct{ game, start string }{
		{"adjacency", "start"},
		{"othello", "start"},
	} {
		gm := game(t, c.game)
		pos, err := gm.Position(c.start, games.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var moves []string
		for range plies {
			ms := pos.Moves(nil)
			m := ms[len(moves)*7%len(ms)]
			moves = append(moves, pos.FormatMove(m))
			pos.Play(m)
		}
		budget := Budget{Nodes: 20_000}
		a := analyze(t, c.game, c.start, moves, budget)
		b := analyze(t, c.game, c.start, moves, budget)
		for i := range a.Moves {
			if a.Moves[i] != b.Moves[i] {
				t.Errorf("%s move %d: %+v, then %+v", c.game, i+1, a.Moves[i], b.Moves[i])
			}
			if a.Moves[i].Best == "" || a.Moves[i].Move != moves[i] {
				t.Errorf("%s move %d: %+v", c.game, i+1, a.Moves[i])
			}
		}
	}
}

// TestBadInput: an illegal move is an error naming it, and a solo puzzle
// is no duel.
func TestBadInput(t *testing.T) {
	gm := game(t, "connect4")
	pos, _ := gm.Position("start", games.Options{})
	_, err := Analyze(context.Background(), strategies.Minimax{}, gm, pos, []string{"4", "9"}, Budget{Nodes: 1000}, nil)
	if err == nil || !strings.Contains(err.Error(), "move 2") {
		t.Errorf("an illegal second move: %v; want an error naming move 2", err)
	}
	puzzle := game(t, "8puzzle")
	start, _ := puzzle.Position("start", games.Options{})
	if _, err := Analyze(context.Background(), strategies.Minimax{}, puzzle, start, nil, Budget{}, nil); err == nil {
		t.Error("a solo puzzle was reviewed")
	}
}
