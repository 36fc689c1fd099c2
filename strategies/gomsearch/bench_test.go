package gomsearch

import (
	"context"
	"syscall"
	"testing"
	"time"

	rules "github.com/gambitbot/gambit/engine/gomoku"
)

// midgame is a position of a game between two engines, 14 stones in, undecided.
const midgame = "h8 g7 i5 g8 g9 i7 h7 h6 g5 h5 e7 f8 e9 f6"

// BenchmarkSearchMidgame searches a midgame position to 300 000 nodes and
// reports the nodes a second of wall-clock time and of the process's CPU
// time (a node is a stone placed by the search; the CPU figure is the
// one to read on a shared machine).
func BenchmarkSearchMidgame(b *testing.B) {
	p, err := rules.Parse(midgame)
	if err != nil {
		b.Fatal(err)
	}
	e := New(64)
	var nodes uint64
	cpu0 := cpuTime()
	b.ResetTimer()
	for range b.N {
		r, err := e.Search(context.Background(), p, Options{Nodes: 300_000})
		if err != nil {
			b.Fatal(err)
		}
		nodes += r.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/(cpuTime()-cpu0).Seconds(), "nodes/cpu-s")
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
