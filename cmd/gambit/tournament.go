package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies"
	"github.com/gambitbot/gambit/strategies/arena"
	"github.com/gambitbot/gambit/tournament"
	"github.com/gambitbot/gambit/tournament/league"
)

const tournamentUsage = `
Usage: gambit tournament --game {duels}
                         --format swiss|roundrobin|arena --players A,B,…
                         [--rounds N] [--double] [--duration D]
                         [--movetime DURATION] [--nodes N] [--seed S]
                         [--threads K] [--hash MiB] [--trf FILE]
                         [--game-rounds N]
       gambit tournament pair FILE
       gambit tournament export ID [--db PATH | --url URL] [--out FILE]

Runs a whole tournament of strategies offline: each round's games are played
(the games of a round at once, up to --threads), each round's pairings and
results printed as the round ends, then the final standings.

--players lists the strategies (as gambit strategies lists them), each once
or under a label of its own: LABEL=STRATEGY enters STRATEGY again as LABEL.
Players are numbered by their calibrated rating for the game (the rating
column), highest first, in the order given on equal ratings. The first
mover (x) is White. Adjacency's games have --game-rounds rounds (default 28,
the full board).

Formats:
  swiss       --rounds N rounds (default 5, fewer if the players are too
              few) paired by the FIDE Dutch system, as bbpPairings pairs
              them; an odd player out has the bye, worth a win. Standings
              by points, then Buchholz Cut 1 (BH-C1), Sonneborn-Berger (SB)
              and direct encounter (DE).
  roundrobin  every player meets every other (3–12 players) by FIDE's Berger
              tables, twice with --double (colours reversed); with an odd
              number of players, each sits one round out without points.
              Standings as a Swiss's, but that the round sat out counts
              for no tie-break.
  arena       Lichess's Arena for --duration (default 1m) of wall time on
              this machine: a player whose game ends is paired again at once
              with a waiting player close in the standings, not the last
              opponent; 2 points a win, 1 a draw, doubled after two wins
              running. Only games that end in time count. A strategy that
              moves faster plays more games, and a run does not replay.

Each move is one search on one thread, for --movetime (default 100ms), or
with --nodes until about N positions without a deadline: then a Swiss or a
round robin with the same --seed replays exactly, whatever --threads. A
strategy's error, illegal move or panic forfeits its game (+ and − in the
results, listed under the round). --seed 0 picks a seed and prints it.

--trf FILE writes a Swiss or a round robin as a FIDE tournament report file
(TRF-16 with TRF(x)'s XXR and XXC lines), which FIDE's tools and pairing
programs read. gambit tournament pair FILE reads such a file and prints the
next round's pairings by the Dutch system: the same check, the other way.
gambit tournament export ID writes a server's Swiss or round robin, as the
bot's database holds it, as such a file.

Results go to stdout as Markdown; progress (each round's pairings as it starts,
each game as it ends) to stderr.

Examples:
  gambit tournament --game tictactoe --format swiss \
    --players minimax,mcts,beam,greedy,random --rounds 3 --nodes 500 --seed 1
  gambit tournament --game connect4 --format roundrobin \
    --players minimax,mcts,greedy,random --double --movetime 50ms
  gambit tournament --game connect4 --format arena \
    --players minimax,mcts,beam,greedy,random --duration 30s
  gambit tournament pair tournament.trf
`

// The ranges of the tournament's own options (the shared ones are in
// bounds.go): more rounds or players than any real tournament has.
const (
	maxTournamentRounds  = 100
	maxTournamentPlayers = 1000
)

// entrant is a player of the tournament: a strategy under a label.
type entrant struct {
	label    string
	strategy string
	rating   int // the strategy's calibrated rating for the game, 0 if none
	play     strategies.Strategy
}

// tourney is a tournament being played.
type tourney struct {
	game    *games.Game
	players []entrant // by pairing number (index+1)
	cfg     arena.Config
	threads int
	seed    uint64
	// gameRounds is each game's rounds setting, for a game with rounds
	// (Adjacency); 0 for others.
	gameRounds int
	out        io.Writer
	err        io.Writer
	errMu      sync.Mutex
}

