package othello

// ratings are the strategies' calibrated ratings in Othello (strategy name
// → Elo): the figures of one round robin of every strategy that plays it,
// the arena's Bradley–Terry fit with the mean strategy at 1500, where a
// new player starts (games.AI.Ratings). The bot rates players against
// these fixed figures; a game never moves them. Measured on 2026-11-29 at
// commit 676227e, with the pattern evaluation every strategy searches with,
// minimax's opening book and endgame solver, at 20 ms a move, 10 games a
// pairing, colours paired, 550 games, no forfeit, load 1.4–2.7 on 2 cores
// (4 min 9 s):
//
//	nice -n 10 gambit arena --game othello --players minimax,mcts,beam,annealing,hill-steepest,hill-sideways,hill-stochastic,genetic,genetic-roulette,greedy,random --games 10 --time 20ms --seed 1 --concurrency 2
var ratings = map[string]float64{
	"minimax": 2090, "hill-steepest": 1685, "annealing": 1676, "hill-sideways": 1676, "beam": 1623,
	"hill-stochastic": 1623, "genetic": 1570, "mcts": 1352, "genetic-roulette": 1183, "greedy": 1057,
	"random": 966,
}
