package othsolve

import (
	"bufio"
	"context"
	"errors"
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/othello"
	"github.com/gambitbot/gambit/internal/racetest"
)

// ffoProblem is one of the FFO test positions (testdata/README.md).
type ffoProblem struct {
	number   int
	own, opp uint64 // the side to move's discs and the opponent's
	score    int
	best     []engine.Move
}

// loadFFO reads testdata/fforum-40-59.txt.
func loadFFO(tb testing.TB) []ffoProblem {
	tb.Helper()
	f, err := os.Open("testdata/fforum-40-59.txt")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []ffoProblem
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 5 || len(fields[1]) != 64 {
			tb.Fatalf("bad line %q", line)
		}
		var p ffoProblem
		var black, white uint64
		for i, c := range fields[1] {
			switch c {
			case 'X':
				black |= 1 << i
			case 'O':
				white |= 1 << i
			}
		}
		p.own, p.opp = black, white
		if fields[2] == "O" {
			p.own, p.opp = white, black
		}
		if p.number, err = strconv.Atoi(fields[0]); err != nil {
			tb.Fatal(err)
		}
		if p.score, err = strconv.Atoi(fields[3]); err != nil {
			tb.Fatal(err)
		}
		for _, name := range strings.Split(fields[4], ",") {
			m, err := othello.ParseCell(name)
			if err != nil {
				tb.Fatal(err)
			}
			p.best = append(p.best, m)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// play returns the position after the side with own plays m (a square or
// Pass), from the new side to move's point of view.
func play(own, opp uint64, m engine.Move) (uint64, uint64) {
	if m == othello.Pass {
		return opp, own
	}
	bit := uint64(1) << m
	f := othello.Flips(own, opp, bit)
	return opp &^ f, own | f | bit
}

// reference is a plain alpha-beta negamax to the end of the game, on
// engine/othello's Position, independent of the solver: the exact score
// for the side to move.
func reference(p *othello.Position, scoring Scoring, alpha, beta int) int {
	if p.Terminal() {
		me := p.SideToMove()
		d := p.Score(me)
		if scoring == EmptiesToWinner {
			e := 64 - p.Count(me) - p.Count(me.Other())
			switch {
			case d > 0:
				d += e
			case d < 0:
				d -= e
			}
		}
		return d
	}
	best := -65
	for _, m := range p.Moves(nil) {
		p.Play(m)
		v := -reference(p, scoring, -beta, -alpha)
		p.Undo()
		if v > best {
			best = v
			alpha = max(alpha, v)
			if alpha >= beta {
				break
			}
		}
	}
	return best
}

// randomEndgame plays random moves from the start until empties squares
// are left, starting over if the game ends first.
func randomEndgame(rng *rand.Rand, empties int) *othello.Position {
	for {
		p := othello.New()
		for !p.Terminal() && 64-p.Count(engine.X)-p.Count(engine.O) > empties {
			moves := p.Moves(nil)
			p.Play(moves[rng.IntN(len(moves))])
		}
		if !p.Terminal() {
			return p
		}
	}
}

// checkPV plays the principal variation and checks that it is legal,
// ends the game and ends it with score.
func checkPV(t *testing.T, s *Solver, own, opp uint64, r Result) {
	t.Helper()
	for i, m := range r.PV {
		legal := othello.LegalMoves(own, opp)
		switch {
		case m == othello.Pass && legal == 0 && othello.LegalMoves(opp, own) != 0:
		case m < othello.Cells && legal>>m&1 == 1:
		default:
			t.Fatalf("PV %v: move %d (%v) is not legal", r.PV, i, m)
		}
		own, opp = play(own, opp, m)
	}
	if othello.LegalMoves(own, opp)|othello.LegalMoves(opp, own) != 0 {
		t.Fatalf("PV %v does not end the game", r.PV)
	}
	final := s.final(own, opp)
	if len(r.PV)%2 == 1 {
		final = -final
	}
	if final != r.Score {
		t.Errorf("PV %v ends with %d, the solve said %d", r.PV, final, r.Score)
	}
}

// TestRandomEndgamesMatchTheReference solves random positions of 8 to 12
// empties in both scorings and checks the score against the reference
// negamax, the best move by the reference score of the position after it,
// and the principal variation by playing it out.
func TestRandomEndgamesMatchTheReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 1))
	count := 60
	if testing.Short() {
		count = 24
	}
	for _, scoring := range []Scoring{BoardCount, EmptiesToWinner} {
		s := NewScoring(1<<20, scoring)
		for i := range count {
			p := randomEndgame(rng, 8+i%5)
			me := p.SideToMove()
			own, opp := p.Bitboard(me), p.Bitboard(me.Other())
			r, err := s.Solve(context.Background(), own, opp, 0)
			if err != nil {
				t.Fatal(err)
			}
			want := reference(p, scoring, -65, 65)
			if r.Score != want {
				t.Fatalf("scoring %d, %v: score %d, want %d", scoring, p, r.Score, want)
			}
			if !p.Legal(r.Move) {
				t.Fatalf("%v: move %v is not legal", p, r.Move)
			}
			p.Play(r.Move)
			if got := -reference(p, scoring, -65, 65); got != want {
				t.Fatalf("scoring %d, %v: move %v scores %d, the position %d", scoring, p, r.Move, got, want)
			}
			checkPV(t, s, own, opp, r)
		}
	}
}