func runTournament(args []string, sio stdio) error {
	if len(args) > 0 && args[0] == "pair" {
		return runTournamentPair(args[1:], sio)
	}
	if len(args) > 0 && args[0] == "export" {
		return runTournamentExport(args[1:], sio)
	}
	fs := newFlagSet("tournament", tournamentUsage, sio.out)
	gameName := gameFlag(fs, duelNames())
	format := fs.String("format", "", "swiss, roundrobin or arena (required)")
	playerList := fs.String("players", "", "the strategies, comma-separated, each STRATEGY or LABEL=STRATEGY (required)")
	rounds := fs.Int("rounds", 5, "swiss: the number of rounds (fewer by default for a small field)")
	double := fs.Bool("double", false, "roundrobin: play every pairing twice, colours reversed")
	duration := fs.Duration("duration", time.Minute, "arena: how long it lasts, in wall time")
	moveTime := fs.Duration("movetime", 100*time.Millisecond, "the time of each move")
	nodes := fs.Uint64("nodes", 0, "the node limit of each move, without deadline (reproducible)")
	seed := fs.Uint64("seed", 0, "the seed of the games (0: pick one)")
	threads := fs.Int("threads", runtime.NumCPU(), "games played at once")
	hash := fs.Int("hash", 16, "transposition-table memory of each search in MiB")
	trfPath := fs.String("trf", "", "swiss, roundrobin: write the tournament to this TRF file")
	gameRounds := fs.Int("game-rounds", 0, "the rounds of each game, in a game with rounds (default: the full board)")
	if err := fs.parse(args); err != nil {
		return err
	}
	set := fs.set()
	if *gameName == "" {
		return errNoGame()
	}
	game, err := catalog.Lookup(*gameName)
	if err != nil {
		return usageError{err}
	}
	if err := needAI(game); err != nil {
		return err
	}
	players, err := tournamentPlayers(game, *playerList)
	if err != nil {
		return err
	}
	switch *format {
	case "swiss", "roundrobin", "arena":
	case "":
		return usagef("--format is required: swiss, roundrobin or arena")
	default:
		return usagef("--format %q: want swiss, roundrobin or arena", *format)
	}
	for _, only := range [][2]string{{"rounds", "swiss"}, {"double", "roundrobin"}, {"duration", "arena"}} {
		if set[only[0]] && *format != only[1] {
			return usagef("--%s applies to --format %s only", only[0], only[1])
		}
	}
	switch *format {
	case "swiss":
		if len(players) < 2 {
			return usagef("a Swiss needs at least two players")
		}
		// No one meets anyone twice, nor has two byes.
		most := len(players) - 1 + len(players)%2
		if !set["rounds"] {
			*rounds = min(*rounds, most)
		}
		if *rounds < 1 || *rounds > most {
			return usagef("--rounds %d: a Swiss of %d players has 1 to %d rounds", *rounds, len(players), most)
		}
	case "roundrobin":
		if len(players) < 3 || len(players) > 12 {
			return usagef("a round robin needs 3 to 12 players, not %d", len(players))
		}
	case "arena":
		if *duration <= 0 {
			return usagef("--duration must be positive, such as 30s or 5m")
		}
		if set["trf"] {
			return usagef("--trf writes a Swiss or a round robin: an Arena has no rounds")
		}
	}
	switch {
	case *moveTime <= 0:
		return usagef("--movetime must be positive, such as 100ms or 2s")
	case set["nodes"] && *nodes == 0:
		return usagef("--nodes must be positive")
	}
	if err := checkBounds(bound{"threads", *threads, 1, maxConcurrency, ""}, bound{"hash", *hash, 1, maxHashMiB, "MiB"},
		bound{"rounds", *rounds, 1, maxTournamentRounds, ""}); err != nil {
		return err
	}
	if *threads**hash > maxHashMiB {
		return usagef("--threads %d × --hash %d MiB: the games' tables would take %s MiB at once; at most %s", *threads, *hash, thousands(*threads**hash), thousands(maxHashMiB))
	}

	t := &tourney{game: game, players: players, threads: *threads, seed: *seed, out: sio.out, err: sio.err}
	if r := game.Setup.Rounds; r != nil {
		t.gameRounds = r.Max // the full board
		if set["game-rounds"] {
			t.gameRounds = *gameRounds
		}
		if t.gameRounds < r.Min || t.gameRounds > r.Max {
			return usagef("--game-rounds %d: %s has %d to %d rounds", *gameRounds, game.Name, r.Min, r.Max)
		}
	} else if set["game-rounds"] {
		return usagef("--game-rounds: %s has no rounds to set", game.Name)
	}
	for t.seed == 0 {
		t.seed = rand.Uint64()
	}
	t.cfg = arena.Config{Game: game, Games: 1, MoveTime: *moveTime, Nodes: *nodes, HashMiB: *hash}
	if set["nodes"] && !set["movetime"] {
		t.cfg.MoveTime = 0 // no deadline: reproducible
	}
	for _, p := range players {
		t.cfg.Players = append(t.cfg.Players, arena.Player{Name: p.label, Strategy: p.play})
	}
	if err := t.cfg.Validate(); err != nil {
		return usageError{err}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	t.header(*format, *rounds, *double, *duration)
	if *format == "arena" {
		return t.playArena(ctx, *duration)
	}
	s := &tournament.Swiss{Name: fmt.Sprintf("Gambit %s %s, seed %d", game.Name, *format, t.seed), FirstColor: tournament.White}
	for _, p := range players {
		s.Players = append(s.Players, tournament.Player{Name: p.label, Rating: p.rating})
	}
	if *format == "swiss" {
		s.Rounds = *rounds
		err = t.playSwiss(ctx, s)
	} else {
		err = t.playRoundRobin(ctx, s, *double)
	}
	if s.Played() > 0 {
		t.standings(s)
	}
	if *trfPath != "" && s.Played() > 0 {
		if werr := writeTRF(*trfPath, s); werr != nil {
			return errors.Join(err, werr)
		}
	}
	return err
}

// tournamentPlayers reads --players: STRATEGY or LABEL=STRATEGY entries,
// labels distinct and fitting a TRF line, ordered by the strategies'
// calibrated ratings for the game, highest first, stably.
func tournamentPlayers(game *games.Game, list string) ([]entrant, error) {
	var players []entrant
	seen := map[string]bool{}
	for entry := range strings.SplitSeq(list, ",") {
		if entry = strings.TrimSpace(entry); entry == "" {
			continue
		}
		label, name, labelled := strings.Cut(entry, "=")
		if !labelled {
			name = label
		}
		label, name = strings.TrimSpace(label), strings.TrimSpace(name)
		info, err := lookupAI(name, game)
		if err != nil {
			return nil, err
		}
		if !labelled {
			label = info.Name
		}
		switch {
		case label == "":
			return nil, usagef("--players %q: an empty label", entry)
		case len(label) > 33 || strings.ContainsAny(label, "|`"):
			return nil, usagef("--players: the label %q: at most 33 characters, without | or `", label)
		case seen[label]:
			return nil, usagef("--players: %s is entered twice: enter a strategy again under a label of its own, such as %s-2=%s", label, label, info.Name)
		}
		seen[label] = true
		rating := 0
		if r, ok := game.AI.Ratings[info.Name]; ok {
			rating = min(max(int(math.Round(r)), 0), 9999)
		}
		players = append(players, entrant{label: label, strategy: info.Name, rating: rating, play: info.Strategy})
	}
	if len(players) < 2 {
		return nil, usagef("--players needs at least two strategies, comma-separated (see gambit strategies --game %s)", game.Name)
	}
	if len(players) > maxTournamentPlayers {
		return nil, usagef("--players: %d players; at most %s", len(players), thousands(maxTournamentPlayers))
	}
	slices.SortStableFunc(players, func(a, b entrant) int { return b.rating - a.rating })
	return players, nil
}

// header prints the tournament's title, its settings and its players.
func (t *tourney) header(format string, rounds int, double bool, duration time.Duration) {
	what := map[string]string{"swiss": fmt.Sprintf("Swiss, %d rounds", rounds), "roundrobin": "round robin",
		"arena": fmt.Sprintf("Arena, %v", duration)}[format]
	if double {
		what = "double round robin"
	}
	limit := fmt.Sprintf("%v a move", t.cfg.MoveTime)
	if t.cfg.Nodes > 0 {
		limit = fmt.Sprintf("%d nodes a move", t.cfg.Nodes)
	}
	if t.gameRounds > 0 {
		limit = fmt.Sprintf("%d rounds a game, %s", t.gameRounds, limit)
	}
	fmt.Fprintf(t.out, "# Tournament: %s, %s\n\n%d players, %s, seed %d\n\n", t.game.Name, what, len(t.players), limit, t.seed)
	fmt.Fprintln(t.out, "| # | player | strategy | rating |\n|---:|---|---|---:|")
	for i, p := range t.players {
		fmt.Fprintf(t.out, "| %d | %s | %s | %s |\n", i+1, p.label, p.strategy, ratingText(p.rating))
	}
}

func ratingText(r int) string {
	if r == 0 {
		return "–"
	}
	return fmt.Sprint(r)
}

// playSwiss pairs and plays the Swiss's rounds.
func (t *tourney) playSwiss(ctx context.Context, s *tournament.Swiss) error {
	for round := 1; round <= s.Rounds; round++ {
		boards, err := tournament.PairDutch(s)
		if err != nil {
			return fmt.Errorf("round %d: %w", round, err)
		}
		if err := t.playRound(ctx, s, round, boards, tournament.PairingBye); err != nil {
			return err
		}
	}
	return nil
}

// playRoundRobin plays the rounds of the Berger tables.
func (t *tourney) playRoundRobin(ctx context.Context, s *tournament.Swiss, double bool) error {
	cycles := 1
	if double {
		cycles = 2
	}
	rounds, err := tournament.RoundRobin(len(s.Players), cycles)
	if err != nil {
		return usageError{err}
	}
	s.Rounds, s.RoundRobin = len(rounds), true // the free rounds count for no tie-break
	for r, boards := range rounds {
		// A round robin's free round scores nothing.
		if err := t.playRound(ctx, s, r+1, boards, tournament.ZeroBye); err != nil {
			return err
		}
	}
	return nil
}

// gameResults are the results of a game for White and for Black.
func gameResults(g arena.GameRecord) (white, black tournament.Result) {
	switch {
	case g.Forfeit != "" && g.Result == engine.Win:
		return tournament.ForfeitWin, tournament.ForfeitLoss
	case g.Forfeit != "":
		return tournament.ForfeitLoss, tournament.ForfeitWin
	case g.Result == engine.Win:
		return tournament.Win, tournament.Loss
	case g.Result == engine.Loss:
		return tournament.Loss, tournament.Win
	}
	return tournament.Draw, tournament.Draw
}

// playRound plays a round's boards at once (up to t.threads), records
// the results in s (a bye as bye), and prints the round.
func (t *tourney) playRound(ctx context.Context, s *tournament.Swiss, round int, boards []tournament.Pairing, bye tournament.Result) error {
	rng := rand.New(rand.NewPCG(t.seed, uint64(round)))
	records := make([]arena.GameRecord, len(boards))
	for i, b := range boards {
		records[i] = arena.GameRecord{Rounds: t.gameRounds, First: engine.X, Seed: rng.Uint64()}
		if !b.IsBye() {
			records[i].X, records[i].O = t.players[b.White-1].label, t.players[b.Black-1].label
		}
	}
	games := 0
	var pairings []string
	for _, b := range boards {
		if b.IsBye() {
			pairings = append(pairings, "bye "+t.players[b.White-1].label)
			continue
		}
		games++
		pairings = append(pairings, t.players[b.White-1].label+"–"+t.players[b.Black-1].label)
	}
	t.progress("round %d: %s\n", round, strings.Join(pairings, ", "))
	var (
		wg       sync.WaitGroup
		slots    = make(chan struct{}, t.threads)
		done     int
		firstErr error
		mu       sync.Mutex
	)
	for i, b := range boards {
		if b.IsBye() {
			continue
		}
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			err := t.cfg.PlayGame(ctx, &records[i])
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if firstErr == nil {
					firstErr = err
				}
				return
			}
			done++
			t.progress("round %d: %d/%d games (board %d: %s %s %s)\n", round, done, games, i+1, records[i].X, resultText(records[i]), records[i].O)
		})
	}
	wg.Wait()
	if firstErr != nil {
		return fmt.Errorf("round %d: %w", round, firstErr)
	}
	for i, b := range boards {
		if b.IsBye() {
			p := &s.Players[b.White-1]
			p.Results = append(p.Results, tournament.Entry{Result: bye})
			continue
		}
		white, black := gameResults(records[i])
		w, k := &s.Players[b.White-1], &s.Players[b.Black-1]
		w.Results = append(w.Results, tournament.Entry{Opponent: b.Black, Color: tournament.White, Result: white})
		k.Results = append(k.Results, tournament.Entry{Opponent: b.White, Color: tournament.Black, Result: black})
	}
	t.printRound(round, boards, records, bye)
	return nil
}

