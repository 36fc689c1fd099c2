package arena_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/strategies"
	"github.com/gambitbot/gambit/strategies/arena"
)

// scripted is a fake strategy: pick chooses among the legal moves.
type scripted struct {
	pick func(moves []engine.Move, limits strategies.Limits) (engine.Move, error)
}

func (s scripted) Search(_ context.Context, pos engine.Position, limits strategies.Limits) (strategies.Result, error) {
	m, err := s.pick(pos.Moves(nil), limits)
	return strategies.Result{Move: m}, err
}

var (
	firstLegal = scripted{func(ms []engine.Move, _ strategies.Limits) (engine.Move, error) { return ms[0], nil }}
	lastLegal  = scripted{func(ms []engine.Move, _ strategies.Limits) (engine.Move, error) { return ms[len(ms)-1], nil }}
	failing    = scripted{func([]engine.Move, strategies.Limits) (engine.Move, error) {
		return 0, errors.New("out of ideas")
	}}
	illegal  = scripted{func([]engine.Move, strategies.Limits) (engine.Move, error) { return engine.NoMove, nil }}
	panicker = scripted{func([]engine.Move, strategies.Limits) (engine.Move, error) { panic("boom") }}
	// seeded plays a move drawn from Limits.Seed.
	seeded = scripted{func(ms []engine.Move, l strategies.Limits) (engine.Move, error) {
		return ms[rand.New(rand.NewPCG(l.Seed, 0)).IntN(len(ms))], nil
	}}
)

