package postgres

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
	"github.com/gambitbot/gambit/storage/storetest"
)

// Benchmarks measure durable commits on the server GAMBIT_TEST_DATABASE_URL
// names (fsync on, as .ci/postgres starts it), each on a fresh schema:
//
//	go test ./storage/postgres -run '^$' -bench . -benchtime 3s

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

// BenchmarkUpdateConcurrent has 8 writers, each moving on its own game as
// concurrent Discord games do: the moves per second of one database.
func BenchmarkUpdateConcurrent(b *testing.B) {
	const writers = 8
	s, _ := openTest(b, time.Now)
	b.Cleanup(func() { s.Close() })
	games := make([]*storage.Game, writers)
	for i := range games {
		games[i] = storetest.MustCreate(b, s, midGame(i))
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	for _, g := range games {
		wg.Go(func() {
			for i := 0; next.Add(1) <= int64(b.N); i++ {
				g.Turn = i % 2
				g.Position = fmt.Sprintf("position %d", i)
				g.Deadline = time.Now().Add(24 * time.Hour)
				if err := s.UpdateGame(context.Background(), g); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}

const ladderPlayers = 100_000

// ladderStore returns a store whose Connect Four ladder holds n established
// ratings, written in large transactions to keep setup short.
func ladderStore(b *testing.B, n int) (*Store, storage.Ladder) {
	s, _ := openTest(b, time.Now)
	b.Cleanup(func() { s.Close() })
	l := storage.Global("connect4")
	rng := rand.New(rand.NewPCG(1, 2))
	const perTx = 10_000
	for start := 0; start < n; start += perTx {
		if err := s.update(context.Background(), func(tx pgx.Tx) error {
			for i := start; i < min(start+perTx, n); i++ {
				r := storage.NewRating(storage.User(fmt.Sprintf("%d", 100_000_000+i)))
				r.Rating = 1500 + 300*rng.NormFloat64()
				r.Deviation = 50 + 50*rng.Float64()
				if err := putRating(context.Background(), tx, l, r); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := s.pool.Exec(context.Background(), "VACUUM ANALYZE ratings"); err != nil {
		b.Fatal(err)
	}
	return s, l
}

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
// on each side; counting the places above costs time growing with the
// rank (the mean rank is 50,000).
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

// BenchmarkFinishGame finishes games with 8 and 64 writers, each game
// its own: against one AI (every game's opponent is minimax, as when a
// popular AI is played in many guilds at once) and against distinct human
// opponents. The games are created before the timer starts; games/s is
// the finishes per second of one database.
func BenchmarkFinishGame(b *testing.B) {
	for _, opp := range []string{"oneAI", "distinct"} {
		for _, writers := range []int{8, 64} {
			b.Run(fmt.Sprintf("%s/writers=%d", opp, writers), func(b *testing.B) {
				benchmarkFinishGame(b, writers, opp == "oneAI")
			})
		}
	}
}

func benchmarkFinishGame(b *testing.B, writers int, oneAI bool) {
	url := pgtest.URL(b)
	s, err := Open(context.Background(), url, &Options{MaxConns: int32(writers), AIRatings: storetest.AIRatings})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	games := make([]*storage.Game, b.N)
	for i := range games {
		g := storetest.UserVsAI("connect4", fmt.Sprintf("u%d", i))
		if !oneAI {
			g = storetest.UserVsUser("connect4", fmt.Sprintf("u%d", i), fmt.Sprintf("v%d", i))
		}
		games[i] = storetest.MustCreate(b, s, g)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	for range writers {
		wg.Go(func() {
			for i := next.Add(1); i <= int64(b.N); i = next.Add(1) {
				g := games[i-1]
				g.Status = storage.StatusFinished
				if _, err := s.FinishGame(context.Background(), g, storage.Result{Winner: int(i % 2)}); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkFirstDelivery records new interactions in a table that holds n
// of the last 15 minutes already and n that expired, each a durable
// commit: the sweep's cost, an index scan of at most 8 expired rows a
// delivery, does not grow with n.
func BenchmarkFirstDelivery(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("live=%d", n), func(b *testing.B) {
			s, _ := openTest(b, time.Now)
			b.Cleanup(func() { s.Close() })
			ctx := context.Background()
			if _, err := s.pool.Exec(ctx, `INSERT INTO interactions (id, expires_at)
				SELECT 'live' || i, now() + interval '1 hour' FROM generate_series(1, $1) i
				UNION ALL SELECT 'old' || i, now() - interval '1 hour' FROM generate_series(1, $1) i`, n); err != nil {
				b.Fatal(err)
			}
			if _, err := s.pool.Exec(ctx, "ANALYZE interactions"); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := range b.N {
				if first, err := s.FirstDelivery(ctx, fmt.Sprintf("14%017d", i), 15*time.Minute); !first || err != nil {
					b.Fatalf("FirstDelivery = %v, %v", first, err)
				}
			}
		})
	}
}
