package arena

import (
	"testing"

	"github.com/gambitbot/gambit/engine"
)

// TestPairResult: the games decide a pair first; games left level are
// decided on the sum of margins unless a game was forfeited.
func TestPairResult(t *testing.T) {
	// game returns the pair's game with a as x, or as o when swap, ending
	// with a's result and margin.
	game := func(swap bool, res engine.Result, margin int, forfeit string) GameRecord {
		g := GameRecord{Rounds: 28, X: "a", O: "b", First: engine.O, Pair: 3, Seed: 9, Result: res, Score: margin, Forfeit: forfeit}
		if swap {
			g.X, g.O, g.Score = "b", "a", -margin
			g.Result = map[engine.Result]engine.Result{engine.Win: engine.Loss, engine.Loss: engine.Win, engine.Draw: engine.Draw}[res]
		}
		return g
	}
	for _, tc := range []struct {
		name      string
		g, h      GameRecord
		want      engine.Result
		wantLevel bool
	}{
		{"both won", game(false, engine.Win, 2, ""), game(true, engine.Win, 1, ""), engine.Win, false},
		{"won and drawn", game(false, engine.Draw, 0, ""), game(true, engine.Win, 4, ""), engine.Win, false},
		{"both lost, by little", game(false, engine.Loss, -1, ""), game(true, engine.Loss, -1, ""), engine.Loss, false},
		{"split, won by more", game(false, engine.Loss, -2, ""), game(true, engine.Win, 9, ""), engine.Win, true},
		{"split, lost by more", game(false, engine.Win, 2, ""), game(true, engine.Loss, -4, ""), engine.Loss, true},
		{"split, equal margins", game(false, engine.Loss, -2, ""), game(true, engine.Win, 2, ""), engine.Draw, true},
		{"both drawn", game(false, engine.Draw, 0, ""), game(true, engine.Draw, 0, ""), engine.Draw, true},
		{"split by a forfeit", game(false, engine.Loss, 6, "o: error: boom"), game(true, engine.Win, 9, ""), engine.Draw, true},
	} {
		for _, who := range []struct {
			name   string
			result engine.Result
		}{{"a", tc.want}, {"b", map[engine.Result]engine.Result{engine.Win: engine.Loss, engine.Loss: engine.Win, engine.Draw: engine.Draw}[tc.want]}} {
			got, level, err := pairResult(tc.g, tc.h, who.name)
			if err != nil || got != who.result || level != tc.wantLevel {
				t.Errorf("%s, for %s: %v, level %v, %v; want %v, level %v", tc.name, who.name, got, level, err, who.result, tc.wantLevel)
			}
		}
	}
	notPair := game(true, engine.Win, 1, "")
	notPair.Seed++
	if _, _, err := pairResult(game(false, engine.Win, 1, ""), notPair, "a"); err == nil {
		t.Error("games of different seeds made a pair")
	}
}
