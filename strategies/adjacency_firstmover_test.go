package strategies

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
)

var (
	firstMoverTime     = flag.Duration("firstmover.time", time.Second, "BenchmarkAdjacencyFirstMover: minimax's time a move")
	firstMoverNodes    = flag.Uint64("firstmover.nodes", 0, "BenchmarkAdjacencyFirstMover: minimax's node cap a move instead of the time (reproducible)")
	firstMoverOpenings = flag.Int("firstmover.openings", 4, "BenchmarkAdjacencyFirstMover: random openings per opponent and rounds")
	firstMoverRounds   = flag.String("firstmover.rounds", "28,8", "BenchmarkAdjacencyFirstMover: the rounds settings")
)

// firstMoverOpponent is a fixed-depth opponent of
// BenchmarkAdjacencyFirstMover.
type firstMoverOpponent struct {
	name     string
	strategy string
	depth    int // 0: the strategy's own depth, within the move time
}

// firstMoverOpponents: alpha-beta to a fixed depth of 4 to 8 plies with a
// sound evaluation (minimax limited by depth, with the learned and the
// hand-tuned evaluations), and the reports' own Adjacency bots. Depths 7
// and 8 come last, so that the openings the others drew stay theirs.
var firstMoverOpponents = []firstMoverOpponent{
	{"minimax depth 4", "minimax", 4},
	{"minimax depth 5", "minimax", 5},
	{"minimax depth 6", "minimax", 6},
	{"minimax-hand depth 4", "minimax-hand", 4},
	{"minimax-hand depth 6", "minimax-hand", 6},
	{"seed001-minimax", "seed001-minimax", 0},
	{"seed002-alphabeta", "seed002-alphabeta", 0},
	{"minimax depth 7", "minimax", 7},
	{"minimax depth 8", "minimax", 8},
}

// BenchmarkAdjacencyFirstMover: minimax moving first, at 28 and 8 rounds,
// against alpha-beta to a fixed depth (firstMoverOpponents), from random
// openings (the first move of each side at random, from a seeded
// generator, so that the games differ), minimax at -firstmover.time a
// move on one thread (or -firstmover.nodes), the opponents within the
// same time. Reports minimax's wins, draws and losses per rounds setting
// and its mean nodes a move, and logs each game with the value of minimax's
// first exact solve. Long: about a minute a 28-round game at 1 s.
//
//	nice -n 10 go test -run '^$' -bench AdjacencyFirstMover -benchtime 1x -timeout 2h ./strategies
func BenchmarkAdjacencyFirstMover(b *testing.B) {
	var rounds []int
	for _, f := range strings.Split(*firstMoverRounds, ",") {
		var r int
		if _, err := fmt.Sscan(f, &r); err != nil {
			b.Fatalf("-firstmover.rounds %q: %v", *firstMoverRounds, err)
		}
		rounds = append(rounds, r)
	}
	for _, r := range rounds {
		b.Run(fmt.Sprintf("rounds=%d", r), func(b *testing.B) {
			var wins, draws, losses int
			var nodes, turns uint64
			for b.Loop() {
				wins, draws, losses, nodes, turns = 0, 0, 0, 0, 0
				rng := rand.New(rand.NewPCG(30, uint64(r)))
				for _, opp := range firstMoverOpponents {
					for range *firstMoverOpenings {
						margin, n, t := playFirstMover(b, r, opp, rng.Uint64())
						nodes, turns = nodes+n, turns+t
						switch {
						case margin > 0:
							wins++
						case margin == 0:
							draws++
						default:
							losses++
						}
					}
				}
			}
			b.ReportMetric(float64(wins), "wins")
			b.ReportMetric(float64(draws), "draws")
			b.ReportMetric(float64(losses), "losses")
			b.ReportMetric(float64(nodes)/float64(max(turns, 1)), "nodes/move")
		})
	}
}

// playFirstMover plays one game of rounds rounds, minimax moving first
// against opp after one random move each (seeded by seed), and returns
// minimax's final margin, the nodes it searched and its turns.
func playFirstMover(b *testing.B, rounds int, opp firstMoverOpponent, seed uint64) (margin int, nodes, turns uint64) {
	b.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	p, err := adjacency.New(rounds, engine.X)
	if err != nil {
		b.Fatal(err)
	}
	me, err := LookupFor("minimax", "adjacency")
	if err != nil {
		b.Fatal(err)
	}
	them, err := LookupFor(opp.strategy, "adjacency")
	if err != nil {
		b.Fatal(err)
	}
	var moves []engine.Move
	solved := "never solved"
	for ply := 0; !p.Terminal(); ply++ {
		if ply < 2 {
			moves = p.Moves(moves)
			p.Play(moves[rng.IntN(len(moves))])
			continue
		}
		player, limits := me, Limits{Nodes: *firstMoverNodes, Threads: 1}
		timed := *firstMoverNodes == 0
		mine := p.SideToMove() == engine.X
		if !mine {
			player, limits, timed = them, Limits{Depth: opp.depth, Threads: 1, Seed: seed}, true
		}
		ctx, cancel := context.Background(), context.CancelFunc(func() {})
		if timed {
			ctx, cancel = context.WithTimeout(context.Background(), *firstMoverTime)
		}
		res, err := player.Strategy.Search(ctx, p, limits)
		cancel()
		if err != nil {
			b.Fatalf("%s on %v: %v", player.Name, p, err)
		}
		if mine {
			nodes, turns = nodes+res.Nodes, turns+1
			if res.Exact && solved == "never solved" {
				solved = fmt.Sprintf("solved %+d with %d plies left", res.Score, p.PliesLeft())
			}
		}
		p.Play(res.Move)
	}
	margin = p.Score(engine.X)
	b.Logf("%d rounds, %s, seed %d: minimax %+d (%s), %d nodes a move", rounds, opp.name, seed, margin, solved, nodes/max(turns, 1))
	return margin, nodes, turns
}
