package othello

// ratings are the strategies' calibrated ratings in Othello (strategy name
// → Elo): the figures of one round robin of every strategy that plays it,
// the arena's Bradley–Terry fit with the mean strategy at 1500, where a
// new player starts (games.AI.Ratings). The bot rates players against
// these fixed figures; a game never moves them. Measured at 20 ms a move,
// 10 games a pairing, 550 games, no forfeit, load 10–22 on 2 cores shared with other work:
//
//	nice -n 10 gambit arena --game othello --players minimax,mcts,beam,annealing,hill-steepest,hill-sideways,hill-stochastic,genetic,genetic-roulette,greedy,random --games 10 --time 20ms --seed 1 --concurrency 2
var ratings = map[string]float64{
	"minimax": 2046, "beam": 1664, "hill-sideways": 1643, "annealing": 1639, "hill-steepest": 1626,
	"genetic": 1602, "hill-stochastic": 1585, "mcts": 1464, "greedy": 1250, "genetic-roulette": 1097,
	"random": 884,
}
