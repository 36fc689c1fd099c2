package othello

// ratings are the strategies' calibrated ratings in Othello (strategy name
// → Elo): the figures of one round robin of every strategy that plays it,
// the arena's Bradley–Terry fit with the mean strategy at 1500, where a
// new player starts (games.AI.Ratings). The bot rates players against
// these fixed figures; a game never moves them. Measured on 2026-11-27,
// after greedy and MCTS took up the flip count as their gain (games.AI.Gain),
// at 20 ms a move, 10 games a pairing, 550 games, no forfeit, load 15–18 on
// 2 cores shared with other work (9 minutes):
//
//	nice -n 10 gambit arena --game othello --players minimax,mcts,beam,annealing,hill-steepest,hill-sideways,hill-stochastic,genetic,genetic-roulette,greedy,random --games 10 --time 20ms --seed 1 --concurrency 2
var ratings = map[string]float64{
	"minimax": 2065, "genetic": 1671, "hill-sideways": 1636, "annealing": 1615, "beam": 1607,
	"hill-steepest": 1570, "hill-stochastic": 1566, "mcts": 1419, "genetic-roulette": 1236, "greedy": 1111,
	"random": 1002,
}
