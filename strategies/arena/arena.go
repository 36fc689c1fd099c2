// Package arena plays games between strategies and rates them.
//
// A tournament is a round robin (every player meets every other) or a
// gauntlet (one player meets each of the others), played over one or more
// Adjacency rounds settings. Every pairing plays every setup of the game
// evenly:
//
//   - colour is the side a player plays, X or O. Each player of a pairing
//     plays both.
//   - the first mover is the side that makes the first move. Every game
//     but Adjacency (Connect Four, Tic-Tac-Toe, Othello, Gomoku) always
//     starts with X, so the two colours already give each player both
//     first and second move. Adjacency lets either side
//     start, so a pairing also plays both first movers: four setups (A as X
//     or O, times X or O to move first).
//
// Games come in pairs: the same setup played twice, the same side moving
// first and the same seed, the two players exchanging sides. A player
// wins a pair when it scores more over its two games (a win 1, a draw ½).
// On equal scores the final margins decide, as in duplicate bridge: the
// player whose margins over the two games add up to more than zero did
// better than its opponent with the same side of the same setup and wins
// the pair; equal margins (or a forfeit) draw it. Where moving first or
// second decides much (in Adjacency the second mover wins with best play
// at 5–7 rounds, and between strong players at 28), a player who only
// wins with the favoured side wins nothing over a pair, while the game
// score gives it half; and two players who both win every game with the
// favoured side are told apart by how much they win and lose by. Pairs
// measure what a player makes of each side.
//
// A game's moves are each one Strategy.Search with Threads 1, bounded by a
// context deadline (Config.MoveTime) or by a node limit (Config.Nodes)
// without deadline: then searches are reproducible and so is the whole run,
// since every game's seed derives from Config.Seed and the game's place in
// the schedule, whatever the concurrency. A strategy that returns an error,
// an illegal move or panics loses the game by forfeit, and the record says
// why.
//
// Results are tallied as wins, losses and draws of games and of pairs per
// pairing and rounds setting, and rated by Ratings (see there for the
// method) twice: over games and over pairs.
package arena

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/strategies"
)

// Player is a contestant: a strategy under a unique name.
type Player struct {
	// Name identifies the player in the schedule and the results.
	Name string
	// Strategy chooses the player's moves.
	Strategy strategies.Strategy
}

// Config describes a tournament. Run checks it with Validate.
type Config struct {
	// Game is the game played.
	Game *games.Game
	// Players are the contestants, at least two, with distinct names.
	Players []Player
	// Gauntlet, if not empty, names the player who meets each of the
	// others; the others do not meet each other. Empty: round robin.
	Gauntlet string
	// Games is the least number of games per pairing and rounds setting;
	// it is rounded up to a multiple of the setups (see the package
	// documentation) so that every setup is played equally often.
	Games int
	// Rounds lists the Adjacency rounds settings (each 2–28); empty means
	// the full board. Games without rounds: it must be empty.
	Rounds []int
	// MoveTime is the deadline of each move's search; 0 means none, and
	// then Nodes must be set.
	MoveTime time.Duration
	// Nodes caps each move's search (Limits.Nodes); 0 means no cap.
	Nodes uint64
	// HashMiB is each search's transposition-table memory; 0 means
	// strategies.DefaultHashMiB.
	HashMiB int
	// Seed derives every game's and move's seed; 0 picks a random seed,
	// reported in Report.Seed so that the run can be replayed.
	Seed uint64
	// Concurrency is the number of games played at once; 0 means 1.
	Concurrency int
	// Progress, if not nil, is called after each finished game with the
	// number of games finished and the total, from Run's goroutine.
	Progress func(done, total int)
}

