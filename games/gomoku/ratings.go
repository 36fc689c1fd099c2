package gomoku

// ratings are the strategies' calibrated ratings in Gomoku (strategy name
// → Elo): the figures of one round robin of every strategy that plays it,
// the arena's Bradley–Terry fit with the mean strategy at 1500, where a
// new player starts (games.AI.Ratings). The bot rates players against
// these fixed figures; a game never moves them. Measured on 2026-11-27 at
// 20 ms a move, 4 games a pairing, 220 games, no forfeit, load 31–35 on 2
// cores shared with other work (3 minutes). At 20 ms minimax searches
// the 225 points of the board one or two plies deep, and the local
// searches' three-move plans against greedy replies do better:
//
//	nice -n 10 gambit arena --game gomoku --players minimax,mcts,beam,annealing,hill-steepest,hill-sideways,hill-stochastic,genetic,genetic-roulette,greedy,random --games 4 --time 20ms --seed 1 --concurrency 2
var ratings = map[string]float64{
	"hill-stochastic": 1698, "beam": 1664, "hill-steepest": 1647, "hill-sideways": 1647, "greedy": 1647,
	"annealing": 1630, "minimax": 1598, "genetic-roulette": 1375, "genetic": 1295, "mcts": 1150,
	"random": 1150,
}
