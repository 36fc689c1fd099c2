package strategies

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/engine"
)

// The flags of BenchmarkMoveOvershoot.
var (
	overshootLimit     = flag.Duration("overshoot.limit", 50*time.Millisecond, "BenchmarkMoveOvershoot: the time limit of each move")
	overshootPositions = flag.Int("overshoot.positions", 1000, "BenchmarkMoveOvershoot: the number of positions, at least 4")
)

// overshootMix is the share of each kind of position in
// BenchmarkMoveOvershoot, out of 20: Adjacency endgames of 28-round games
// (which fill the board), with 6 to 16 plies left (most solved at once)
// and 17 to 24 (the set-game solve cut by the clock); endgames of shorter
// games (which do not fill the board: the board solver's case) with 6 to
// 16 plies left; middle games of 28 rounds; Connect Four middle games and
// endgames (8 to 34 stones).
var overshootMix = []struct {
	name   string
	share  int
	random func(tb testing.TB, rng *rand.Rand) engine.Position
}{
	{"adjacency-fill-endgame", 3, func(tb testing.TB, rng *rand.Rand) engine.Position {
		return randomPosition(tb, rng, "adjacency", 28, 6+rng.IntN(11))
	}},
	{"adjacency-fill-late", 4, func(tb testing.TB, rng *rand.Rand) engine.Position {
		return randomPosition(tb, rng, "adjacency", 28, 17+rng.IntN(8))
	}},
	{"adjacency-short-endgame", 5, func(tb testing.TB, rng *rand.Rand) engine.Position {
		return randomPosition(tb, rng, "adjacency", 8+rng.IntN(17), 6+rng.IntN(11))
	}},
	{"adjacency-midgame", 3, func(tb testing.TB, rng *rand.Rand) engine.Position {
		return randomPosition(tb, rng, "adjacency", 28, 20+rng.IntN(31))
	}},
	{"connect4", 5, func(tb testing.TB, rng *rand.Rand) engine.Position {
		return randomPosition(tb, rng, "connect4", 0, 42-8-rng.IntN(27))
	}},
}

// BenchmarkMoveOvershoot: how long after its time limit minimax answers,
// as the bot calls it (one thread, the pools kept from move to move), over
// -overshoot.positions positions (1,000) drawn from a fixed seed in the
// proportions of overshootMix, at -overshoot.limit a move (50 ms). The
// overshoot is the wall time of the call minus the limit; its p50, p99
// and maximum are over the moves that used their whole time (a search
// that ends sooner, a solved endgame, is counted in early/op). On Linux
// it also reports the overshoot net of the time the search's thread
// waited for a core during the move (net-p50-ms and so on, from /proc's
// schedstat): about what a quiet machine would show, when the machine is
// busy. Run it on a quiet machine, alone:
//
//	go test ./strategies -run '^$' -bench MoveOvershoot -benchtime 1x -overshoot.limit 1s -overshoot.positions 300
func BenchmarkMoveOvershoot(b *testing.B) {
	n, limit := *overshootPositions, *overshootLimit
	if n < 4 || limit <= 0 {
		b.Fatalf("-overshoot.positions %d, -overshoot.limit %v: want at least 4 positions and a positive limit", n, limit)
	}
	rng := rand.New(rand.NewPCG(25, 1000))
	var positions []engine.Position
	var kinds []int
	for len(positions) < n {
		for k, m := range overshootMix {
			for range m.share {
				if len(positions) < n {
					positions = append(positions, m.random(b, rng))
					kinds = append(kinds, k)
				}
			}
		}
	}
	clearPools()
	runtime.LockOSThread() // the search runs on this thread: waited reads its run-queue wait
	defer runtime.UnlockOSThread()
	for b.Loop() {
		late := make([][]time.Duration, len(overshootMix))
		var all, net []time.Duration
		early := 0
		for i, p := range positions {
			ctx, cancel := context.WithTimeout(context.Background(), limit)
			wait0, hasWait := waited()
			begin := time.Now()
			res, err := Minimax{}.Search(ctx, p, Limits{Threads: 1})
			over := time.Since(begin) - limit
			cancel()
			if err != nil || !legal(p, res.Move) {
				b.Fatalf("%v: move %v, %v", p, res.Move, err)
			}
			if wait1, ok := waited(); hasWait && ok && over >= 0 {
				net = append(net, max(0, over-(wait1-wait0)))
			}
			if over < 0 {
				early++
				continue
			}
			late[kinds[i]] = append(late[kinds[i]], over)
			all = append(all, over)
			if over > limit/20+50*time.Millisecond {
				b.Logf("%s %v: %v over", overshootMix[kinds[i]].name, p, over)
			}
		}
		report := func(name string, d []time.Duration) {
			if len(d) == 0 {
				return
			}
			slices.Sort(d)
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
			b.ReportMetric(ms(d[len(d)/2]), name+"p50-ms")
			b.ReportMetric(ms(d[len(d)*99/100]), name+"p99-ms")
			b.ReportMetric(ms(d[len(d)-1]), name+"max-ms")
		}
		report("", all)
		report("net-", net)
		for k, m := range overshootMix {
			b.Logf("%s: %d moves used their time, overshoot p50/p99/max below", m.name, len(late[k]))
			report(fmt.Sprintf("%s-", m.name), late[k])
		}
		b.ReportMetric(float64(early), "early/op")
		b.ReportMetric(float64(len(positions)), "positions/op")
	}
}

// waited returns the time the calling OS thread has spent waiting for a
// core (the second field of Linux's schedstat), or false where /proc does
// not tell.
func waited() (time.Duration, bool) {
	text, err := os.ReadFile("/proc/thread-self/schedstat")
	if err != nil {
		return 0, false
	}
	fields := strings.Fields(string(text))
	if len(fields) < 2 {
		return 0, false
	}
	ns, err := strconv.ParseInt(fields[1], 10, 64)
	return time.Duration(ns), err == nil
}