// Validate reports the first problem of the configuration, if any.
func (cfg *Config) Validate() error {
	if cfg.Game == nil {
		return errors.New("arena: no game")
	}
	if len(cfg.Players) < 2 {
		return fmt.Errorf("arena: %d player(s): a tournament needs at least two", len(cfg.Players))
	}
	seen := make(map[string]bool, len(cfg.Players))
	for _, p := range cfg.Players {
		switch {
		case p.Name == "":
			return errors.New("arena: a player has no name")
		case p.Strategy == nil:
			return fmt.Errorf("arena: player %s has no strategy", p.Name)
		case seen[p.Name]:
			return fmt.Errorf("arena: player %s is named twice", p.Name)
		}
		seen[p.Name] = true
	}
	if cfg.Gauntlet != "" && !seen[cfg.Gauntlet] {
		return fmt.Errorf("arena: the gauntlet player %s is not among the players", cfg.Gauntlet)
	}
	if cfg.Games < 1 {
		return fmt.Errorf("arena: %d games per pairing: want at least 1", cfg.Games)
	}
	rounds := cfg.Game.Setup.Rounds
	if len(cfg.Rounds) > 0 && rounds == nil {
		return fmt.Errorf("arena: %s has no rounds: rounds settings apply to a game with rounds only", cfg.Game.Name)
	}
	for _, r := range cfg.Rounds {
		if r < rounds.Min || r > rounds.Max {
			return fmt.Errorf("arena: %d rounds: want %d–%d", r, rounds.Min, rounds.Max)
		}
	}
	switch {
	case cfg.MoveTime < 0:
		return fmt.Errorf("arena: move time %v: want a positive duration", cfg.MoveTime)
	case cfg.MoveTime == 0 && cfg.Nodes == 0:
		return errors.New("arena: no move limit: set a move time or a node limit")
	case cfg.HashMiB < 0:
		return fmt.Errorf("arena: %d MiB of hash: want 0 (the default) or more", cfg.HashMiB)
	case cfg.Concurrency < 0:
		return fmt.Errorf("arena: concurrency %d: want 1 or more", cfg.Concurrency)
	}
	return nil
}

// GameRecord is one game of a tournament: its setup, and once played its
// outcome and moves.
type GameRecord struct {
	// Rounds is the Adjacency rounds setting; 0 for other games.
	Rounds int
	// X and O name the players of each colour.
	X, O string
	// First is the side that moves first (always X but in Adjacency).
	First engine.Side
	// Pair numbers the game's pair, from 0 in schedule order: the two
	// games of a pair are the same setup and seed with the players'
	// sides exchanged.
	Pair int
	// Seed seeds the game's searches: each move's Limits.Seed derives
	// from it and the ply. The two games of a pair share it.
	Seed uint64
	// Result is the outcome for X.
	Result engine.Result
	// Score is X's score at the end in the game's unit (see
	// engine.Position.Score).
	Score int
	// Forfeit, if not empty, says which player lost by forfeit and why:
	// an error, an illegal move or a panic.
	Forfeit string
	// Moves are the moves played, in the game's notation.
	Moves []string
}

// MarshalJSON writes the record with sides as "x"/"o" and the result as
// "1-0" (X won), "0-1" (O won) or "1/2-1/2".
func (g GameRecord) MarshalJSON() ([]byte, error) {
	result := map[engine.Result]string{engine.Win: "1-0", engine.Loss: "0-1", engine.Draw: "1/2-1/2"}[g.Result]
	return json.Marshal(struct {
		Rounds  int      `json:"rounds,omitempty"`
		X       string   `json:"x"`
		O       string   `json:"o"`
		First   string   `json:"first"`
		Pair    int      `json:"pair"`
		Seed    uint64   `json:"seed"`
		Result  string   `json:"result"`
		Score   int      `json:"score"`
		Forfeit string   `json:"forfeit,omitempty"`
		Moves   []string `json:"moves"`
	}{g.Rounds, g.X, g.O, g.First.String(), g.Pair, g.Seed, result, g.Score, g.Forfeit, g.Moves})
}

// resultFor returns the game's result for the player named name, who
// played one of its sides.
func (g GameRecord) resultFor(name string) engine.Result {
	switch {
	case name == g.X:
		return g.Result
	case g.Result == engine.Win:
		return engine.Loss
	case g.Result == engine.Loss:
		return engine.Win
	}
	return g.Result
}

// scoreFor returns the named player's score at the end of the game: its
// marks (or the game's unit) minus its opponent's; for a forfeited game,
// when it stopped.
func (g GameRecord) scoreFor(name string) int {
	if name == g.X {
		return g.Score
	}
	return -g.Score
}

// starter returns the name of the player who moved first.
func (g GameRecord) starter() string {
	if g.First == engine.X {
		return g.X
	}
	return g.O
}