// progress writes a progress line on stderr.
func (t *tourney) progress(format string, args ...any) {
	t.errMu.Lock()
	defer t.errMu.Unlock()
	fmt.Fprintf(t.err, format, args...)
}

// resultText is a game's result as White's score – Black's: 1–0, ½–½,
// 0–1, or +–− and −–+ for a forfeit.
func resultText(g arena.GameRecord) string {
	white, _ := gameResults(g)
	return map[tournament.Result]string{tournament.Win: "1–0", tournament.Draw: "½–½", tournament.Loss: "0–1",
		tournament.ForfeitWin: "+–−", tournament.ForfeitLoss: "−–+"}[white]
}

// printRound prints a round's boards and results, then its forfeits.
func (t *tourney) printRound(round int, boards []tournament.Pairing, records []arena.GameRecord, bye tournament.Result) {
	fmt.Fprintf(t.out, "\n## Round %d\n\n| board | white | black | result | moves |\n|---:|---|---|:---:|---:|\n", round)
	var forfeits []string
	for i, b := range boards {
		white := fmt.Sprintf("%s (%d)", t.players[b.White-1].label, b.White)
		if b.IsBye() {
			fmt.Fprintf(t.out, "| %d | %s | bye | %s | |\n", i+1, white, map[bool]string{true: "1", false: "0"}[bye.HalfPoints() > 0])
			continue
		}
		g := records[i]
		fmt.Fprintf(t.out, "| %d | %s | %s (%d) | %s | %d |\n", i+1, white, t.players[b.Black-1].label, b.Black, resultText(g), len(g.Moves))
		if g.Forfeit != "" {
			forfeits = append(forfeits, fmt.Sprintf("board %d: %s", i+1, g.Forfeit))
		}
	}
	if len(forfeits) > 0 {
		fmt.Fprintf(t.out, "\nForfeits: %s.\n", strings.Join(forfeits, "; "))
	}
}

