package strategies

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/gambitbot/gambit/engine"
)

// randomStrategies is the baseline every other strategy should beat.
var randomStrategies = []Info{
	{
		Name:        "random",
		DisplayName: "Random",
		Blurb:       "plays any legal move at random",
		Games:       allGames,
		Description: "a uniformly random legal move",
		Strategy:    Random{},
	},
}

// Random plays a uniformly random legal move, drawn from a PCG generator
// seeded with Limits.Seed (0: a random seed), so that a seeded game can
// be replayed. It searches nothing: Score 0, Nodes 0.
type Random struct{}

// Search implements Strategy.
func (Random) Search(_ context.Context, pos engine.Position, limits Limits) (Result, error) {
	var buf [engine.MaxMoves]engine.Move
	moves := pos.Moves(buf[:0])
	if len(moves) == 0 {
		return Result{}, fmt.Errorf("strategies: random %v: %w", pos, ErrNoMoves)
	}
	m := moves[seededRand(limits.Seed).IntN(len(moves))]
	return Result{Move: m, PV: []engine.Move{m}}, nil
}

// seededRand returns a PCG generator seeded with seed, or with a random
// seed if it is 0.
func seededRand(seed uint64) *rand.Rand {
	if seed == 0 {
		seed = rand.Uint64()
	}
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}
