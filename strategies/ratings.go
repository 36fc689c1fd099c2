package strategies

// ratings are the strategies' calibrated ratings per game: the Elo figures
// of one round robin of every strategy that plays the game, in `gambit
// arena` (strategies/README.md, "Calibrated ratings", gives the commands
// and the full tables). The arena's Bradley–Terry fit puts the mean
// strategy at 1500, where a new player starts. The bot rates players
// against these fixed figures (storage.AIRatings): a game never moves them.
var ratings = map[string]map[string]float64{
	// gambit arena --game adjacency --rounds 8 --players minimax,mcts,beam,seed001-minimax,seed002-alphabeta,annealing,hill-steepest,hill-sideways,hill-stochastic,genetic,genetic-roulette,greedy,random --games 8 --time 20ms --seed 1 --concurrency 2
	// That round robin's minimax had the hand-tuned evaluation, now
	// minimax-hand: minimax and minimax-learned (the learned evaluation)
	// get its rating plus the Elo difference of a 40-game match against it
	// at 8 rounds, 20 ms (strategies/README.md, "The learned evaluation").
	"adjacency": {
		"minimax": 1682, "minimax-learned": 1682, "minimax-hand": 1666, "annealing": 1644, "seed001-minimax": 1612, "hill-steepest": 1612, "mcts": 1605,
		"hill-sideways": 1573, "beam": 1553, "seed002-alphabeta": 1553, "hill-stochastic": 1549,
		"genetic": 1422, "genetic-roulette": 1358, "greedy": 1337, "random": 1017,
	},
	// gambit arena --game connect4 --players minimax,mcts,seed004-minimax,beam,annealing,hill-steepest,hill-sideways,hill-stochastic,genetic,genetic-roulette,greedy,random --games 10 --time 20ms --seed 1 --concurrency 2
	"connect4": {
		"minimax": 2044, "beam": 1709, "mcts": 1701, "seed004-minimax": 1689, "genetic": 1596,
		"hill-sideways": 1570, "hill-steepest": 1528, "hill-stochastic": 1505, "annealing": 1474,
		"genetic-roulette": 1150, "greedy": 1150, "random": 883,
	},
	// gambit arena --game tictactoe --players minimax,seed003-minimax,mcts,beam,annealing,hill-steepest,hill-sideways,hill-stochastic,genetic,genetic-roulette,greedy,random --games 10 --time 20ms --seed 1 --concurrency 2
	"tictactoe": {
		"hill-steepest": 1585, "hill-sideways": 1585, "mcts": 1582, "beam": 1576, "hill-stochastic": 1573,
		"minimax": 1570, "seed003-minimax": 1564, "genetic": 1564, "annealing": 1561, "greedy": 1505,
		"genetic-roulette": 1226, "random": 1107,
	},
}

// Rating returns strategy name's calibrated rating in game (an
// engine/games name); ok is false if none was measured.
func Rating(game, name string) (rating float64, ok bool) {
	rating, ok = ratings[game][name]
	return rating, ok
}
