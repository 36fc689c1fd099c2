// Package daily chooses a server's puzzle of the day: a sliding-tile
// puzzle, an N-Queens board with one queen given, or a "find the best
// move" position of Connect Four or Adjacency in which exactly one move
// wins, or saves the game when none wins.
//
// A puzzle is a function of its seed alone: the same seed gives the same
// puzzle on every machine and at every load, because the solvers that
// choose the positions stop at node budgets rather than at a clock
// (Connect Four's exact solver, c4solver; Adjacency's endgame solver,
// adjsearch). Seed derives the seed of a server's day from a secret key,
// so that everyone in a server meets the same puzzle that day and nobody
// without the key can make it ahead of its time; practice puzzles have
// seeds of their own (PracticeSeed), which never name a day's puzzle.
package daily

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/engine/nqueens"
	adjgame "github.com/gambitbot/gambit/games/adjacency"
	c4game "github.com/gambitbot/gambit/games/connect4"
	queensgame "github.com/gambitbot/gambit/games/queens"
	tilegame "github.com/gambitbot/gambit/games/tiles"
	"github.com/gambitbot/gambit/strategies/adjsearch"
	"github.com/gambitbot/gambit/strategies/c4solver"
	"github.com/gambitbot/gambit/strategies/puzzles"
)

// Kind is a sort of daily puzzle.
type Kind string

// The kinds, in the order the days rotate through them. A best-move
// puzzle's kind is its game's name (games/catalog), which the bot's
// buttons carry.
var (
	Tiles     Kind = "tiles"
	Connect4       = Kind(c4game.Game.Name)
	Queens    Kind = "queens"
	Adjacency      = Kind(adjgame.Game.Name)
)

// Kinds returns the kinds in the order the days rotate through them.
func Kinds() []Kind { return []Kind{Tiles, Connect4, Queens, Adjacency} }

// Puzzle is one puzzle.
type Puzzle struct {
	// Kind is the sort of puzzle.
	Kind Kind
	// Game names the game it is played in, as games/catalog names it:
	// the 8-puzzle's, N-Queens', Connect Four's or Adjacency's.
	Game string
	// Position is the puzzle's start in the game's position text.
	Position string
	// Answer is, in a best-move puzzle (Connect Four, Adjacency), the one
	// move that wins or saves, in the game's notation; empty otherwise.
	Answer string
	// Wins reports whether the answer wins; otherwise it draws where
	// every other move loses.
	Wins bool
	// Moves is the length of an optimal solution of a sliding-tile
	// puzzle; 0 otherwise.
	Moves int
}

// BestMove reports whether p is a "find the best move" puzzle: one move,
// Answer, to find.
func (p Puzzle) BestMove() bool { return p.Answer != "" }

// ErrNoPuzzle is the error of a seed for which no position within the
// node budgets had exactly one winning or saving move. It is rare: Make
// tries many positions.
var ErrNoPuzzle = errors.New("daily: no puzzle found within the node budget")

// Day returns the UTC date of t as "2006-01-02", the name of its day.
func Day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// KindOn returns the kind of puzzle of day (a Day name): the kinds take
// turns, one a day.
func KindOn(day string) (Kind, error) {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return "", fmt.Errorf("daily: day %q: want a date like 2026-11-27", day)
	}
	n := int(t.Unix() / (24 * 60 * 60))
	k := Kinds()
	return k[n%len(k)], nil
}

// dailySeed is the bit set in every daily puzzle's seed and in no
// practice puzzle's: the two never share a seed, so no practice button
// names a day's puzzle.
const dailySeed = 1 << 63

// Seed returns the seed of a server's puzzle of day, keyed by the
// install's secret key: the same for everyone in the server that day,
// different from day to day and from server to server, and without the
// key nobody can tell it (an HMAC-SHA256 of the day and the server).
func Seed(key []byte, day, guild string) uint64 {
	m := hmac.New(sha256.New, key)
	_, _ = m.Write([]byte(day + "/" + guild)) // a hash's Write never fails; a day has no "/"
	return binary.BigEndian.Uint64(m.Sum(nil)) | dailySeed
}

// PracticeSeed returns a fresh random seed of a practice puzzle, one
// that is never a daily puzzle's.
func PracticeSeed() uint64 { return rand.Uint64() &^ dailySeed }

// IsPractice reports whether seed is a practice puzzle's, as PracticeSeed
// makes them: no daily puzzle's seed (Seed) is.
func IsPractice(seed uint64) bool { return seed&dailySeed == 0 }