// points writes half-points as points: 3, 2.5.
func points(half int) string {
	if half%2 == 0 {
		return fmt.Sprint(half / 2)
	}
	return fmt.Sprintf("%d.5", half/2)
}

// standings prints the table after the rounds played.
func (t *tourney) standings(s *tournament.Swiss) {
	fmt.Fprintf(t.out, "\n## Standings after round %d\n\n", s.Played())
	fmt.Fprintln(t.out, "| rank | # | player | points | won–drawn–lost | BH-C1 | SB | DE |\n|---:|---:|---|---:|---|---:|---:|---:|")
	for _, st := range tournament.Standings(s) {
		var w, d, l int
		for _, e := range s.Players[st.Player-1].Results {
			switch e.Result {
			case tournament.Win, tournament.ForfeitWin:
				w++
			case tournament.Draw:
				d++
			case tournament.Loss, tournament.ForfeitLoss:
				l++
			}
		}
		fmt.Fprintf(t.out, "| %d | %d | %s | %s | %d–%d–%d | %s | %.2f | %s |\n", st.Rank, st.Player, t.players[st.Player-1].label,
			points(st.HalfPoints), w, d, l, points(st.BuchholzCut1), float64(st.SonnebornBerger)/4, points(st.Direct))
	}
}

// writeTRF writes the tournament to path as a TRF.
func writeTRF(path string, s *tournament.Swiss) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write the TRF: %w", err)
	}
	if err := tournament.EncodeTRF(f, s); err != nil {
		f.Close()
		return fmt.Errorf("write the TRF %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write the TRF %s: %w", path, err)
	}
	return nil
}