func game(t *testing.T, name string) *games.Game {
	t.Helper()
	g, err := catalog.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func run(t *testing.T, cfg arena.Config) *arena.Report {
	t.Helper()
	if cfg.MoveTime == 0 && cfg.Nodes == 0 {
		cfg.Nodes = 1000
	}
	r, err := arena.Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return r
}

// TestTicTacToeColours: first-legal against last-legal always loses as O
// (x 1 2 3 against o 9 8, or x 9 8 7 against o 1 2), so each wins its two
// games as X of the four the pairing plays for --games 3, and every pair
// is drawn: winning every game as X and losing every game as O is even.
func TestTicTacToeColours(t *testing.T) {
	r := run(t, arena.Config{
		Game:    game(t, "tictactoe"),
		Players: []arena.Player{{"first", firstLegal}, {"last", lastLegal}},
		Games:   3,
	})
	if r.GamesPerPairing != 4 || len(r.Games) != 4 {
		t.Fatalf("%d games per pairing, %d games; want 3 rounded up to 4", r.GamesPerPairing, len(r.Games))
	}
	want := arena.Tally{A: "first", B: "last", Record: arena.Record{Wins: 2, Losses: 2},
		First: arena.Record{Wins: 2}, Second: arena.Record{Losses: 2}, // X moves first and wins
		MarginFirst: 2, MarginSecond: -2, // by one line each time
		Pairs: arena.Record{Draws: 2}, Level: arena.Record{Draws: 2}}
	if len(r.Tallies) != 1 || r.Tallies[0] != want {
		t.Errorf("tallies %+v, want %+v", r.Tallies, want)
	}
	for i, g := range r.Games {
		wantX := []string{"first", "last"}[i%2]
		wantMoves := map[string]string{"first": "1 9 2 8 3", "last": "9 1 8 2 7"}[wantX]
		if g.X != wantX || g.First != engine.X || g.Result != engine.Win || g.Score != 1 || strings.Join(g.Moves, " ") != wantMoves {
			t.Errorf("game %d: %+v; want x %s winning with %s", i, g, wantX, wantMoves)
		}
	}
	if len(r.Ratings) != 1 || r.Ratings[0].Ratings[0].Elo != r.Ratings[0].Ratings[1].Elo {
		t.Errorf("ratings %+v: want one table with equal ratings", r.Ratings)
	}
	if p := r.Ratings[0].PairRatings; len(p) != 2 || p[0].Elo != p[1].Elo || p[0].Games != 2 || p[0].Points != 1 {
		t.Errorf("pair ratings %+v: want equal ratings over 2 pairs", p)
	}
}

// TestAdjacencySetups: every pairing plays both colours and both first
// movers equally often, in every rounds setting, and the first move is
// made by the player of the side that starts.
func TestAdjacencySetups(t *testing.T) {
	adj := game(t, "adjacency")
	players := []arena.Player{{"first", firstLegal}, {"last", lastLegal}, {"seeded", seeded}}
	r := run(t, arena.Config{Game: adj, Players: players, Games: 5, Rounds: []int{2, 3}, Concurrency: 2, Seed: 1}) // a seed that leaves some pairs level on games, unequal on margins
	const perPairing = 8                                                                                           // 5 rounded up to the 4 setups
	if r.GamesPerPairing != perPairing || len(r.Games) != 2*3*perPairing || len(r.Tallies) != 2*3 {
		t.Fatalf("%d per pairing, %d games, %d tallies; want %d, %d, %d", r.GamesPerPairing, len(r.Games), len(r.Tallies), perPairing, 2*3*perPairing, 6)
	}
	type setup struct {
		rounds int
		x, o   string
		first  engine.Side
	}
	count := make(map[setup]int)
	for _, g := range r.Games {
		count[setup{g.Rounds, g.X, g.O, g.First}]++
		if len(g.Moves) != 2*g.Rounds || g.Forfeit != "" {
			t.Errorf("game %+v: want %d moves and no forfeit", g, 2*g.Rounds)
		}
		// Replay: the first move must be what the starting side's player
		// plays from the start, and the recorded result must follow.
		pos, err := adj.Start(games.Options{Rounds: g.Rounds, First: g.First})
		if err != nil {
			t.Fatal(err)
		}
		starter := map[engine.Side]string{engine.X: g.X, engine.O: g.O}[g.First]
		if want := map[string]string{"first": "c1", "last": "f8"}[starter]; want != "" && g.Moves[0] != want {
			t.Errorf("game %+v: %s moved first with %s, want %s", g, starter, g.Moves[0], want)
		}
		for _, text := range g.Moves {
			m, err := pos.ParseMove(text)
			if err != nil {
				t.Fatalf("game %+v: %v", g, err)
			}
			pos.Play(m)
		}
		if pos.Result(engine.X) != g.Result || pos.Score(engine.X) != g.Score {
			t.Errorf("game %+v: replay ends %v %d", g, pos.Result(engine.X), pos.Score(engine.X))
		}
	}
	for _, rounds := range []int{2, 3} {
		for i, a := range players {
			for _, b := range players[i+1:] {
				for _, s := range []setup{
					{rounds, a.Name, b.Name, engine.X}, {rounds, a.Name, b.Name, engine.O},
					{rounds, b.Name, a.Name, engine.X}, {rounds, b.Name, a.Name, engine.O},
				} {
					if count[s] != perPairing/4 {
						t.Errorf("setup %+v played %d times, want %d", s, count[s], perPairing/4)
					}
				}
			}
		}
	}
	// Tallies agree with the games, over all and split by who moved
	// first: [0] all, [1] A moved first, [2] B did.
	for _, tl := range r.Tallies {
		var w, l, d, margin [3]int
		for _, g := range r.Games {
			if g.Rounds != tl.Rounds || !(g.X == tl.A && g.O == tl.B || g.X == tl.B && g.O == tl.A) {
				continue
			}
			split := 2
			if (g.First == engine.X) == (g.X == tl.A) {
				split = 1
			}
			pos, err := game(t, "adjacency").Start(games.Options{Rounds: g.Rounds, First: g.First})
			if err != nil {
				t.Fatal(err)
			}
			for _, text := range g.Moves {
				m, err := pos.ParseMove(text)
				if err != nil {
					t.Fatal(err)
				}
				pos.Play(m)
			}
			own := map[bool]engine.Side{true: engine.X, false: engine.O}[g.X == tl.A]
			margin[split] += pos.Score(own)
			for _, i := range []int{0, split} {
				switch {
				case g.Result == engine.Draw:
					d[i]++
				case (g.Result == engine.Win) == (g.X == tl.A):
					w[i]++
				default:
					l[i]++
				}
			}
		}
		for i, rec := range []arena.Record{tl.Record, tl.First, tl.Second} {
			if rec.Wins != w[i] || rec.Losses != l[i] || rec.Draws != d[i] {
				t.Errorf("tally %+v, part %d: games give %d-%d-%d", tl, i, w[i], l[i], d[i])
			}
		}
		if tl.MarginFirst != margin[1] || tl.MarginSecond != margin[2] {
			t.Errorf("tally %+v: the games end with A's margins %d moving first, %d moving second", tl, margin[1], margin[2])
		}
		if tl.First.Games() != perPairing/2 || tl.Second.Games() != perPairing/2 {
			t.Errorf("tally %+v: want %d games with each first mover", tl, perPairing/2)
		}
	}
	// Pairs: exactly the two games of one setup and seed with the sides
	// exchanged, and the tallies' pair records follow from them.
	byPair := make(map[int][]arena.GameRecord)
	for _, g := range r.Games {
		byPair[g.Pair] = append(byPair[g.Pair], g)
	}
	if len(byPair) != len(r.Games)/2 {
		t.Fatalf("%d pairs for %d games", len(byPair), len(r.Games))
	}
	for _, two := range byPair {
		g, h := two[0], two[1]
		if len(two) != 2 || g.X != h.O || g.O != h.X || g.First != h.First || g.Rounds != h.Rounds || g.Seed != h.Seed {
			t.Fatalf("pair %+v: want two games of one setup and seed, sides exchanged", two)
		}
	}
	points := func(g arena.GameRecord, name string) float64 {
		p := map[engine.Result]float64{engine.Win: 1, engine.Draw: 0.5}[g.Result]
		if name == g.O {
			p = 1 - p
		}
		return p
	}
	marks := func(g arena.GameRecord, name string) int {
		if name == g.O {
			return -g.Score
		}
		return g.Score
	}
	onMargins := 0 // pairs the games left level and the margins decided
	for _, tl := range r.Tallies {
		var want, level arena.Record
		for _, two := range byPair {
			if g := two[0]; g.Rounds != tl.Rounds || !(g.X == tl.A && g.O == tl.B || g.X == tl.B && g.O == tl.A) {
				continue
			}
			a, m := points(two[0], tl.A)+points(two[1], tl.A), marks(two[0], tl.A)+marks(two[1], tl.A)
			switch {
			case a > 1:
				want.Wins++
			case a < 1:
				want.Losses++
			case m > 0:
				want.Wins++
				level.Wins++
			case m < 0:
				want.Losses++
				level.Losses++
			default:
				want.Draws++
				level.Draws++
			}
		}
		if want.Games() != perPairing/2 || tl.Pairs != want || tl.Level != level {
			t.Errorf("tally %+v: the games give pairs %+v, %+v of them level on games", tl, want, level)
		}
		onMargins += level.Wins + level.Losses
	}
	if onMargins == 0 {
		t.Errorf("no pair was level on games and decided on margins: the run does not check the margins' part")
	}
	// One table per rounds setting and one over both.
	if len(r.Ratings) != 3 || !reflect.DeepEqual(r.Ratings[2].Rounds, []int{2, 3}) || r.Ratings[2].Ratings[0].Games != 2*2*perPairing {
		t.Errorf("rating tables %+v", r.Ratings)
	}
}

func TestGauntletPairsOnlyItsPlayer(t *testing.T) {
	cfg := arena.Config{
		Game:     game(t, "connect4"),
		Players:  []arena.Player{{"a", firstLegal}, {"b", lastLegal}, {"g", seeded}, {"c", firstLegal}},
		Gauntlet: "g",
		Games:    2,
	}
	sched := cfg.Schedule(1)
	if len(sched) != 3*2 {
		t.Fatalf("%d games scheduled, want 6", len(sched))
	}
	met := make(map[string]int)
	for _, g := range sched {
		switch "g" {
		case g.X:
			met[g.O]++
		case g.O:
			met[g.X]++
		default:
			t.Errorf("game without the gauntlet player: %+v", g)
		}
	}
	if !reflect.DeepEqual(met, map[string]int{"a": 2, "b": 2, "c": 2}) {
		t.Errorf("opponents met %v", met)
	}
	r := run(t, cfg)
	for _, tl := range r.Tallies {
		if tl.A != "g" {
			t.Errorf("tally %+v: the gauntlet player should be A", tl)
		}
	}
}

// TestForfeits: an error, an illegal move or a panic loses the game, and
// the record says who and why.
func TestForfeits(t *testing.T) {
	for _, tc := range []struct {
		name     string
		strategy strategies.Strategy
		want     string
	}{
		{"error", failing, "out of ideas"},
		{"illegal", illegal, "illegal move"},
		{"panic", panicker, "panic: boom"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, arena.Config{
				Game:    game(t, "adjacency"),
				Players: []arena.Player{{"good", firstLegal}, {"bad", tc.strategy}},
				Games:   4,
				Rounds:  []int{2},
			})
			// Winning both games of every pair wins every pair.
			want := arena.Tally{Rounds: 2, A: "good", B: "bad", Record: arena.Record{Wins: 4},
				First: arena.Record{Wins: 2}, Second: arena.Record{Wins: 2}, Forfeits: 4, Pairs: arena.Record{Wins: 2}}
			if len(r.Tallies) != 1 {
				t.Fatalf("tallies %+v, want one", r.Tallies)
			}
			got := r.Tallies[0]
			got.MarginFirst, got.MarginSecond = 0, 0 // the score when the game stopped
			if got != want {
				t.Errorf("tallies %+v, want %+v", r.Tallies, want)
			}
			for _, g := range r.Games {
				badSide := map[string]string{g.X: "x", g.O: "o"}["bad"]
				if !strings.HasPrefix(g.Forfeit, badSide+" (bad) forfeits: ") || !strings.Contains(g.Forfeit, tc.want) {
					t.Errorf("forfeit %q, want it to name %s (bad) and %q", g.Forfeit, badSide, tc.want)
				}
			}
			if top := r.Ratings[0].Ratings[0]; top.Name != "good" {
				t.Errorf("top rated %+v, want good", top)
			}
			if top := r.Ratings[0].PairRatings[0]; top.Name != "good" || top.Games != 2 || top.Points != 2 {
				t.Errorf("top pair rated %+v, want good, 2 pairs won of 2", top)
			}
		})
	}
}

