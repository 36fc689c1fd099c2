package strategies

import (
	"context"
	"math"

	"github.com/gambitbot/gambit/engine"
)

// Variant selects the local search of HillClimbing.
type Variant int

// The variants of HillClimbing: report 000's four local searches.
const (
	// Steepest moves to the best neighbour while it is strictly better.
	Steepest Variant = iota
	// Sideways is Steepest that also accepts an equal best neighbour, up
	// to maxSideways times in a row.
	Sideways
	// Stochastic moves to a uniformly random strictly better neighbour.
	Stochastic
	// Annealing is simulated annealing: a random neighbour, accepted when
	// better and otherwise with probability e^(ΔE/T) as T cools.
	Annealing
)

// Parameters of the plan searches.
const (
	// planMoves is the number of own moves in a plan.
	planMoves = 3
	// maxSideways bounds the consecutive sideways moves of Sideways.
	maxSideways = 10
	// annealStart, annealCooling and annealStop give Annealing's schedule
	// T = annealStart·annealCooling^t in units of the game's score, until T
	// falls below annealStop, when it restarts hot from a random plan.
	annealStart   = 2.0
	annealCooling = 0.97
	annealStop    = 0.01
)

// HillClimbing is the local search of report 000 (section 1.3, "Algoritma
// Local Search": steepest-ascent, sideways-move and stochastic hill
// climbing and simulated annealing) as the textbook algorithms, over a
// state space the report never defined: its bot only ever looked one ply
// ahead (see Greedy).
//
// A state is a plan: the next planMoves (3) own moves, fewer near the end
// of the game or under Limits.Depth (a plan of k moves covers 2k plies).
// Its value is found by playing it out: each own move is answered by the
// opponent's one-ply best reply by the evaluation (the first in move
// order on ties), and the position reached is evaluated for us
// (Adjacency: adjacencyEval; Connect Four: the threat count; Tic-Tac-Toe:
// open lines; a finished game: its exact score). A plan move that is no
// longer legal after an earlier change is replaced by the legal move at
// its index modulo the number of legal moves, so every plan is legal. The
// neighbours of a plan change one of its moves to another legal move.
//
// The first climb starts from the greedy plan (each own move the one-ply
// best), later climbs from random plans, until the context's deadline or
// Limits.Nodes (evaluations); the move played is the first of the best
// plan seen. Result.Depth is that plan's length in plies, and PV its line.
type HillClimbing struct {
	// Variant is the search.
	Variant Variant
}

// Search implements Strategy.
func (h HillClimbing) Search(ctx context.Context, pos engine.Position, limits Limits) (Result, error) {
	r, err := newRun(ctx, pos, limits, "local search")
	if err != nil {
		return Result{}, err
	}
	c := &climber{run: r, variant: h.Variant, size: planMoves}
	if limits.Depth > 0 {
		c.size = min(c.size, max(1, (limits.Depth+1)/2))
	}
	c.size = min(c.size, (pos.PliesLeft()+1)/2)
	c.best.value = math.MinInt
	if len(r.legal()) == 1 || r.stopped {
		m, v := r.greedy()
		return r.result(m, v, 1, []engine.Move{m}), nil
	}
	c.climb()
	return r.result(c.best.moves[0], c.best.value, c.best.lineLen, append([]engine.Move(nil), c.best.line[:c.best.lineLen]...)), nil
}

// plan is a state of HillClimbing, with what its playout found.
type plan struct {
	moves [planMoves]engine.Move
	n     int // own moves in the plan
	used  int // own moves played before the game ended
	value int // for the root side, internal units
	// alts holds the legal moves at each own move of the playout: the
	// plan's neighbours.
	alts    [planMoves][engine.MaxMoves]engine.Move
	nalts   [planMoves]int
	line    [2 * planMoves]engine.Move
	lineLen int
}

// climber runs one HillClimbing search.
type climber struct {
	*run
	variant          Variant
	size             int // own moves per plan
	cur, cand, pick  plan
	best             plan
	sideways, cooled int
}

// climb restarts climbs until the search stops.
func (c *climber) climb() {
	for restart := 0; !c.stopped; restart++ {
		c.cur.n = c.size
		for i := range c.cur.moves {
			c.cur.moves[i] = engine.NoMove
		}
		c.playout(&c.cur, restart > 0)
		c.offer()
		c.sideways, c.cooled = 0, 0
		for !c.stopped && c.step() {
			c.offer()
		}
	}
}