// Report is the outcome of a tournament.
type Report struct {
	// Game is the game's name.
	Game string `json:"game"`
	// Players are the players' names in the order given.
	Players []string `json:"players"`
	// Gauntlet names the gauntlet player; empty for a round robin.
	Gauntlet string `json:"gauntlet,omitempty"`
	// Rounds are the Adjacency rounds settings; empty for other games.
	Rounds []int `json:"rounds,omitempty"`
	// GamesPerPairing is the games each pairing played per rounds setting.
	GamesPerPairing int `json:"games_per_pairing"`
	// MoveTime and Nodes are the move limits (0: none).
	MoveTime time.Duration `json:"time_ns"`
	// Nodes is the node limit of each search (0: none).
	Nodes uint64 `json:"nodes"`
	// Seed is the seed the run used: passing it again replays a
	// node-limited run exactly.
	Seed uint64 `json:"seed"`
	// Tallies are the results per pairing and rounds setting, in schedule
	// order.
	Tallies []Tally `json:"results"`
	// Ratings has one table per rounds setting and, with several
	// settings, one over all games.
	Ratings []RatingTable `json:"ratings"`
	// Games are every game played, in schedule order.
	Games []GameRecord `json:"games"`
}

// RatingTable rates the players over the games of some rounds settings,
// and over their pairs.
type RatingTable struct {
	// Rounds are the rounds settings whose games are rated; empty for
	// games without rounds.
	Rounds []int `json:"rounds,omitempty"`
	// Ratings are the players from the highest rated down, over games.
	Ratings []Rating `json:"elo"`
	// PairRatings rate the same players over pairs, a pair won counting
	// as a game won (Rating.Games and Points count pairs).
	PairRatings []Rating `json:"pair_elo"`
}

// settings returns the rounds settings played: {0} for a game without
// rounds.
func (cfg *Config) settings() []int {
	switch {
	case cfg.Game.Setup.Rounds == nil:
		return []int{0}
	case len(cfg.Rounds) == 0:
		return []int{cfg.Game.Setup.Rounds.Max} // the full board
	}
	return cfg.Rounds
}

// setups returns the number of distinct setups of a pairing: the two
// colours, times the two first movers in a game that lets either side
// start.
func (cfg *Config) setups() int {
	if cfg.Game.Setup.ChooseFirst {
		return 4
	}
	return 2
}

// GamesPerPairing returns Games rounded up to a multiple of the setups.
func (cfg *Config) GamesPerPairing() int {
	n := cfg.setups()
	return (cfg.Games + n - 1) / n * n
}

// pairings returns the pairs of players who meet, as indices into Players.
func (cfg *Config) pairings() [][2]int {
	var out [][2]int
	for i, a := range cfg.Players {
		for j := i + 1; j < len(cfg.Players); j++ {
			switch cfg.Gauntlet {
			case "":
				out = append(out, [2]int{i, j})
			case a.Name:
				out = append(out, [2]int{i, j})
			case cfg.Players[j].Name:
				out = append(out, [2]int{j, i})
			}
		}
	}
	return out
}

// Schedule returns the games of the tournament, unplayed, in the order
// Run reports them: by rounds setting, then pairing, then game; game k of
// a pairing (A, B) has A as X when k is even, and, in Adjacency, X to
// move first when k mod 4 < 2. Games k and k+1, k even, make a pair:
// the same side moves first and they share a seed, derived from seed.
func (cfg *Config) Schedule(seed uint64) []GameRecord {
	var out []GameRecord
	for _, rounds := range cfg.settings() {
		for _, pair := range cfg.pairings() {
			a, b := cfg.Players[pair[0]].Name, cfg.Players[pair[1]].Name
			for k := range cfg.GamesPerPairing() {
				pair := len(out) / 2 // every pairing plays an even number of games
				g := GameRecord{Rounds: rounds, X: a, O: b, First: engine.X, Pair: pair, Seed: mix(seed, uint64(pair))}
				if k%2 == 1 {
					g.X, g.O = b, a
				}
				if k%4 >= 2 && cfg.Game.Setup.ChooseFirst {
					g.First = engine.O
				}
				out = append(out, g)
			}
		}
	}
	return out
}