// ForDay returns a server's puzzle of day: the kind of the day, made from
// the server's seed under key.
func ForDay(ctx context.Context, key []byte, day, guild string) (Puzzle, error) {
	k, err := KindOn(day)
	if err != nil {
		return Puzzle{}, err
	}
	return Make(ctx, k, Seed(key, day, guild))
}

// The node budgets that bound Make: per move scored, and per puzzle in
// all. A seed whose positions all need more gets ErrNoPuzzle.
const (
	moveNodes  = 400_000
	totalNodes = 20_000_000
	// maxTries bounds the positions a best-move puzzle looks at.
	maxTries = 300
)

// Make returns the puzzle of kind made from seed. It honours ctx between
// positions; its result depends on seed alone.
func Make(ctx context.Context, kind Kind, seed uint64) (Puzzle, error) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var (
		p   Puzzle
		err error
	)
	switch kind {
	case Tiles:
		p, err = makeTiles(ctx, rng)
	case Queens:
		p, err = makeQueens(rng)
	case Connect4:
		p, err = makeConnect4(ctx, rng)
	case Adjacency:
		p, err = makeAdjacency(ctx, rng)
	default:
		return Puzzle{}, fmt.Errorf("daily: unknown kind %q", kind)
	}
	if err != nil {
		return Puzzle{}, fmt.Errorf("daily: %s puzzle of seed %d: %w", kind, seed, err)
	}
	p.Kind = kind
	return p, nil
}

// makeTiles deals an 8-puzzle whose optimal solution takes 12 to 26 moves
// (medium or hard), with no clock: Scramble measures each walk with the
// optimal solver, which needs milliseconds on the 8-puzzle.
func makeTiles(ctx context.Context, rng *rand.Rand) (Puzzle, error) {
	lo, hi := 12, 26
	q, n, err := puzzles.Scramble(context.WithoutCancel(ctx), rng, 3, lo, hi)
	if err != nil {
		return Puzzle{}, err
	}
	return Puzzle{Game: tilegame.Eight.Name, Position: q.String(), Moves: n}, nil
}

// makeQueens sets an N-Queens board of side 6 to 10 with one queen
// given, on a square of one of the board's solutions: the player places
// the others.
func makeQueens(rng *rand.Rand) (Puzzle, error) {
	n := 6 + rng.IntN(5)
	rows := queensSolution(rng, n)
	text := ""
	given := rng.IntN(n)
	for c := range n {
		if c > 0 {
			text += ","
		}
		if c == given {
			text += fmt.Sprint(rows[c] + 1)
		} else {
			text += "0"
		}
	}
	if _, err := nqueens.Parse(text); err != nil {
		return Puzzle{}, err
	}
	return Puzzle{Game: queensgame.Game.Name, Position: text}, nil
}

// queensSolution returns a solution of the n×n board, rows[c] being
// column c's queen's row from 0: backtracking with the rows tried in an
// order drawn from rng. Every n from 4 has one, found in a few hundred
// steps at these sizes.
func queensSolution(rng *rand.Rand, n int) []int {
	rows := make([]int, n)
	order := rng.Perm(n)
	var place func(c int) bool
	place = func(c int) bool {
		if c == n {
			return true
		}
		for _, r := range order {
			ok := true
			for d := range c {
				if rows[d] == r || c-d == r-rows[d] || c-d == rows[d]-r {
					ok = false
					break
				}
			}
			if ok {
				rows[c] = r
				if place(c + 1) {
					return true
				}
			}
		}
		return false
	}
	place(0)
	return rows
}

// verdict is a move's value for the side that plays it: 1 a win, 0 a
// draw, −1 a loss.
type verdict = int

// single returns the one move whose verdict beats every other's, when
// that verdict is a win or a draw: the puzzle's answer.
func single(moves []engine.Move, verdicts []verdict) (engine.Move, verdict, bool) {
	best, count, at := -2, 0, -1
	for i, v := range verdicts {
		switch {
		case v > best:
			best, count, at = v, 1, i
		case v == best:
			count++
		}
	}
	if count != 1 || best < 0 || len(moves) < 2 {
		return engine.NoMove, 0, false
	}
	return moves[at], best, true
}

// c4Table is the Connect Four solver's table for Make: small, as the
// positions are late in the game.
const c4Table = 4 << 20

