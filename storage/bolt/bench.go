package bolt

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gambitbot/gambit/storage"
)

// BenchConfig sizes a Bench run.
type BenchConfig struct {
	// Games is the number of games created.
	Games int
	// Moves is the number of changes committed to each game after its
	// creation; the last one finishes it (FinishGame, with ratings).
	Moves int
	// Concurrency is the number of concurrent writers, each playing one
	// game at a time.
	Concurrency int
	// Kinds are the game kinds the synthetic games take in turn; nil means
	// one synthetic kind, "bench".
	Kinds []storage.Kind
}

// BenchResult is what a Bench run did.
type BenchResult struct {
	// Commits counts committed changes, creations included.
	Commits int
	// Elapsed is the wall time of the run.
	Elapsed time.Duration
}

// PerSecond returns committed changes per second.
func (r BenchResult) PerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Commits) / r.Elapsed.Seconds()
}

// Bench plays synthetic games through the store the way the bot does:
// cfg.Concurrency writers each create a game (version 1), commit cfg.Moves
// changes to it — a move appended, the turn passed between a user and an AI
// strategy, the deadline pushed — the last of which finishes it with
// ratings, then take the next game until cfg.Games are done. After each
// durable commit it calls onCommit (if not nil) with the game id and the
// committed version, one call at a time, so a caller can print
// "<game-id> <version>" lines that a crash drill may trust.
func (s *Store) Bench(ctx context.Context, cfg BenchConfig, onCommit func(id storage.GameID, version uint64)) (BenchResult, error) {
	if cfg.Games < 0 || cfg.Moves < 0 || cfg.Concurrency < 1 {
		return BenchResult{}, fmt.Errorf("storage: bench: %w: games %d, moves %d, concurrency %d", storage.ErrInvalid, cfg.Games, cfg.Moves, cfg.Concurrency)
	}
	var (
		mu      sync.Mutex
		res     BenchResult
		errs    []error
		wg      sync.WaitGroup
		next    = make(chan int)
		started = time.Now()
	)
	committed := func(g *storage.Game) {
		mu.Lock()
		defer mu.Unlock()
		res.Commits++
		if onCommit != nil {
			onCommit(g.ID, g.Version)
		}
	}
	for range cfg.Concurrency {
		wg.Go(func() {
			for i := range next {
				if err := s.benchGame(ctx, i, cfg, committed); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
					return
				}
			}
		})
	}
feed:
	for i := range cfg.Games {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	res.Elapsed = time.Since(started)
	if err := errors.Join(append(errs, ctx.Err())...); err != nil {
		return res, fmt.Errorf("storage: bench: %w", err)
	}
	return res, nil
}

// benchGame plays synthetic game number i.
func (s *Store) benchGame(ctx context.Context, i int, cfg BenchConfig, committed func(*storage.Game)) error {
	kinds := cfg.Kinds
	if len(kinds) == 0 {
		kinds = []storage.Kind{"bench"}
	}
	g := &storage.Game{
		Kind:   kinds[i%len(kinds)],
		Status: storage.StatusActive,
		Players: []storage.Player{
			{ID: storage.User(fmt.Sprintf("bench-%d", i%50)), Name: "bench user"},
			{ID: storage.AI("bench"), Name: "bench AI"},
		},
		Settings: storage.Settings{MoveTime: time.Second},
		GuildID:  "bench",
		Deadline: s.now().Add(time.Hour),
	}
	if err := s.CreateGame(ctx, g, storage.Limits{}); err != nil {
		return err
	}
	committed(g)
	for m := 1; m <= cfg.Moves; m++ {
		g.Moves = append(g.Moves, fmt.Sprintf("m%d", m))
		g.Position = fmt.Sprintf("bench position %d", m)
		g.Turn = m % 2
		g.Deadline = s.now().Add(time.Hour)
		var err error
		if m == cfg.Moves {
			g.Status = storage.StatusFinished
			_, err = s.FinishGame(ctx, g, storage.Result{Winner: i%3 - 1})
		} else {
			err = s.UpdateGame(ctx, g)
		}
		if err != nil {
			return err
		}
		committed(g)
	}
	return nil
}
