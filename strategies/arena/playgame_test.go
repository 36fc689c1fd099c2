package arena_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/strategies/arena"
)

// TestPlayGameIsRunsGame: PlayGame plays a game set up as the schedule
// sets it exactly as Run plays it (the same moves, result and score from
// the same seed), forfeits a failing strategy's game, and refuses a
// player it does not know.
func TestPlayGameIsRunsGame(t *testing.T) {
	cfg := arena.Config{
		Game:    game(t, "tictactoe"),
		Players: []arena.Player{{"a", seeded}, {"b", seeded}, {"bad", failing}},
		Games:   2,
		Nodes:   1000,
		Seed:    5,
	}
	r := run(t, cfg)
	for _, played := range r.Games {
		g := arena.GameRecord{Rounds: played.Rounds, X: played.X, O: played.O, First: played.First, Pair: played.Pair, Seed: played.Seed}
		if err := cfg.PlayGame(context.Background(), &g); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g, played) {
			t.Errorf("PlayGame: %+v; Run played %+v", g, played)
		}
	}
	g := arena.GameRecord{X: "a", O: "bad", Seed: 1}
	if err := cfg.PlayGame(context.Background(), &g); err != nil || !strings.HasPrefix(g.Forfeit, "o (bad) forfeits: ") {
		t.Errorf("PlayGame against a failing strategy: %v, forfeit %q", err, g.Forfeit)
	}
	if err := cfg.PlayGame(context.Background(), &arena.GameRecord{X: "a", O: "nobody"}); err == nil || !strings.Contains(err.Error(), "nobody") {
		t.Errorf("PlayGame with an unknown player: %v", err)
	}
}