// arenaEntrant is an Arena player's games so far, in the order they
// ended.
type arenaEntrant struct {
	games        []tournament.ArenaGame
	won, drawn   int
	lastOpponent int
	colorRun     int // +k: White k games running; −k: Black
}

// arenaGame is a game of the Arena that ended, or was stopped (err).
type arenaGame struct {
	white, black int
	record       arena.GameRecord
	err          error
}

// playArena runs Lichess's Arena for duration of wall time: whenever
// players are waiting and a thread is free, the waiting players are
// paired by tournament.PairArena and their games start; a game counts if
// it ends before the time is up, and the games still being played then
// are stopped.
func (t *tourney) playArena(ctx context.Context, duration time.Duration) error {
	playCtx, cancel := context.WithTimeout(ctx, duration)
	defer cancel()
	n := len(t.players)
	players := make([]arenaEntrant, n+1) // by ID, from 1
	var waiting []int
	since := make([]int, n+1) // when each waiting player began to wait, in games ended
	for id := 1; id <= n; id++ {
		waiting = append(waiting, id)
	}
	rules := tournament.ArenaRules{} // no quick-draw thresholds: chess's do not fit these games
	ended := make(chan arenaGame)
	rng := rand.New(rand.NewPCG(t.seed, 0))
	running, started, counted := 0, 0, 0
	var forfeits []string
	fmt.Fprintf(t.out, "\n## Games\n\n| game | white | black | result | moves |\n|---:|---|---|:---:|---:|\n")
	for {
		if playCtx.Err() == nil && running < t.threads && len(waiting) >= 2 {
			var ws []tournament.ArenaPlayer
			for _, id := range waiting {
				p := players[id]
				ws = append(ws, tournament.ArenaPlayer{ID: id, Points: tournament.ArenaScore(p.games, rules).Total,
					Rating: t.players[id-1].rating, LastOpponent: p.lastOpponent, ColorRun: p.colorRun})
			}
			pairs := tournament.PairArena(ws, n)
			// With fewer threads than pairs, those who have waited
			// longest play first.
			slices.SortStableFunc(pairs, func(a, b tournament.Pairing) int {
				return min(since[a.White], since[a.Black]) - min(since[b.White], since[b.Black])
			})
			for _, pair := range pairs {
				if running == t.threads {
					break
				}
				waiting = slices.DeleteFunc(waiting, func(id int) bool { return id == pair.White || id == pair.Black })
				g := arenaGame{white: pair.White, black: pair.Black, record: arena.GameRecord{Rounds: t.gameRounds,
					X: t.players[pair.White-1].label, O: t.players[pair.Black-1].label, First: engine.X, Seed: rng.Uint64()}}
				running++
				started++
				go func() {
					g.err = t.cfg.PlayGame(playCtx, &g.record)
					ended <- g
				}()
			}
		}
		if running == 0 {
			<-playCtx.Done() // no one can be paired: wait for the end
			break
		}
		g := <-ended
		running--
		if g.err != nil || playCtx.Err() != nil {
			continue // stopped at the end, or ended after it: does not count
		}
		counted++
		white, black := gameResults(g.record)
		for _, side := range []struct {
			id, opponent int
			result       tournament.Result
			run          int
		}{{g.white, g.black, white, 1}, {g.black, g.white, black, -1}} {
			p := &players[side.id]
			r := side.result
			switch r {
			case tournament.ForfeitWin:
				r = tournament.Win
			case tournament.ForfeitLoss:
				r = tournament.Loss
			}
			p.games = append(p.games, tournament.ArenaGame{Result: r, Plies: len(g.record.Moves)})
			switch r {
			case tournament.Win:
				p.won++
			case tournament.Draw:
				p.drawn++
			}
			p.lastOpponent = side.opponent
			if p.colorRun*side.run > 0 {
				p.colorRun += side.run
			} else {
				p.colorRun = side.run
			}
			waiting = append(waiting, side.id)
			since[side.id] = counted
		}
		fmt.Fprintf(t.out, "| %d | %s (%d) | %s (%d) | %s | %d |\n", counted, g.record.X, g.white, g.record.O, g.black, resultText(g.record), len(g.record.Moves))
		if g.record.Forfeit != "" {
			forfeits = append(forfeits, fmt.Sprintf("game %d: %s", counted, g.record.Forfeit))
		}
		t.progress("arena: %d games ended (%s %s %s)\n", counted, g.record.X, resultText(g.record), g.record.O)
	}
	// Drain the games stopped at the end.
	for ; running > 0; running-- {
		<-ended
	}
	if len(forfeits) > 0 {
		fmt.Fprintf(t.out, "\nForfeits: %s.\n", strings.Join(forfeits, "; "))
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("arena interrupted: %w", err)
	}
	t.arenaStandings(players[1:], rules, started-counted)
	return nil
}