// makeConnect4 plays random moves from the start, 14 to 27 of them, and
// keeps the first position in which exactly one column wins (or saves)
// and whose answer is not a plain four in a row or block of one: the
// side to move has no four to complete and none to stop.
func makeConnect4(ctx context.Context, rng *rand.Rand) (Puzzle, error) {
	s := c4solver.New(c4Table)
	var spent uint64
	for range maxTries {
		if err := ctx.Err(); err != nil {
			return Puzzle{}, err
		}
		p := connect4.New()
		plies := 14 + rng.IntN(14)
		var buf [connect4.Width]engine.Move
		for range plies {
			moves := p.Moves(buf[:0])
			if p.Terminal() || len(moves) == 0 {
				break
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
		me := p.SideToMove()
		if p.Terminal() || p.Playable()&(p.Threats(me)|p.Threats(1-me)) != 0 {
			continue
		}
		moves := p.Moves(buf[:0])
		verdicts := make([]verdict, len(moves))
		ok := true
		for i, m := range moves {
			child := *p
			child.Play(m)
			r, err := s.SolveWithin(context.WithoutCancel(ctx), &child, moveNodes)
			spent += r.Nodes
			if err != nil {
				ok = false
				break
			}
			verdicts[i] = sign(-r.Score)
		}
		if spent > totalNodes {
			break
		}
		if !ok {
			continue
		}
		if m, v, ok := single(moves, verdicts); ok {
			return Puzzle{Game: c4game.Game.Name, Position: p.String(), Answer: p.FormatMove(m), Wins: v > 0}, nil
		}
	}
	return Puzzle{}, ErrNoPuzzle
}

// adjLeft is the range of plies left in an Adjacency puzzle: late in a
// full game of 28 rounds, where the endgame solver is exact in a few
// thousand nodes and the empty cells fit a menu.
const adjLeftMin, adjLeftMax = 7, 10

// makeAdjacency plays random moves in a game of 28 rounds until 7 to 10
// plies are left, and keeps the first position in which exactly one cell
// wins (or saves), each move scored to the end by adjsearch's solver.
func makeAdjacency(ctx context.Context, rng *rand.Rand) (Puzzle, error) {
	e := adjsearch.New(nil)
	var spent uint64
	for range maxTries {
		if err := ctx.Err(); err != nil {
			return Puzzle{}, err
		}
		b, err := adjacency.NewBoard(adjacency.MaxRounds, engine.X)
		if err != nil {
			return Puzzle{}, err
		}
		left := adjLeftMin + rng.IntN(adjLeftMax-adjLeftMin+1)
		var buf [adjacency.Cells]engine.Move
		for b.PliesLeft() > left {
			moves := b.Moves(buf[:0])
			b = b.After(moves[rng.IntN(len(moves))])
		}
		me := b.SideToMove()
		moves := b.Moves(buf[:0])
		verdicts := make([]verdict, len(moves))
		ok := true
		for i, m := range moves {
			child := b.After(m)
			if child.Terminal() {
				verdicts[i] = sign(child.Score(me))
				continue
			}
			r, err := e.Search(context.WithoutCancel(ctx), child, adjsearch.Options{Depth: child.PliesLeft(), Nodes: moveNodes})
			spent += r.Nodes
			if err != nil || !r.Exact {
				ok = false
				break
			}
			score := r.Score
			if child.SideToMove() != me {
				score = -score
			}
			verdicts[i] = sign(score)
		}
		if spent > totalNodes {
			break
		}
		if !ok {
			continue
		}
		if m, v, ok := single(moves, verdicts); ok {
			return Puzzle{Game: adjgame.Game.Name, Position: b.String(), Answer: b.FormatMove(m), Wins: v > 0}, nil
		}
	}
	return Puzzle{}, ErrNoPuzzle
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// Hints returns, for a best-move puzzle, the moves left after n hints:
// each hint halves the candidates, always keeping the answer, so that a
// player who takes hints still chooses. Moves are in the game's
// notation; candidates are the legal moves in the order given.
func Hints(candidates []string, answer string, n int) []string {
	out := append([]string(nil), candidates...)
	for range n {
		if len(out) <= 2 {
			break
		}
		keep := (len(out) + 1) / 2
		// Keep a window of keep moves around the answer, fixed by the
		// list alone, so that every player sees the same hints.
		at := 0
		for i, m := range out {
			if m == answer {
				at = i
			}
		}
		from := min(max(at-keep/2, 0), len(out)-keep)
		out = out[from : from+keep]
	}
	return out
}
