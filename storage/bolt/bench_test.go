package bolt

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/storetest"
)

// Benchmarks measure durable commits, so they must run on a real disk: the
// database goes to $GAMBIT_BENCH_DIR, or the system temporary directory,
// and a tmpfs there (where fsync is free) is reported. Run them with
//
//	go test ./storage/bolt -run '^$' -bench . -benchtime 3s

// benchStore opens a store in a fresh directory on disk.
func benchStore(b *testing.B) *Store {
	b.Helper()
	parent := os.Getenv("GAMBIT_BENCH_DIR")
	if parent == "" {
		parent = os.TempDir()
	}
	var fs syscall.Statfs_t
	if err := syscall.Statfs(parent, &fs); err == nil && fs.Type == 0x01021994 { // TMPFS_MAGIC
		b.Logf("warning: %s is tmpfs, so fsync costs nothing; set GAMBIT_BENCH_DIR to a directory on disk", parent)
	}
	dir, err := os.MkdirTemp(parent, "gambit-bench-")
	if err != nil {
		b.Fatal(err)
	}
	s, err := Open(filepath.Join(dir, "bench.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		s.Close()
		os.RemoveAll(dir)
	})
	return s
}

// midGame returns an active user-vs-AI game 30 moves in, the size of a
// typical record.
func midGame(i int) *storage.Game {
	g := storetest.UserVsAI([]storage.Kind{"adjacency", "connect4", "tictactoe"}[i%3], fmt.Sprintf("u%d", i))
	for m := range 30 {
		g.Moves = append(g.Moves, fmt.Sprintf("c%d", m%7))
	}
	g.Position = "......./......./...x.../..ox.../.xoo.../xoxo... o"
	return g
}

// updates commits n durable updates to g, as a player and the AI taking
// turns.
func updates(b *testing.B, s *Store, g *storage.Game, n int) {
	for i := range n {
		g.Turn = i % 2
		g.Position = fmt.Sprintf("position %d", i)
		g.Deadline = s.now().Add(24 * time.Hour)
		if err := s.UpdateGame(context.Background(), g); err != nil {
			b.Error(err)
			return
		}
	}
}

func BenchmarkUpdateSingleWriter(b *testing.B) {
	s := benchStore(b)
	g := storetest.MustCreate(b, s, midGame(0))
	b.ResetTimer()
	updates(b, s, g, b.N)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "updates/s")
}

// BenchmarkUpdateConcurrent has several writers, each on its own game as
// with concurrent Discord games; their commits share transactions through
// DB.Batch.
func BenchmarkUpdateConcurrent(b *testing.B) {
	for _, writers := range []int{8, 32} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			s := benchStore(b)
			games := make([]*storage.Game, writers)
			for i := range games {
				games[i] = storetest.MustCreate(b, s, midGame(i))
			}
			var next atomic.Int64
			var wg sync.WaitGroup
			b.ResetTimer()
			for _, g := range games {
				wg.Go(func() {
					for next.Add(1) <= int64(b.N) {
						updates(b, s, g, 1)
					}
				})
			}
			wg.Wait()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "updates/s")
		})
	}
}