// arenaSheetGames is how many of a player's last games the Arena's table
// shows the points of.
const arenaSheetGames = 12

// arenaStandings prints the Arena's table: by points, players level on
// points sharing a rank.
func (t *tourney) arenaStandings(players []arenaEntrant, rules tournament.ArenaRules, stopped int) {
	type line struct {
		id    int
		sheet tournament.ArenaSheet
	}
	var lines []line
	for i, p := range players {
		lines = append(lines, line{i + 1, tournament.ArenaScore(p.games, rules)})
	}
	slices.SortStableFunc(lines, func(a, b line) int { return b.sheet.Total - a.sheet.Total })
	fmt.Fprintf(t.out, "\n## Standings\n\n%d games were still being played at the end and do not count.\n\n", stopped)
	fmt.Fprintln(t.out, "| rank | # | player | points | games | won–drawn–lost | points of the last games | on fire |\n|---:|---:|---|---:|---:|---|---|:---:|")
	rank := 0
	for i, l := range lines {
		if i == 0 || l.sheet.Total != lines[i-1].sheet.Total {
			rank = i + 1
		}
		p := players[l.id-1]
		var sheet []string
		for _, pts := range l.sheet.Points[max(len(l.sheet.Points)-arenaSheetGames, 0):] {
			sheet = append(sheet, fmt.Sprint(pts))
		}
		if len(l.sheet.Points) > arenaSheetGames {
			sheet = append([]string{"…"}, sheet...)
		}
		fire := ""
		if l.sheet.OnFire {
			fire = "yes"
		}
		fmt.Fprintf(t.out, "| %d | %d | %s | %d | %d | %d–%d–%d | %s | %s |\n", rank, l.id, t.players[l.id-1].label, l.sheet.Total,
			len(p.games), p.won, p.drawn, len(p.games)-p.won-p.drawn, strings.Join(sheet, " "), fire)
	}
}

