package strategies

import (
	"context"
	"math"

	"github.com/gambitbot/gambit/engine"
)

// Parameters of GeneticRoulette: report 000's chromosome length and
// population.
const (
	rouletteLength     = 5
	roulettePopulation = 20
)

// GeneticRoulette is the genetic algorithm of report 000 (section 1.4,
// "Algoritma Genetic") as its authors meant it. A chromosome is a
// sequence of 5 plies — bot, opponent, bot, opponent, bot — in a
// population of 20; its fitness is the evaluation for the bot of the
// position after playing the whole sequence (Adjacency: adjacencyEval, the
// mark difference the report counted plus parity, threats and stability).
// Parents are drawn by a roulette wheel proportional to fitness, each pair
// gives two children by one-point crossover, and one random gene of each
// child is redrawn, as in the report. The bot plays the first move of the
// fittest chromosome seen. Generations repeat until the deadline or
// Limits.Nodes (evaluations).
//
// The listing has bugs this version does not copy: its wheel divides
// integers (fitness/(sum+1) is always 0, so every parent was chromosome
// 0), its search for the best child never updates max (so it took the
// last child), and chromosomes of fitness ≤ 0 were redrawn until positive
// (possibly forever); here the wheel is proportional to fitness shifted so
// the worst weighs one unit of the game's score, and the best is the best.
// Genes are decoded like Genetic's (moves[gene mod len(moves)]) instead
// of the report's distinct cell numbers repaired by random redraws.
//
// What stays is the report's design: the fitness lets the bot choose the
// opponent's moves too, so it plays for lines where the opponent helps —
// the flaw report 001 (section 4) names as the reason for Genetic.
type GeneticRoulette struct{}

// Search implements Strategy.
func (GeneticRoulette) Search(ctx context.Context, pos engine.Position, limits Limits) (Result, error) {
	r, err := newRun(ctx, pos, limits, "genetic-roulette")
	if err != nil {
		return Result{}, err
	}
	m, v := r.greedy()
	if len(r.legal()) == 1 || r.stopped {
		return r.result(m, v, 1, []engine.Move{m}), nil
	}
	length := min(rouletteLength, pos.PliesLeft())
	if limits.Depth > 0 {
		length = min(length, limits.Depth)
	}
	pop, kids := newPopulation(r.rng, roulettePopulation, length), newPopulation(r.rng, roulettePopulation, length)
	values := make([]int, roulettePopulation)
	weights := make([]float64, roulettePopulation)
	line := make([]engine.Move, 0, length)
	best, bestLine := math.MinInt, make([]engine.Move, 0, length)
	var w wheel
	for !r.stopped {
		worst := math.MaxInt
		for i, c := range pop {
			values[i], line = r.sequence(c, line[:0])
			worst = min(worst, values[i])
			if values[i] > best {
				best, bestLine = values[i], append(bestLine[:0], line...)
				r.report(bestLine[0], best, len(bestLine))
			}
		}
		for i, v := range values {
			weights[i] = float64(v - worst + r.sc.rules.unit())
		}
		w.build(weights)
		for i := 0; i < len(kids); i += 2 {
			crossover(pop[w.spin(r.rng)], pop[w.spin(r.rng)], kids[i], kids[i+1], 1+r.rng.IntN(max(1, length-1)))
			kids[i][r.rng.IntN(length)] = uint16(r.rng.Uint32())
			kids[i+1][r.rng.IntN(length)] = uint16(r.rng.Uint32())
		}
		pop, kids = kids, pop
	}
	return r.result(bestLine[0], best, len(bestLine), bestLine), nil
}

// sequence plays chromosome c's moves (until the game ends), appending
// them to line, and returns the evaluation of the position reached for
// the root side.
func (r *run) sequence(c []uint16, line []engine.Move) (int, []engine.Move) {
	for _, gene := range c {
		moves := r.legal()
		if len(moves) == 0 {
			break
		}
		m := decodeGene(moves, gene)
		r.play(m)
		line = append(line, m)
	}
	v := r.rootValue(r.eval())
	for range line {
		r.undo()
	}
	return v, line
}