// TestNodeLimitedRunsReplay: the same seed with a node limit gives the
// same games whatever the concurrency; another seed gives others.
func TestNodeLimitedRunsReplay(t *testing.T) {
	var sawLimits = make(chan strategies.Limits, 1)
	probe := scripted{func(ms []engine.Move, l strategies.Limits) (engine.Move, error) {
		select {
		case sawLimits <- l:
		default:
		}
		return seeded.pick(ms, l)
	}}
	cfg := func(seed uint64, concurrency int) arena.Config {
		return arena.Config{
			Game:        game(t, "adjacency"),
			Players:     []arena.Player{{"p", probe}, {"q", seeded}, {"r", seeded}},
			Games:       4,
			Rounds:      []int{4},
			Nodes:       500,
			Seed:        seed,
			Concurrency: concurrency,
		}
	}
	a, b, c := run(t, cfg(7, 1)), run(t, cfg(7, 2)), run(t, cfg(8, 2))
	if !reflect.DeepEqual(a, b) {
		t.Errorf("seed 7 twice, different reports:\n%+v\n%+v", a.Games, b.Games)
	}
	if reflect.DeepEqual(a.Games, c.Games) {
		t.Error("seeds 7 and 8 played the same games")
	}
	if l := <-sawLimits; l.Nodes != 500 || l.Threads != 1 || l.Seed == 0 {
		t.Errorf("a search got limits %+v, want 500 nodes, one thread and a seed", l)
	}
}

