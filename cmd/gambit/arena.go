package main

import (
	"context"
	"encoding/json"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/internal/terminal"
	"github.com/gambitbot/gambit/strategies/analysis"
	"github.com/gambitbot/gambit/strategies/arena"
)

const arenaUsage = `
Usage: gambit arena --game {duels} --players A,B,… [--gauntlet NAME]
                    [--external NAME=STRATEGY@PATH,…] [--games N] [--rounds 8,16,28] [--time DURATION] [--nodes N]
                    [--seed S] [--concurrency K] [--hash MiB] [--json]

Plays strategies against each other and rates them. Round robin: every pair
of --players meets; with --gauntlet NAME, that player meets each of the
others. Each pairing plays --games games per rounds setting, rounded up so
that every setup is played equally often: both colours (x, o) and, in
Adjacency, both first movers (x or o starts), four setups; Connect Four and
Tic-Tac-Toe always start with x, so the two colours cover both.

Each move is one search on one thread, for --time (default 100ms) or, with
--nodes, until about N positions without a deadline: then a run with the
same --seed replays exactly, whatever --concurrency. With both, the node
limit and a --time deadline as a safety net. A strategy's error or illegal
move loses it the game (listed under Forfeits). --seed 0 picks a seed and
prints it.

Games come in pairs: one setup played twice, the same side moving first and
the same seed, the two players exchanging sides. A player wins a pair when it
scores more over the two games, draws it on equal scores: in a game where the
first or second mover has the edge (Adjacency at few rounds), pairs show what
a player makes of each side, where the game score also counts the setups'.

Prints the results per pairing (wins, losses and draws of A against B), the
same split by who moved first with A's mean final margin each way (its score
at the end minus B's), the pairs won, lost and drawn, and Elo ratings
with 95% confidence intervals over games and over pairs (Bradley–Terry
maximum likelihood, draws as half wins, one virtual draw per pairing, mean
1500; intervals from the observed Fisher information), as Markdown, or with
--json one object.

--external adds players from other gambit binaries, such as an earlier
version built from git, to measure a change against: NAME=STRATEGY@PATH
plays STRATEGY of the binary PATH under the name NAME, running
'PATH analyze --json' on each position with the move's limits (one process
a move, whose start-up counts against a timed move; a node-limited external
player replays exactly if its strategy does without a seed).
Progress goes to stderr: a bar on a terminal, otherwise a line every 10%.

Examples:
  gambit arena --game tictactoe --players minimax,random --games 20
  gambit arena --game adjacency --players minimax,greedy,random --rounds 8,28 --nodes 20000 --seed 1
  gambit arena --game adjacency --players minimax,greedy,beam,mcts --gauntlet minimax --rounds 8 --games 200 --concurrency 2
  gambit arena --game adjacency --players minimax --external minimax-v1=minimax@/tmp/gambit-old --rounds 8,28 --nodes 50000
`

func runArena(args []string, sio stdio) error {
	fs := newFlagSet("arena", arenaUsage, sio.out)
	gameName := gameFlag(fs, duelNames())
	playerList := fs.String("players", "", "the strategies, comma-separated: at least two (required)")
	gauntlet := fs.String("gauntlet", "", "one of the players, who meets each of the others (default: round robin)")
	external := fs.String("external", "", "players from other gambit binaries, NAME=STRATEGY@PATH, comma-separated")
	gamesPer := fs.Int("games", 20, "games per pairing and rounds setting (rounded up to cover the setups)")
	roundList := fs.String("rounds", "", "Adjacency: the rounds settings, comma-separated, each 2–28 (default 28)")
	moveTime := fs.Duration("time", 100*time.Millisecond, "the time of each move")
	nodes := fs.Uint64("nodes", 0, "the node limit of each move, without deadline (reproducible)")
	seed := fs.Uint64("seed", 0, "the seed of the games (0: pick one)")
	concurrency := fs.Int("concurrency", 1, "games played at once")
	hash := fs.Int("hash", 16, "transposition-table memory of each search in MiB")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := fs.parse(args); err != nil {
		return err
	}
	cfg, err := arenaConfig(fs, *gameName, *playerList, *external, *roundList)
	if err != nil {
		return err
	}
	set := fs.set()
	cfg.Gauntlet, cfg.Games, cfg.Seed, cfg.Concurrency, cfg.HashMiB = *gauntlet, *gamesPer, *seed, *concurrency, *hash
	cfg.MoveTime, cfg.Nodes = *moveTime, *nodes
	if set["nodes"] && !set["time"] {
		cfg.MoveTime = 0 // no deadline: reproducible
	}
	switch {
	case *moveTime <= 0:
		return usagef("--time must be positive, such as 100ms or 2s")
	case set["nodes"] && *nodes == 0:
		return usagef("--nodes must be positive")
	}
	if err := checkBounds(bound{"games", *gamesPer, 1, maxGames, ""}, bound{"concurrency", *concurrency, 1, maxConcurrency, ""},
		bound{"hash", *hash, 1, maxHashMiB, "MiB"}); err != nil {
		return err
	}
	if *concurrency**hash > maxHashMiB {
		return usagef("--concurrency %d × --hash %d MiB: the games' tables would take %s MiB at once; at most %s", *concurrency, *hash, thousands(*concurrency**hash), thousands(maxHashMiB))
	}
	if err := cfg.Validate(); err != nil {
		return usageError{err}
	}
	cfg.Progress = terminal.Progress(sio.err, "arena", "games")

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	report, err := arena.Run(ctx, cfg)
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(sio.out).Encode(report)
	}
	return report.WriteMarkdown(sio.out)
}

// arenaConfig resolves the game, the players (strategies of this binary,
// then external ones) and the rounds settings; any problem is a usage
// error.
func arenaConfig(fs *flagSet, gameName, playerList, externalList, roundList string) (arena.Config, error) {
	if gameName == "" {
		return arena.Config{}, errNoGame()
	}
	game, err := catalog.Lookup(gameName)
	if err != nil {
		return arena.Config{}, usageError{err}
	}
	cfg := arena.Config{Game: game}
	for name := range strings.SplitSeq(playerList, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		info, err := lookupAI(name, game)
		if err != nil {
			return arena.Config{}, err
		}
		cfg.Players = append(cfg.Players, arena.Player{Name: info.Name, Strategy: info.Strategy})
	}
	externals, err := analysis.ParseExternal(game.Name, externalList)
	if err != nil {
		return arena.Config{}, usageError{err}
	}
	for _, x := range externals {
		cfg.Players = append(cfg.Players, arena.Player{Name: x.Name, Strategy: x.External})
	}
	if len(cfg.Players) < 2 {
		return arena.Config{}, usagef("--players and --external need at least two strategies between them, comma-separated (see gambit strategies --game %s)", game.Name)
	}
	if fs.set()["rounds"] {
		if !game.Setup.Any() {
			return arena.Config{}, roundsOnly()
		}
		for text := range strings.SplitSeq(roundList, ",") {
			r, err := strconv.Atoi(strings.TrimSpace(text))
			if err != nil {
				return arena.Config{}, usagef("--rounds %q: want numbers such as 8,16,28", roundList)
			}
			cfg.Rounds = append(cfg.Rounds, r)
		}
	}
	return cfg, nil
}