// offer keeps the current plan if it is the best so far.
func (c *climber) offer() {
	if c.cur.value > c.best.value {
		c.best = c.cur
		c.report(c.best.moves[0], c.best.value, c.best.lineLen)
	}
}

// playout plays p out against the reply model, fills in its value, used
// moves, neighbours and line, and takes the moves back. A NoMove in the
// plan becomes a random legal move if random is set, else the one-ply
// best; another illegal move becomes the legal move at its index modulo
// the number of legal moves.
func (r *run) playout(p *plan, random bool) {
	p.used, p.lineLen = 0, 0
	for i := 0; i < p.n && !r.pos.Terminal(); i++ {
		moves := r.legal()
		p.nalts[i] = copy(p.alts[i][:], moves)
		switch m := p.moves[i]; {
		case r.pos.Legal(m):
		case m == engine.NoMove && random:
			p.moves[i] = moves[r.rng.IntN(len(moves))]
		case m == engine.NoMove:
			p.moves[i] = r.bestByEval()
		default:
			p.moves[i] = moves[int(m)%len(moves)]
		}
		r.play(p.moves[i])
		p.line[p.lineLen] = p.moves[i]
		p.lineLen++
		p.used++
		if r.pos.Terminal() {
			break
		}
		reply := r.bestByEval()
		r.play(reply)
		p.line[p.lineLen] = reply
		p.lineLen++
	}
	p.value = r.rootValue(r.eval())
	for range p.lineLen {
		r.undo()
	}
}

// step moves the current plan to a neighbour as the variant says and
// reports whether it did: false ends the climb.
func (c *climber) step() bool {
	switch c.variant {
	case Steepest:
		if !c.scan(false) || c.pick.value <= c.cur.value {
			return false
		}
	case Sideways:
		if !c.scan(false) || c.pick.value < c.cur.value {
			return false
		}
		if c.pick.value > c.cur.value {
			c.sideways = 0
		} else if c.sideways++; c.sideways > maxSideways {
			return false
		}
	case Stochastic:
		if !c.scan(true) {
			return false
		}
	case Annealing:
		temp := annealStart * math.Pow(annealCooling, float64(c.cooled)) * float64(c.sc.rules.unit())
		c.cooled++
		if temp < annealStop*float64(c.sc.rules.unit()) || !c.randomNeighbour() {
			return false
		}
		if !annealAccept(c.pick.value-c.cur.value, temp, c.rng.Float64()) {
			return true // stay, and cool on
		}
	}
	c.cur = c.pick
	return true
}

// annealAccept is simulated annealing's rule: a better or equal neighbour
// is always taken, a worse one (delta < 0) with probability e^(delta/temp),
// u being uniform in [0, 1).
func annealAccept(delta int, temp, u float64) bool {
	return delta >= 0 || u < math.Exp(float64(delta)/temp)
}

// scan plays out every neighbour of the current plan into c.pick: with
// uphill, a uniformly random strictly better one; otherwise a uniformly
// random one of the best. It reports whether it found one (false also
// when the search stops during the scan).
func (c *climber) scan(uphill bool) bool {
	cur := &c.cur
	count, bestV := 0, math.MinInt
	for i := range cur.used {
		for _, alt := range cur.alts[i][:cur.nalts[i]] {
			if alt == cur.moves[i] {
				continue
			}
			if c.stopped {
				return false
			}
			c.cand.moves, c.cand.n = cur.moves, cur.n
			c.cand.moves[i] = alt
			c.playout(&c.cand, false)
			v := c.cand.value
			switch {
			case uphill && v <= cur.value, !uphill && v < bestV:
				continue
			case !uphill && v > bestV:
				bestV, count = v, 0
			}
			count++
			if c.rng.IntN(count) == 0 {
				c.pick = c.cand
			}
		}
	}
	return count > 0
}

// randomNeighbour plays out a uniformly random neighbour of the current
// plan into c.pick; false if it has none.
func (c *climber) randomNeighbour() bool {
	cur := &c.cur
	total := 0
	for i := range cur.used {
		total += cur.nalts[i] - 1
	}
	if total == 0 {
		return false
	}
	k := c.rng.IntN(total)
	i := 0
	for k >= cur.nalts[i]-1 {
		k -= cur.nalts[i] - 1
		i++
	}
	alt := cur.alts[i][k]
	if alt == cur.moves[i] { // skip the plan's own move
		alt = cur.alts[i][cur.nalts[i]-1]
	}
	c.pick.moves, c.pick.n = cur.moves, cur.n
	c.pick.moves[i] = alt
	c.playout(&c.pick, false)
	return true
}
