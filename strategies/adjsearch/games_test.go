package adjsearch

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
)

var update = flag.Bool("update", false, "regenerate testdata/endgames.txt")

// endgamesFile holds endgame positions from self-play games, the
// benchmarks' "positions from real games".
const endgamesFile = "testdata/endgames.txt"

// endgameGames and endgameSeed: the self-play that made endgamesFile.
const (
	endgameGames = 15
	endgameSeed  = 18
)

// selfPlay plays a 28-round game from the seed: four random opening
// moves, then the engine on both sides at 20,000 nodes a move (node-capped
// and single-threaded, so it replays exactly). It returns the positions
// with 20, 18 and 16 plies left.
func selfPlay(t testing.TB, seed uint64) []adjacency.Board {
	rng := rand.New(rand.NewPCG(seed, endgameSeed))
	b, err := adjacency.NewBoard(28, engine.Side(rng.IntN(2)))
	if err != nil {
		t.Fatal(err)
	}
	var out []adjacency.Board
	e := New(nil)
	for b.PliesLeft() > 16 {
		var m engine.Move
		if b.PliesLeft() > 52 {
			moves := b.Moves(nil)
			m = moves[rng.IntN(len(moves))]
		} else {
			res, err := e.Search(context.Background(), b, Options{Nodes: 20000, MaxTableMiB: 4})
			if err != nil {
				t.Fatal(err)
			}
			m = res.Move
		}
		b = b.After(m)
		if l := b.PliesLeft(); l == 20 || l == 18 || l == 16 {
			out = append(out, b)
		}
	}
	return out
}

// TestEndgamesFile: the benchmarks' endgame positions are there, fifteen
// each of 20, 18 and 16 plies left. With -update it regenerates them by
// self-play (go test -run EndgamesFile ./strategies/adjsearch -update, 10
// s); the file is kept rather than replayed at each run because the
// engine's play, and so the games, change whenever it is tuned.
func TestEndgamesFile(t *testing.T) {
	if *update {
		var sb strings.Builder
		for g := range endgameGames {
			for _, b := range selfPlay(t, uint64(g)) {
				fmt.Fprintln(&sb, b)
			}
		}
		if err := os.WriteFile(endgamesFile, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, left := range []int{20, 18, 16} {
		if n := len(endgames(t, left)); n != endgameGames {
			t.Errorf("%s: %d positions with %d plies left, want %d", endgamesFile, n, left, endgameGames)
		}
	}
}

// endgames reads the positions of endgamesFile with the given plies left.
func endgames(t testing.TB, left int) []adjacency.Board {
	t.Helper()
	f, err := os.Open(endgamesFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []adjacency.Board
	in := bufio.NewScanner(f)
	for in.Scan() {
		b, err := adjacency.ParseBoard(in.Text())
		if err != nil {
			t.Fatal(err)
		}
		if b.PliesLeft() == left {
			out = append(out, b)
		}
	}
	return out
}