const tournamentPairUsage = `
Usage: gambit tournament pair FILE

Reads a Swiss tournament from a FIDE tournament report file (TRF-16, with
TRF(x)'s XXR and XXC lines, as gambit tournament --trf, bbpPairings and
JaVaFo write them) and prints the next round's pairings by the FIDE Dutch
system, as bbpPairings pairs them. XXR gives the rounds planned (without it,
the rounds in the file); a file whose rounds are all paired is refused.
`

// runTournamentPair prints the next round's Dutch pairings of a TRF.
func runTournamentPair(args []string, sio stdio) error {
	fs := newFlagSet("tournament pair", tournamentPairUsage, sio.out)
	var files, flags []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") && a != "-" {
			flags = append(flags, a)
		} else {
			files = append(files, a)
		}
	}
	if err := fs.parse(flags); err != nil {
		return err
	}
	if len(files) != 1 {
		return usagef("tournament pair takes one TRF file, not %d", len(files))
	}
	f, err := os.Open(files[0])
	if err != nil {
		return fmt.Errorf("read the TRF: %w", err)
	}
	defer f.Close()
	s, err := tournament.DecodeTRF(f)
	if err != nil {
		return fmt.Errorf("%s: %w", files[0], err)
	}
	round := s.Played() + 1
	if round > s.Rounds {
		return fmt.Errorf("%s: all %d rounds planned are paired (its XXR line gives the rounds planned)", files[0], s.Rounds)
	}
	boards, err := tournament.PairDutch(s)
	if err != nil {
		return fmt.Errorf("%s: round %d: %w", files[0], round, err)
	}
	name := func(id int) string {
		if p := s.Players[id-1]; p.Name != "" {
			return fmt.Sprintf("%s (%d)", p.Name, id)
		}
		return fmt.Sprint(id)
	}
	fmt.Fprintf(sio.out, "# Round %d of %d, by the Dutch system\n\n| board | white | black |\n|---:|---|---|\n", round, s.Rounds)
	for i, b := range boards {
		black := "bye"
		if !b.IsBye() {
			black = name(b.Black)
		}
		fmt.Fprintf(sio.out, "| %d | %s | %s |\n", i+1, name(b.White), black)
	}
	return nil
}

