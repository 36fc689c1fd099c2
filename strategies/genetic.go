package strategies

import (
	"context"
	"math/rand/v2"
	"slices"

	"github.com/gambitbot/gambit/engine"
)

// geneticStrategies are the genetic-algorithm players of reports 000 and
// 001.
var geneticStrategies = []Info{
	{
		Name:        "genetic",
		DisplayName: "Evolver",
		Blurb:       "breeds whole lines of play and keeps the fittest",
		Games:       allGames,
		Description: "genetic algorithm over game-tree paths with a minimax reservation tree (Hong, Huang & Lin 2001)",
		Strategy:    Genetic{},
	},
	{
		Name:        "genetic-roulette",
		DisplayName: "Roulette evolver",
		Blurb:       "breeds short move sequences by chance",
		Games:       allGames,
		Description: "roulette-wheel genetic algorithm over 5-ply move sequences",
		Strategy:    GeneticRoulette{},
	},
}

// Parameters of Genetic.
const (
	// geneticDepth is the plies of a chromosome's path.
	geneticDepth = 4
	// geneticPopulation is the number of chromosomes (even: they breed
	// in pairs).
	geneticPopulation = 32
	// geneticMutation is the chance of each gene to be redrawn.
	geneticMutation = 0.05
	// geneticMaxTree caps the reservation tree's nodes; the search ends
	// when another generation might not fit.
	geneticMaxTree = 1 << 16
)

// Genetic is the genetic algorithm of report 001 (section 4, "Proses
// Pencarian dengan Genetic Algorithm"), after Hong, Huang & Lin (2001),
// "Adversarial search by evolutionary computation", done right.
//
// A chromosome is a path of geneticDepth (4) plies from the root, fewer
// near the end of the game or under Limits.Depth: one gene per ply, a
// number decoded at its ply as moves[gene mod len(moves)], so every
// chromosome is a legal line by construction (the report's cell numbers
// needed random repairs after crossover, which it found made the
// effective mutation rate far too high). A path ends early where the game
// does.
//
// The reservation tree is the union of the paths of every generation so
// far (the paper's reserving of the offspring's evaluations): each new
// leaf is evaluated once (adjacencyEval for Adjacency, the exact score of
// a finished game) and values are backed up by minimax over the tree. A
// chromosome's fitness is how many levels up its leaf's value propagates
// — all the way for the leaves of the principal variation. Parents are
// drawn by roulette wheel with weights fitness+1, recombined by one-point
// crossover and mutated gene by gene with probability geneticMutation,
// for a population of geneticPopulation (32), until the deadline,
// Limits.Nodes (evaluations and chromosomes decoded) or a full tree
// (geneticMaxTree nodes). The move is the root child holding the root
// value.
type Genetic struct{}

// Search implements Strategy.
func (Genetic) Search(ctx context.Context, pos engine.Position, limits Limits) (Result, error) {
	r, err := newRun(ctx, pos, limits, "genetic")
	if err != nil {
		return Result{}, err
	}
	m, v := r.greedy()
	if len(r.legal()) == 1 || r.stopped {
		return r.result(m, v, 1, []engine.Move{m}), nil
	}
	depth := min(geneticDepth, pos.PliesLeft())
	if limits.Depth > 0 {
		depth = min(depth, limits.Depth)
	}
	g := &geneticSearch{run: r, depth: depth}
	g.tree.reset()
	g.pop, g.kids = newPopulation(r.rng, geneticPopulation, depth), newPopulation(r.rng, geneticPopulation, depth)
	g.leaves = make([]int32, geneticPopulation)
	g.weights = make([]float64, geneticPopulation)
	last, lastValue := engine.NoMove, 0
	for {
		g.generation()
		root := &g.tree.nodes[0]
		best := g.tree.nodes[g.tree.bestChild(0)].move
		if best != last || root.value != lastValue {
			last, lastValue = best, root.value
			r.report(best, root.value, depth)
		}
		if r.stopped || len(g.tree.nodes)+geneticPopulation*depth > geneticMaxTree {
			return r.result(best, root.value, depth, g.tree.line(nil)), nil
		}
	}
}