// ladderStore returns a store whose Connect Four ladder holds n established
// ratings, written directly in large transactions to keep setup short.
func ladderStore(b *testing.B, n int) (*Store, storage.Ladder) {
	s := benchStore(b)
	l := storage.Global(storage.Kind("connect4"))
	rng := rand.New(rand.NewPCG(1, 2))
	const perTx = 10_000
	for start := 0; start < n; start += perTx {
		if err := s.db.Update(func(tx *bbolt.Tx) error {
			for i := start; i < min(start+perTx, n); i++ {
				r := storage.NewRating(storage.User(fmt.Sprintf("%d", 100_000_000+i)))
				r.Rating = 1500 + 300*rng.NormFloat64()
				r.Deviation = 50 + 50*rng.Float64()
				if err := putRating(tx, l, storage.NewRating(r.Player), r); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
	return s, l
}

const ladderPlayers = 100_000

func BenchmarkLeaderboardTop10(b *testing.B) {
	s, l := ladderStore(b, ladderPlayers)
	ctx := context.Background()
	for b.Loop() {
		if top, err := s.Leaderboard(ctx, l, 10); err != nil || len(top) != 10 {
			b.Fatal(len(top), err)
		}
	}
}

// BenchmarkRank looks up random players among 100,000 with two neighbours
// on each side; the cost grows with the rank (the mean rank is 50,000).
func BenchmarkRank(b *testing.B) {
	s, l := ladderStore(b, ladderPlayers)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	for b.Loop() {
		p := storage.User(fmt.Sprintf("%d", 100_000_000+rng.IntN(ladderPlayers)))
		if v, err := s.Rank(ctx, l, p, 2); err != nil || v.Player.Rank == 0 {
			b.Fatal(v, err)
		}
	}
}

// BenchmarkSizePer10kFinishedGames plays 10,000 games of 30 moves between
// 1,000 users and 5 AI strategies in 20 guilds through the store (created,
// then finished with ratings) and reports the database's size.
func BenchmarkSizePer10kFinishedGames(b *testing.B) {
	const games = 10_000
	for b.Loop() {
		s := benchStore(b)
		var next atomic.Int64
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				for i := int(next.Add(1)); i <= games; i = int(next.Add(1)) {
					g := midGame(i)
					g.Players[0].ID = storage.User(fmt.Sprintf("%d", 200_000_000+i%1000))
					g.Players[1].ID = storage.AI(fmt.Sprintf("strategy-%d", i%5))
					g.GuildID = fmt.Sprintf("guild-%d", i%20)
					if err := s.CreateGame(context.Background(), g, storage.Limits{}); err != nil {
						b.Error(err)
						return
					}
					g.Status = storage.StatusFinished
					if _, err := s.FinishGame(context.Background(), g, storage.Result{Winner: i%3 - 1}); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		fi, err := os.Stat(s.Path())
		if err != nil {
			b.Fatal(err)
		}
		// The file grows in large steps; the pages in use are the
		// transaction's size less the free pages.
		var used int64
		if err := s.db.View(func(tx *bbolt.Tx) error {
			used = tx.Size() - int64(s.db.Stats().FreeAlloc)
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(fi.Size())/(1<<20), "file-MiB/10k-games")
		b.ReportMetric(float64(used)/(1<<20), "used-MiB/10k-games")
	}
}

// BenchmarkOpen100kGames measures Open on a file of 100,000 games of 30
// moves (one in ten still open, the rest finished): read-write, as the
// bot starts — the page walk and bbolt's consistency check — and
// read-only, as `db stats` opens (the page walk alone). The file is in the
// page cache after the first open, as on a restart.
func BenchmarkOpen100kGames(b *testing.B) {
	const games, perTx = 100_000, 5_000
	path := filepath.Join(b.TempDir(), "open.db")
	s, err := Open(path, nil)
	if err != nil {
		b.Fatal(err)
	}
	for first := 0; first < games; first += perTx {
		err := s.db.Update(func(tx *bbolt.Tx) error {
			for i := first; i < first+perTx; i++ {
				g := midGame(i)
				if i%10 != 0 {
					g.Status = storage.StatusFinished
				}
				seq, err := tx.Bucket(bucketGames).NextSequence()
				if err != nil {
					return err
				}
				rec := storage.NewRecord(g, storage.SequenceID(seq), s.now())
				if err := putGame(tx, nil, &rec); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	if fi, err := os.Stat(path); err == nil {
		b.Logf("%d games: %.1f MiB", games, float64(fi.Size())/(1<<20))
	}
	for _, readOnly := range []bool{false, true} {
		b.Run(map[bool]string{false: "read-write", true: "read-only"}[readOnly], func(b *testing.B) {
			for b.Loop() {
				s, err := Open(path, &Options{ReadOnly: readOnly})
				if err != nil {
					b.Fatal(err)
				}
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFirstDelivery records new interactions in a bucket that holds
// n of the last 15 minutes already, each a durable commit: the sweep's
// cost, 8 records read a delivery, does not grow with n.
func BenchmarkFirstDelivery(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("live=%d", n), func(b *testing.B) {
			s := benchStore(b)
			exp := binary.BigEndian.AppendUint64(nil, uint64(time.Now().Add(time.Hour).UnixNano()))
			if err := s.db.Update(func(tx *bbolt.Tx) error {
				for i := range n {
					if err := tx.Bucket(bucketInteractions).Put(fmt.Appendf(nil, "13%017d", i), exp); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ResetTimer()
			for i := range b.N {
				if first, err := s.FirstDelivery(ctx, fmt.Sprintf("14%017d", i), 15*time.Minute); !first || err != nil {
					b.Fatalf("FirstDelivery = %v, %v", first, err)
				}
			}
		})
	}
}