// Run plays the tournament and rates the players. It fails on an invalid
// configuration or when ctx ends first.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	seed := cfg.Seed
	for seed == 0 {
		seed = rand.Uint64()
	}
	played := cfg.Schedule(seed)
	strategyOf := make(map[string]strategies.Strategy, len(cfg.Players))
	for _, p := range cfg.Players {
		strategyOf[p.Name] = p.Strategy
	}

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan int)
	finished := make(chan error)
	var wg sync.WaitGroup
	for range min(max(cfg.Concurrency, 1), len(played)) {
		wg.Go(func() {
			for i := range next {
				finished <- cfg.play(runCtx, &played[i], strategyOf)
			}
		})
	}
	go func() {
		defer close(next)
		for i := range played {
			select {
			case next <- i:
			case <-runCtx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(finished)
	}()
	var firstErr error
	done := 0
	for err := range finished {
		switch {
		case err != nil && firstErr == nil:
			firstErr = err
			cancel()
		case err == nil:
			done++
			if cfg.Progress != nil {
				cfg.Progress(done, len(played))
			}
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if done < len(played) { // the games were never handed out
		return nil, fmt.Errorf("arena: stopped after %d of %d games: %w", done, len(played), ctx.Err())
	}
	return cfg.report(seed, played)
}

// PlayGame plays one game g, set up as Schedule sets a game (the players
// g.X and g.O, named among cfg.Players, g.First, g.Rounds and g.Seed), to
// its end exactly as Run plays each game of its schedule: each move one
// search on one thread under cfg's limits, a strategy's error, illegal
// move or panic forfeiting the game (g.Forfeit says why). It is for
// callers that make their own schedule, such as a tournament's rounds.
// It fails on an invalid configuration, a player not in cfg.Players, or
// when ctx ends.
func (cfg *Config) PlayGame(ctx context.Context, g *GameRecord) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	strategyOf := make(map[string]strategies.Strategy, len(cfg.Players))
	for _, p := range cfg.Players {
		strategyOf[p.Name] = p.Strategy
	}
	for _, name := range []string{g.X, g.O} {
		if strategyOf[name] == nil {
			return fmt.Errorf("arena: player %s is not among the players", name)
		}
	}
	return cfg.play(ctx, g, strategyOf)
}

// play plays game g to its end. It fails only when ctx ends.
func (cfg *Config) play(ctx context.Context, g *GameRecord, strategyOf map[string]strategies.Strategy) error {
	opts := games.Options{}
	if cfg.Game.Setup.Any() {
		opts = games.Options{Rounds: g.Rounds, First: g.First}
	}
	pos, err := cfg.Game.Start(opts)
	if err != nil { // Validate checked the rounds
		return fmt.Errorf("arena: %w", err)
	}
	names := [2]string{engine.X: g.X, engine.O: g.O}
	for ply := uint64(1); !pos.Terminal(); ply++ {
		side := pos.SideToMove()
		limits := strategies.Limits{Nodes: cfg.Nodes, HashMiB: cfg.HashMiB, Threads: 1, Seed: max(mix(g.Seed, ply), 1)}
		moveCtx, cancelMove := context.WithCancel(ctx)
		if cfg.MoveTime > 0 {
			moveCtx, cancelMove = context.WithTimeout(ctx, cfg.MoveTime)
		}
		res, err := search(moveCtx, strategyOf[names[side]], pos.Clone(), limits)
		cancelMove()
		if ctx.Err() != nil {
			return fmt.Errorf("arena: game %s–%s interrupted: %w", g.X, g.O, ctx.Err())
		}
		if err == nil && !pos.Legal(res.Move) {
			err = fmt.Errorf("illegal move %d after %d moves", res.Move, len(g.Moves))
		}
		if err != nil {
			g.Forfeit = fmt.Sprintf("%s (%s) forfeits: %v", side, names[side], err)
			g.Result = engine.Loss
			if side == engine.O {
				g.Result = engine.Win
			}
			g.Score = pos.Score(engine.X)
			return nil
		}
		g.Moves = append(g.Moves, pos.FormatMove(res.Move))
		pos.Play(res.Move)
	}
	g.Result = pos.Result(engine.X)
	g.Score = pos.Score(engine.X)
	return nil
}

// search asks s for a move, turning a panic into an error.
func search(ctx context.Context, s strategies.Strategy, pos engine.Position, limits strategies.Limits) (res strategies.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return s.Search(ctx, pos, limits)
}

// mix derives a seed from a seed and an index: splitmix64's finaliser.
func mix(seed, index uint64) uint64 {
	z := seed + (index+1)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