// geneticSearch holds one Genetic search.
type geneticSearch struct {
	*run
	depth     int
	tree      gameTree
	pop, kids [][]uint16
	leaves    []int32
	weights   []float64
	wheel     wheel
}

// generation adds the population's paths to the reservation tree (until
// the search stops), backing up each new leaf's value, and unless stopped
// breeds the next population from the fitness.
func (g *geneticSearch) generation() {
	for i, c := range g.pop {
		if g.stopped && i > 0 {
			break
		}
		g.leaves[i] = g.insert(c)
	}
	if g.stopped {
		return
	}
	for i, leaf := range g.leaves {
		g.weights[i] = float64(g.tree.reach(leaf) + 1)
	}
	g.wheel.build(g.weights)
	for i := 0; i < len(g.kids); i += 2 {
		a, b := g.pop[g.wheel.spin(g.rng)], g.pop[g.wheel.spin(g.rng)]
		crossover(a, b, g.kids[i], g.kids[i+1], 1+g.rng.IntN(max(1, g.depth-1)))
		g.mutate(g.kids[i])
		g.mutate(g.kids[i+1])
	}
	g.pop, g.kids = g.kids, g.pop
}

// mutate redraws each gene of c with probability geneticMutation.
func (g *geneticSearch) mutate(c []uint16) {
	for i := range c {
		if g.rng.Float64() < geneticMutation {
			c[i] = uint16(g.rng.Uint32())
		}
	}
}

// insert walks chromosome c's path into the reservation tree, creating
// the nodes it lacks, evaluating a new leaf and backing its value up, and
// returns the leaf.
func (g *geneticSearch) insert(c []uint16) int32 {
	g.tick()
	n, played := int32(0), 0
	for _, gene := range c {
		moves := g.legal()
		if len(moves) == 0 {
			break
		}
		m := decodeGene(moves, gene)
		g.play(m)
		played++
		child := g.tree.find(n, m)
		if child < 0 {
			leaf := played == len(c) || g.pos.Terminal()
			value := 0
			if leaf {
				value = g.eval()
			}
			child = g.tree.add(n, m, value)
			if leaf {
				g.tree.update(child)
			}
		}
		n = child
	}
	for range played {
		g.undo()
	}
	return n
}

// decodeGene returns the move a gene stands for among the legal moves.
func decodeGene(moves []engine.Move, gene uint16) engine.Move {
	return moves[int(gene)%len(moves)]
}

// newPopulation returns size chromosomes of random genes.
func newPopulation(rng *rand.Rand, size, genes int) [][]uint16 {
	pop := make([][]uint16, size)
	for i := range pop {
		pop[i] = make([]uint16, genes)
		for j := range pop[i] {
			pop[i][j] = uint16(rng.Uint32())
		}
	}
	return pop
}

// crossover is one-point crossover at point: c1 takes a's genes before it
// and b's after, c2 the other way round.
func crossover(a, b, c1, c2 []uint16, point int) {
	point = min(point, len(a))
	copy(c1, a[:point])
	copy(c1[point:], b[point:])
	copy(c2, b[:point])
	copy(c2[point:], a[point:])
}

// wheel is roulette-wheel selection: an index drawn with probability
// proportional to its weight.
type wheel struct {
	cum []float64
}

// build sets the weights, all positive.
func (w *wheel) build(weights []float64) {
	w.cum = w.cum[:0]
	total := 0.0
	for _, x := range weights {
		total += x
		w.cum = append(w.cum, total)
	}
}

// spin draws an index.
func (w *wheel) spin(rng *rand.Rand) int {
	x := rng.Float64() * w.cum[len(w.cum)-1]
	i, _ := slices.BinarySearch(w.cum, x)
	return min(i, len(w.cum)-1)
}
