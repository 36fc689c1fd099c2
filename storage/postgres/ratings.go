package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/gambitbot/gambit/storage"
)

// decodeRating decodes and validates a rating record of ladder l.
func decodeRating(l, player string, data []byte) (storage.Rating, error) {
	var r storage.Rating
	err := storage.DecodeJSON(data, &r)
	if err == nil {
		err = storage.CheckStoredRating(player, r)
	}
	if err != nil {
		return r, &storage.RecordError{Bucket: "ratings/" + l, Key: player, Err: err}
	}
	return r, nil
}

// getRating returns p's rating in ladder l, or ok false if p has none.
func getRating(ctx context.Context, tx pgx.Tx, l storage.Ladder, p storage.PlayerID) (r storage.Rating, ok bool, err error) {
	var data []byte
	err = tx.QueryRow(ctx, "SELECT record FROM ratings WHERE ladder = $1 AND player = $2", l.String(), p).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return r, false, nil
	}
	if err != nil {
		return r, false, err
	}
	r, err = decodeRating(l.String(), string(p), data)
	return r, err == nil, err
}

// putRating writes r in ladder l, with the columns the rank index reads.
func putRating(ctx context.Context, tx pgx.Tx, l storage.Ladder, r storage.Rating) error {
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode rating: %w", err)
	}
	_, err = tx.Exec(ctx, `INSERT INTO ratings (ladder, player, rating, established, record) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (ladder, player) DO UPDATE SET rating = excluded.rating, established = excluded.established, record = excluded.record`,
		l.String(), r.Player, r.Rating, !r.Provisional(), data)
	if err != nil {
		return fmt.Errorf("write rating of %s in %s: %w", r.Player, l, err)
	}
	return nil
}

// applyRatings rates the ended game g (see storage.Rate) inside tx; the
// caller holds the advisory locks of the players whose ratings move
// (ratedPlayers). An AI's rating never moves, only its tally of games, so
// its lock is taken here, when its tally is read, and held to the commit:
// the caller rates last, so that games against one AI queue only for
// their tallies' write and the commit, not for the whole transaction. An
// advisory lock rather than the row's, as its waiters are woken one at a
// time: a row lock wakes every waiter at each commit, and with 64 games
// against one AI that herd made finishing slower than before.
func applyRatings(ctx context.Context, tx pgx.Tx, g *storage.Game, ai storage.AIRatings) ([]storage.RatingChange, error) {
	return storage.Rate(g, ai,
		func(l storage.Ladder, p storage.PlayerID) (storage.Rating, bool, error) {
			if p.IsAI() {
				if err := lockPlayers(ctx, tx, p); err != nil {
					return storage.Rating{}, false, err
				}
			}
			return getRating(ctx, tx, l, p)
		},
		func(l storage.Ladder, _, r storage.Rating) error { return putRating(ctx, tx, l, r) })
}

// ratedPlayers returns the players whose ratings an ended game g moves:
// a duel's users, never an AI (whose rating is fixed) and nobody in a solo
// puzzle.
func ratedPlayers(g *storage.Game) []storage.PlayerID {
	if g.Solo() {
		return nil
	}
	var out []storage.PlayerID
	for _, p := range g.Players {
		if !p.ID.IsAI() {
			out = append(out, p.ID)
		}
	}
	return out
}

// queryStandings runs a query of (player, record) rating rows of ladder l
// and numbers them from rank first by step (1 or -1).
func queryStandings(ctx context.Context, tx pgx.Tx, l storage.Ladder, first, step int, sql string, args ...any) ([]storage.Standing, error) {
	rows, err := tx.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	var (
		out    []storage.Standing
		player string
		data   []byte
	)
	_, err = pgx.ForEachRow(rows, []any{&player, &data}, func() error {
		r, err := decodeRating(l.String(), player, data)
		if err != nil {
			return err
		}
		out = append(out, storage.Standing{Rank: first + step*len(out), Rating: r})
		return nil
	})
	return out, err
}

// Leaderboard implements storage.Store, reading the rank index, then the
// provisional ratings when there are fewer than n established ones.
func (s *Store) Leaderboard(ctx context.Context, l storage.Ladder, n int) ([]storage.Standing, error) {
	var top []storage.Standing
	err := s.view(ctx, func(tx pgx.Tx) (err error) {
		top, err = queryStandings(ctx, tx, l, 1, 1, `SELECT player, record FROM ratings
			WHERE ladder = $1 AND established ORDER BY rating DESC, player LIMIT $2`, l.String(), max(n, 0))
		if err != nil || len(top) >= n {
			return err
		}
		provisional, err := queryStandings(ctx, tx, l, 0, 0, `SELECT player, record FROM ratings
			WHERE ladder = $1 AND NOT established ORDER BY rating DESC, player LIMIT $2`, l.String(), n-len(top))
		top = append(top, provisional...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: leaderboard %s: %w", l, err)
	}
	return top, nil
}

// Rank implements storage.Store. The rank is one plus the number of
// established ratings above the player's, counted on the rank index, so
// it costs time proportional to the rank as in storage/bolt (see
// BenchmarkRank).
func (s *Store) Rank(ctx context.Context, l storage.Ladder, p storage.PlayerID, around int) (storage.RankView, error) {
	var v storage.RankView
	err := s.view(ctx, func(tx pgx.Tx) error {
		v = storage.RankView{}
		r, ok, err := getRating(ctx, tx, l, p)
		if err != nil {
			return err
		}
		if !ok {
			return storage.ErrNotFound
		}
		v.Player = storage.Standing{Rating: r}
		if r.Provisional() {
			return nil
		}
		// Ranked before the player: a higher rating, or an equal one and a
		// smaller player id. The bound on rating alone is what the index
		// (ladder, rating DESC, player) is scanned by.
		const above = "ladder = $1 AND established AND rating >= $2 AND (rating > $2 OR player < $3)"
		const below = "ladder = $1 AND established AND rating <= $2 AND (rating < $2 OR player > $3)"
		var higher int
		if err := tx.QueryRow(ctx, "SELECT count(*) FROM ratings WHERE "+above, l.String(), r.Rating, p).Scan(&higher); err != nil {
			return err
		}
		v.Player.Rank = higher + 1
		n := max(around, 0)
		if v.Above, err = queryStandings(ctx, tx, l, higher, -1,
			"SELECT player, record FROM ratings WHERE "+above+" ORDER BY rating, player DESC LIMIT $4", l.String(), r.Rating, p, n); err != nil {
			return err
		}
		slices.Reverse(v.Above)
		v.Below, err = queryStandings(ctx, tx, l, higher+2, 1,
			"SELECT player, record FROM ratings WHERE "+below+" ORDER BY rating DESC, player LIMIT $4", l.String(), r.Rating, p, n)
		return err
	})
	if err != nil {
		return storage.RankView{}, fmt.Errorf("storage: rank of %s in %s: %w", p, l, err)
	}
	return v, nil
}
