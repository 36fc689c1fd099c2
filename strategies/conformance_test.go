package strategies

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/internal/racetest"
)

// TestEveryStrategyKeepsItsPromises runs every registered strategy on
// random positions of every game it plays: it must return a legal move
// once its deadline passes, leave the position as it found it, and answer
// an expired context too. Time is only a hang guard here (the machine may
// be busy): a search that ignored its context would run for minutes on
// these positions, and the benchmarks measure the real overshoot. Each
// search spends its deadline's CPU, so -short tries 10 positions a
// strategy and game (600 in all, 10 s of CPU under -race with 30); the
// 200 of .ci/run's long step cover more of each game's positions.
func TestEveryStrategyKeepsItsPromises(t *testing.T) {
	positions, budget := 200, 10*time.Millisecond
	switch {
	case racetest.Short(t, "4 positions a strategy and game, not 10"):
		positions, budget = 4, 3*time.Millisecond
	case testing.Short():
		positions, budget = 10, 3*time.Millisecond
	}
	expired, cancel := context.WithCancel(context.Background())
	cancel()
	const hang = 30 * time.Second
	for _, info := range All() {
		for _, game := range info.Games {
			t.Run(info.Name+"/"+game, func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(len(info.Name)), uint64(len(game))))
				for i := range positions {
					p := randomPosition(t, rng, game, 2+rng.IntN(27), 1+rng.IntN(56))
					before := p.String()
					ctx, cancel := context.WithTimeout(context.Background(), budget)
					start := time.Now()
					res, err := searchNoPanic(ctx, info.Strategy, p, Limits{Seed: uint64(i + 1), HashMiB: 1})
					elapsed := time.Since(start)
					cancel()
					switch {
					case err != nil:
						t.Fatalf("%v: %v", before, err)
					case !p.Legal(res.Move):
						t.Fatalf("%v: illegal move %v", before, res.Move)
					case p.String() != before:
						t.Fatalf("%v: the search left %v", before, p)
					case elapsed > hang:
						t.Fatalf("%v: answered after %v with a %v deadline", before, elapsed, budget)
					}
					start = time.Now()
					res, err = searchNoPanic(expired, info.Strategy, p, Limits{Seed: 1, HashMiB: 1})
					if err != nil || !p.Legal(res.Move) || time.Since(start) > hang {
						t.Fatalf("%v, expired context: move %v, err %v after %v", before, res.Move, err, time.Since(start))
					}
				}
			})
		}
	}
}

// TestEveryStrategyPlaysLongLines runs every strategy that plays Othello
// on an early position whose lines, passes included, run past 64 plies:
// a search that follows them to the end (beam) must not run out of its
// per-ply buffers. The node cap bounds the work, not the clock.
func TestEveryStrategyPlaysLongLines(t *testing.T) {
	const text = "......../..o...../..o.o.../.xxxx.../..oox.../.....x../......../........ o"
	for _, info := range ForGame("othello") {
		g, err := catalog.Lookup("othello")
		if err != nil {
			t.Fatal(err)
		}
		p, err := g.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		res, err := searchNoPanic(context.Background(), info.Strategy, p, Limits{Nodes: 20000, Seed: 1, HashMiB: 1})
		if err != nil || !p.Legal(res.Move) || p.String() != text {
			t.Errorf("%s: move %v, error %v, position left %v", info.Name, res.Move, err, p)
		}
	}
}

// searchNoPanic turns a panic of the strategy into an error naming it.
func searchNoPanic(ctx context.Context, s Strategy, p engine.Position, limits Limits) (res Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return s.Search(ctx, p, limits)
}

// TestBuffersHoldEveryGame checks the fixed per-search buffers against
// every game a generic strategy plays: its start's moves fit a buffer of
// engine.MaxMoves, and its longest game fits the per-ply buffers of
// maxPly plies (a search such as beam follows a line to the end).
func TestBuffersHoldEveryGame(t *testing.T) {
	for _, g := range catalog.All() {
		if g.AI == nil {
			continue
		}
		p, err := g.Start(games.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(p.Moves(nil)); n > engine.MaxMoves {
			t.Errorf("%s: %d moves at the start, engine.MaxMoves is %d", g.Name, n, engine.MaxMoves)
		}
		if n := p.PliesLeft(); n >= maxPly {
			t.Errorf("%s: up to %d plies from the start, maxPly is %d", g.Name, n, maxPly)
		}
	}
}

// TestEveryGameScoresFitTheTable checks every game's AI against the
// search's score range (games.AI.Unit): the evaluation of every position
// of a few random games and the score of their ends stay within
// ±infinity, which the transposition table's 16 bits hold. A score out
// of it leaves a search that finds every move losing with no best move.
func TestEveryGameScoresFitTheTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, g := range catalog.All() {
		if g.AI == nil {
			continue
		}
		for range 3 {
			p, err := g.Start(games.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for !p.Terminal() {
				if v := g.AI.Evaluate(p); v <= -infinity || v >= infinity {
					t.Fatalf("%s: %v evaluates to %d, outside ±%d", g.Name, p, v, infinity)
				}
				moves := p.Moves(nil)
				p.Play(moves[rng.IntN(len(moves))])
			}
			if v := g.AI.Terminal(p); v <= -infinity || v >= infinity {
				t.Fatalf("%s: %v ends with %d, outside ±%d", g.Name, p, v, infinity)
			}
		}
	}
}