const tournamentExportUsage = `
Usage: gambit tournament export ID [--db PATH | --url URL] [--out FILE]

Writes the bot's tournament ID, a Swiss or a round robin of a server, as a
FIDE tournament report file (TRF-16 with TRF(x)'s XXR line), to stdout or
--out FILE: its players in their seeding (the pairing numbers) and the
rounds done with their results, forfeits as + and -, withdrawn players
absent from the rounds after they left. An organiser checks the pairings
with FIDE's tools or a pairing program (bbpPairings --check), or reads the
next round's with gambit tournament pair FILE. An Arena has no rounds to
write. The database is the bot's, opened read-only: a bbolt file (PATH,
default GAMBIT_DB, then ./data/gambit.db; stop the bot first, or export
from a backup) or PostgreSQL (--url or GAMBIT_DATABASE_URL).
`

// runTournamentExport writes a stored tournament as a TRF.
func runTournamentExport(args []string, sio stdio) error {
	fs := newFlagSet("tournament export", tournamentExportUsage, sio.out)
	path := fs.String("db", envOr("GAMBIT_DB", defaultDB), "the bbolt database file (GAMBIT_DB)")
	url := fs.String("url", os.Getenv(envDatabaseURL), "a PostgreSQL database instead of the file ("+envDatabaseURL+")")
	out := fs.String("out", "", "write the TRF to this file instead of stdout")
	var id string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		id, args = args[0], args[1:]
	}
	if err := fs.parse(args); err != nil {
		return err
	}
	if id == "" {
		return usagef("tournament export takes the tournament's ID first: gambit tournament export ID [--db PATH]")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	s, err := openStore(ctx, *url, *path, inspecting, storeRole{})
	if err != nil {
		return err
	}
	defer s.Close()
	t, err := s.Tournament(ctx, storage.TournamentID(id))
	if errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("no tournament %s in %s", id, storeName(s))
	}
	if err != nil {
		return fmt.Errorf("load tournament %s: %w", id, err)
	}
	var trf strings.Builder
	if err := league.WriteTRF(&trf, t); err != nil {
		return fmt.Errorf("export tournament %s: %w", id, err)
	}
	if *out == "" {
		_, err := io.WriteString(sio.out, trf.String())
		return err
	}
	if err := os.WriteFile(*out, []byte(trf.String()), 0o644); err != nil {
		return fmt.Errorf("write the TRF: %w", err)
	}
	fmt.Fprintf(sio.err, "wrote tournament %s (%s, %d players, %d rounds done) to %s\n", id, t.Format, len(t.Entrants), league.RoundsCounted(t), *out)
	return nil
}