// TestMoveTimeIsADeadline: with a move time every search has a deadline,
// and without one none.
func TestMoveTimeIsADeadline(t *testing.T) {
	for _, moveTime := range []time.Duration{0, time.Minute} {
		var bad error
		deadlineProbe := deadlineStrategy{want: moveTime > 0, err: &bad}
		run(t, arena.Config{
			Game:     game(t, "tictactoe"),
			Players:  []arena.Player{{"a", deadlineProbe}, {"b", firstLegal}},
			Games:    2,
			MoveTime: moveTime,
			Nodes:    map[bool]uint64{true: 100}[moveTime == 0],
		})
		if bad != nil {
			t.Errorf("move time %v: %v", moveTime, bad)
		}
	}
}

// deadlineStrategy plays the first legal move and records in err a search
// whose context's deadline is not as wanted.
type deadlineStrategy struct {
	want bool
	err  *error
}

func (d deadlineStrategy) Search(ctx context.Context, pos engine.Position, _ strategies.Limits) (strategies.Result, error) {
	if _, has := ctx.Deadline(); has != d.want {
		*d.err = fmt.Errorf("a search with deadline %v, want %v", has, d.want)
	}
	return strategies.Result{Move: pos.Moves(nil)[0]}, nil
}

func TestRunProgressAndCancel(t *testing.T) {
	var calls []int
	r := run(t, arena.Config{
		Game:     game(t, "tictactoe"),
		Players:  []arena.Player{{"a", firstLegal}, {"b", lastLegal}},
		Games:    6,
		Progress: func(done, total int) { calls = append(calls, done*100+total) },
	})
	if len(calls) != len(r.Games) || calls[0] != 106 || calls[5] != 606 {
		t.Errorf("progress calls %v, want 1..6 of 6", calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cfg := arena.Config{Game: game(t, "tictactoe"), Players: []arena.Player{{"a", firstLegal}, {"b", lastLegal}}, Games: 2, Nodes: 10}
	if _, err := arena.Run(ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled run: %v, want context.Canceled", err)
	}
}

func TestValidate(t *testing.T) {
	adj, c4 := game(t, "adjacency"), game(t, "connect4")
	two := []arena.Player{{"a", firstLegal}, {"b", lastLegal}}
	for _, tc := range []struct {
		cfg  arena.Config
		want string
	}{
		{arena.Config{Players: two, Games: 1, Nodes: 1}, "no game"},
		{arena.Config{Game: adj, Players: two[:1], Games: 1, Nodes: 1}, "at least two"},
		{arena.Config{Game: adj, Players: []arena.Player{{"a", firstLegal}, {"a", lastLegal}}, Games: 1, Nodes: 1}, "named twice"},
		{arena.Config{Game: adj, Players: two, Gauntlet: "z", Games: 1, Nodes: 1}, "gauntlet player z"},
		{arena.Config{Game: adj, Players: two, Games: 0, Nodes: 1}, "0 games"},
		{arena.Config{Game: c4, Players: two, Games: 1, Nodes: 1, Rounds: []int{8}}, "connect4 has no rounds"},
		{arena.Config{Game: adj, Players: two, Games: 1, Nodes: 1, Rounds: []int{8, 29}}, "29 rounds"},
		{arena.Config{Game: adj, Players: two, Games: 1}, "no move limit"},
		{arena.Config{Game: adj, Players: two, Games: 1, MoveTime: -time.Second}, "move time"},
		{arena.Config{Game: adj, Players: two, Games: 1, Nodes: 1, Concurrency: -1}, "concurrency"},
	} {
		err := tc.cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate(%+v) = %v, want an error naming %q", tc.cfg, err, tc.want)
		}
		if _, runErr := arena.Run(context.Background(), tc.cfg); runErr == nil {
			t.Errorf("Run accepted %+v", tc.cfg)
		}
	}
}

// TestReportJSONRoundTrip: the JSON report carries the tallies with their
// pair records, both rating tables and each game's pair and seed, and
// reads back to the same values.
func TestReportJSONRoundTrip(t *testing.T) {
	r := run(t, arena.Config{
		Game:    game(t, "adjacency"),
		Players: []arena.Player{{"first", firstLegal}, {"last", lastLegal}, {"seeded", seeded}},
		Games:   4,
		Rounds:  []int{2, 3},
	})
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Results []arena.Tally       `json:"results"`
		Ratings []arena.RatingTable `json:"ratings"`
		Games   []struct {
			X, O string
			Pair int
			Seed uint64
		} `json:"games"`
	}
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Results, r.Tallies) || !reflect.DeepEqual(back.Ratings, r.Ratings) {
		t.Errorf("read back:\n%+v\n%+v\nwant\n%+v\n%+v", back.Results, back.Ratings, r.Tallies, r.Ratings)
	}
	if len(back.Games) != len(r.Games) {
		t.Fatalf("%d games read back, want %d", len(back.Games), len(r.Games))
	}
	for i, g := range back.Games {
		if want := r.Games[i]; g.X != want.X || g.O != want.O || g.Pair != want.Pair || g.Seed != want.Seed {
			t.Errorf("game %d read back as %+v, want %+v", i, g, want)
		}
	}
	if r.Ratings[0].PairRatings == nil || back.Results[0].Pairs.Games() != 2 {
		t.Errorf("no pair ratings or pairs in %s", data)
	}
}