// TestFFO40 solves FFO problem #40 (20 empties) and checks its published
// score and that the move found achieves it. Under -race -short it is
// left out (4 s of CPU under -race, on one goroutine): the random
// endgames stand for it.
func TestFFO40(t *testing.T) {
	if racetest.Short(t, "no FFO problem") {
		t.SkipNow()
	}
	p := loadFFO(t)[0]
	if p.number != 40 {
		t.Fatalf("first problem is #%d", p.number)
	}
	s := NewScoring(16<<20, EmptiesToWinner)
	r, err := s.Solve(context.Background(), p.own, p.opp, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r.Score != p.score {
		t.Errorf("#40: score %d, want %d", r.Score, p.score)
	}
	if !slices.Contains(p.best, r.Move) {
		t.Errorf("#40: move %s, want one of %v", othello.CellName(r.Move), p.best)
	}
	own, opp := play(p.own, p.opp, r.Move)
	c, err := s.Solve(context.Background(), own, opp, 0)
	if err != nil {
		t.Fatal(err)
	}
	if -c.Score != p.score {
		t.Errorf("#40: after %s the score is %d, want %d", othello.CellName(r.Move), -c.Score, p.score)
	}
	checkPV(t, s, p.own, p.opp, r)
}

// TestPass solves a position where the side to move must pass.
func TestPass(t *testing.T) {
	// Black to move has no disc next to an empty square it could outflank.
	p, err := othello.Parse("xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxoo/xxxxxo.. o")
	if err != nil {
		t.Fatal(err)
	}
	if p.Placements() != 0 || p.Terminal() {
		t.Fatalf("%v: want a pass", p)
	}
	own, opp := p.Bitboard(engine.O), p.Bitboard(engine.X)
	r, err := New(0).Solve(context.Background(), own, opp, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := reference(p, BoardCount, -65, 65); r.Move != othello.Pass || r.Score != want {
		t.Errorf("got move %v score %d, want pass and %d", r.Move, r.Score, want)
	}
}

// TestFinishedGame solves a position where neither side can move: no
// move, no principal variation, the final score.
func TestFinishedGame(t *testing.T) {
	own, opp := uint64(0xFF), uint64(0xFF)<<56 // the first and last rows: nothing to outflank
	r, err := NewScoring(0, EmptiesToWinner).Solve(context.Background(), own, opp, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r.Move != engine.NoMove || len(r.PV) != 0 || r.Score != 0 {
		t.Errorf("got move %v PV %v score %d, want no move, no PV, 0", r.Move, r.PV, r.Score)
	}
}

// TestStopsOnCancelAndBudget checks that a solve stops with an error for
// a done context and for a spent node budget, and that the budget's stop
// is the same every time.
func TestStopsOnCancelAndBudget(t *testing.T) {
	p := loadFFO(t)[0]
	s := New(1 << 20)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Solve(ctx, p.own, p.opp, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
	var nodes []uint64
	for range 2 {
		r, err := New(1<<20).Solve(context.Background(), p.own, p.opp, 50_000)
		if !errors.Is(err, ErrNodeBudget) {
			t.Fatalf("budget: error %v, want ErrNodeBudget", err)
		}
		nodes = append(nodes, r.Nodes)
	}
	if nodes[0] != nodes[1] || nodes[0] < 50_000 || nodes[0] > 50_000+8*checkEvery {
		t.Errorf("budget of 50,000: stopped after %v nodes", nodes)
	}
	if _, err := s.Solve(context.Background(), p.own, p.own, 0); err == nil {
		t.Error("overlapping discs: no error")
	}
}

// TestStableDiscsStayPut plays random games on and checks that the discs
// stableDiscs calls stable are never flipped.
func TestStableDiscsStayPut(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 2))
	for range 300 {
		p := randomEndgame(rng, 4+rng.IntN(30))
		stable := [2]uint64{}
		for _, side := range []engine.Side{engine.X, engine.O} {
			stable[side] = stableDiscs(p.Bitboard(side), p.Bitboard(side.Other()))
		}
		for !p.Terminal() {
			moves := p.Moves(nil)
			p.Play(moves[rng.IntN(len(moves))])
			for _, side := range []engine.Side{engine.X, engine.O} {
				if lost := stable[side] &^ p.Bitboard(side); lost != 0 {
					t.Fatalf("%v: %d stable discs of %v flipped", p, bits.OnesCount64(lost), side)
				}
			}
		}
	}
}
