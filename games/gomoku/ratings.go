package gomoku

// ratings are the strategies' calibrated ratings in Gomoku (strategy name
// → Elo): the figures of one round robin of every strategy that plays it,
// the arena's Bradley–Terry fit with the mean strategy at 1500, where a
// new player starts (games.AI.Ratings). The bot rates players against
// these fixed figures; a game never moves them. Measured on 2026-11-29 at
// commit f063c04, with minimax on Gomoku's own engine (strategies/gomsearch),
// at 20 ms a move, 10 games a pairing, colours paired, 550 games, no
// forfeit, load 2 on 2 cores (1 min 37 s):
//
//	nice -n 10 gambit arena --game gomoku --players minimax,mcts,beam,annealing,hill-steepest,hill-sideways,hill-stochastic,genetic,genetic-roulette,greedy,random --games 10 --time 20ms --seed 1 --concurrency 2
var ratings = map[string]float64{
	"minimax": 1971, "hill-steepest": 1717, "hill-stochastic": 1699, "annealing": 1682, "beam": 1673,
	"hill-sideways": 1664, "greedy": 1656, "genetic": 1269, "genetic-roulette": 1269, "mcts": 1051,
	"random": 850,
}
