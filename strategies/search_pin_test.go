package strategies

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// pinnedSearch is a search of a fixed position — a random one of game
// (of rounds rounds) at most left plies from its end — at a fixed depth
// or node cap, on one thread with a node cap (far beyond the search at a
// fixed depth) so that it starts from an empty table and replays exactly.
type pinnedSearch struct {
	game         string
	rounds, left int
	seed, depth  int
	nodes        uint64
	lmr          bool
	want         string
}

// pinnedSearches: exact searches to the end, depth-limited ones with and
// without late-move reductions, and searches a node cap interrupts. The
// wanted lines were recorded by running TestSearchPinned on the search as
// it was before its node loop was shared with the Adjacency engine's
// (strategies/internal/alphabeta.Search), at commit 69963a0.
var pinnedSearches = []pinnedSearch{
	{"tictactoe", 0, 9, 1, 9, 0, true, "......... x move=0 units=0 nodes=4166 depth=9 exact=true pv=[0 4 2 1 7 6 8 5 3]"},
	{"tictactoe", 0, 6, 2, 6, 0, true, ".x..x.o.. o move=7 units=0 nodes=174 depth=6 exact=true pv=[7 8 0 3 5 2]"},
	{"connect4", 0, 36, 3, 9, 0, true, "551644 move=3 units=-6 nodes=9205 depth=9 exact=false pv=[3 5 1 2 2 5 5 3 3]"},
	{"connect4", 0, 30, 4, 10, 0, false, "435216457172 move=3 units=4 nodes=37150 depth=10 exact=false pv=[3 3 1 1 3 3 4 4 6 6]"},
	{"othello", 0, 50, 5, 6, 0, true, "x.xo..../xxoo..../.xxx...x/.xxxxoxo/xxxxxx.o/.xxxxxo./.oo.oo../o..ooo.. o move=51 units=-126 nodes=1963 depth=6 exact=false pv=[51 1 38 12 48 4]"},
	{"othello", 0, 40, 6, 6, 0, false, "...ooo.o/...xooxx/..xxxo../ooxxoxo./ooxooooo/oxx..oo./ooxooooo/.xxx.... x move=60 units=520 nodes=6294 depth=6 exact=false pv=[60 22 6 23 56 43]"},
	{"adjacency", 20, 30, 7, 6, 0, true, "....x.oo/..x..ooo/...x..o./...x..../.......x/.....x../xx.....o/xx.....o o 30 move=61 units=58 nodes=28308 depth=6 exact=false pv=[61 52 2 23 16 47]"},
	{"adjacency", 28, 40, 8, 5, 0, true, "......oo/..o..xxx/x...x..x/......o./..oo.o../oo....../oo.xxxx./xx...x.. x 40 move=61 units=44 nodes=11304 depth=5 exact=false pv=[61 46 39 4 3]"},
	{"othello", 0, 44, 9, 0, 20_000, true, "..o.x.../.ooooo../oxooo.../xxoxoo../xxoxoox./xxxoooo./xxxx.x../xxxxx... x move=8 units=1023 nodes=20480 depth=9 exact=false pv=[8 62 5 31 0 64 1 64 3 64]"},
	{"othello", 0, 50, 11, 8, 0, true, "....ox../....x.../..xxoo../xxxoooo./..ooxoo./oooooxo./oooooxo./ooooox.. o move=6 units=353 nodes=10070 depth=8 exact=false pv=[6 13 3 63 62]"},
	{"connect4", 0, 38, 12, 12, 0, true, "5633 move=3 units=-6 nodes=80302 depth=12 exact=false pv=[3 1 1 4 5 4 4 2 2 2 1 5]"},
	{"connect4", 0, 32, 10, 0, 20_000, true, "4621531153 move=2 units=16 nodes=20480 depth=10 exact=false pv=[2 4 2 3 3 3 2 2 3 3 1]"},
}

func (c pinnedSearch) String() string { return fmt.Sprintf("%s/seed=%d", c.game, c.seed) }

// run searches c's position with a table of hashMiB MiB (0: the default)
// and describes the answer: the move, the score in internal units, the
// nodes, the depth and the principal variation.
func (c pinnedSearch) run(tb testing.TB, hashMiB int) string {
	rng := rand.New(rand.NewPCG(uint64(c.seed), 39))
	p := randomPosition(tb, rng, c.game, c.rounds, c.left)
	nodes := c.nodes
	if nodes == 0 {
		nodes = 1 << 40
	}
	r, ok := rulesFor(p)
	if !ok {
		tb.Fatalf("no rules for %s", c.game)
	}
	res, err := runSearch(context.Background(), p, Limits{Depth: c.depth, Nodes: nodes, Threads: 1, HashMiB: hashMiB}, r, searchConfig{lmr: c.lmr})
	if err != nil {
		tb.Fatal(err)
	}
	return fmt.Sprintf("%v move=%v units=%d nodes=%d depth=%d exact=%v pv=%v", p, res.Move, res.Units, res.Nodes, res.Depth, res.Exact, res.PV)
}

// TestSearchPinned: the generic search answers pinnedSearches as it did
// before its node loop was shared (see pinnedSearches): a change to the
// loop that changes any answer changes the search, not only its code.
func TestSearchPinned(t *testing.T) {
	for _, c := range pinnedSearches {
		t.Run(c.String(), func(t *testing.T) {
			if got := c.run(t, 0); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// BenchmarkPinnedSearches: the time of each of pinnedSearches, with a
// table of 1 MiB (which a search without deadline clears first; the
// default 64 MiB would take most of the time), whose nodes are fixed: the
// generic search's speed, to compare versions of its loop.
//
//	nice -n 10 go test -run '^$' -bench 'PinnedSearches' -count 10 ./strategies
func BenchmarkPinnedSearches(b *testing.B) {
	for _, c := range pinnedSearches {
		b.Run(c.String(), func(b *testing.B) {
			for b.Loop() {
				c.run(b, 1)
			}
		})
	}
}
