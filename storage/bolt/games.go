package bolt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage"
)

// gamesFillPercent is how full bbolt packs the games bucket's pages.
const gamesFillPercent = 0.9

// indexEntry is one key in one index bucket.
type indexEntry struct {
	bucket []byte
	key    []byte
}

// gameIndex returns the index entries that game g must have — the single
// definition used by every write and by Check.
func gameIndex(g *storage.Game) []indexEntry {
	var out []indexEntry
	players := func(bucket []byte) {
		for _, p := range g.Players {
			if p.ID != storage.Anonymous && p.ID != storage.Anyone {
				out = append(out, indexEntry{bucket, pairKey(string(p.ID), string(g.ID))})
			}
		}
	}
	switch {
	case g.Status.Open():
		players(bucketOpen)
		for _, k := range g.ShowcaseKeys() {
			out = append(out, indexEntry{bucketOpen, pairKey(string(k), string(g.ID))})
		}
		if g.AwaitingAI() {
			out = append(out, indexEntry{bucketAI, []byte(g.ID)})
		}
		if !g.Deadline.IsZero() {
			out = append(out, indexEntry{bucketDeadline, deadlineKey(g.Deadline, g.ID)})
		}
	case g.Status.Ended():
		players(bucketHistory)
		if p := g.Players[0].ID; g.Solved() && p != storage.Anonymous {
			out = append(out, indexEntry{bucketSolved, append(solvedPrefix(p, g.Kind), g.ID...)})
		}
	}
	return out
}

// getGame loads game id inside tx.
func getGame(tx *bbolt.Tx, id storage.GameID) (*storage.Game, error) {
	data := tx.Bucket(bucketGames).Get([]byte(id))
	if data == nil {
		return nil, storage.ErrNotFound
	}
	return decodeGame([]byte(id), data)
}

// putGame writes g, replacing old (nil for a new game) and moving the index
// entries from old's to g's.
func putGame(tx *bbolt.Tx, old, g *storage.Game) error {
	if old != nil {
		if err := deleteIndex(tx, old); err != nil {
			return err
		}
	}
	for _, e := range gameIndex(g) {
		if err := tx.Bucket(e.bucket).Put(e.key, nil); err != nil {
			return err
		}
	}
	data, err := encode(g)
	if err != nil {
		return err
	}
	games := tx.Bucket(bucketGames)
	// Ids grow with time and old games rarely change, so pages can be
	// packed fuller than bbolt's default of half.
	games.FillPercent = gamesFillPercent
	return games.Put([]byte(g.ID), data)
}

// deleteIndex removes g's index entries.
func deleteIndex(tx *bbolt.Tx, g *storage.Game) error {
	for _, e := range gameIndex(g) {
		if err := tx.Bucket(e.bucket).Delete(e.key); err != nil {
			return err
		}
	}
	return nil
}

// CreateGame implements storage.Store. The challenger's open games are
// read through the open-games index inside the write transaction, and
// bbolt runs one write transaction at a time, so the count cannot change
// between the check and the write.
func (s *Store) CreateGame(ctx context.Context, g *storage.Game, limits storage.Limits) error {
	if err := storage.CheckNew(g); err != nil {
		return fmt.Errorf("storage: create game: %w", err)
	}
	var rec storage.Game
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		if p, ok := g.CappedMember(); ok {
			open, err := cappedGames(tx, p)
			if err != nil {
				return err
			}
			if err := limits.Check(p, open, g.Status == storage.StatusPending); err != nil {
				return err
			}
		}
		seq, err := tx.Bucket(bucketGames).NextSequence()
		if err != nil {
			return err
		}
		rec = storage.NewRecord(g, storage.SequenceID(seq), s.now())
		return putGame(tx, nil, &rec)
	})
	if err != nil {
		return fmt.Errorf("storage: create game: %w", err)
	}
	*g = rec
	return nil
}

// cappedGames loads what counts against member p's caps (Limits): their
// open games and showcases.
func cappedGames(tx *bbolt.Tx, p storage.PlayerID) ([]*storage.Game, error) {
	var open []*storage.Game
	for _, k := range storage.CappedKeys(p) {
		games, err := loadIndexed(tx, bucketOpen, pairPrefix(string(k)), false, 0, nil)
		if err != nil {
			return nil, err
		}
		open = append(open, games...)
	}
	return open, nil
}

// Game implements storage.Store.
func (s *Store) Game(ctx context.Context, id storage.GameID) (*storage.Game, error) {
	var g *storage.Game
	err := s.view(ctx, func(tx *bbolt.Tx) (err error) {
		g, err = getGame(tx, id)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: load game %s: %w", id, err)
	}
	return g, nil
}

// UpdateGame implements storage.Store.
func (s *Store) UpdateGame(ctx context.Context, g *storage.Game) error {
	_, err := s.commitGame(ctx, g, nil)
	return err
}

// FinishGame implements storage.Store.
func (s *Store) FinishGame(ctx context.Context, g *storage.Game, res storage.Result) ([]storage.RatingChange, error) {
	return s.commitGame(ctx, g, &res)
}

// commitGame is UpdateGame (res nil) and FinishGame: it checks the version
// and the status change, writes the game and its indexes and, when
// finishing, the ratings — all in one transaction.
func (s *Store) commitGame(ctx context.Context, g *storage.Game, res *storage.Result) ([]storage.RatingChange, error) {
	var (
		rec     storage.Game
		changes []storage.RatingChange
	)
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		old, err := getGame(tx, g.ID)
		if err != nil {
			return err
		}
		if rec, err = storage.Commit(old, g, res, s.now()); err != nil {
			return err
		}
		changes = nil
		if res != nil {
			if changes, err = applyRatings(tx, &rec, s.ai); err != nil {
				return err
			}
		}
		return putGame(tx, old, &rec)
	})
	if err != nil {
		return nil, fmt.Errorf("storage: update game %s: %w", g.ID, err)
	}
	*g = rec
	return changes, nil
}

// TakeChallenge implements storage.Store. bbolt runs one write
// transaction at a time, so of concurrent takes the first commits and
// the others find the challenge taken; the acceptor's open games are
// counted in the same transaction.
func (s *Store) TakeChallenge(ctx context.Context, g *storage.Game, limits storage.Limits) error {
	var rec storage.Game
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		old, err := getGame(tx, g.ID)
		if err != nil {
			return err
		}
		if rec, err = storage.Take(old, g, s.now()); err != nil {
			return err
		}
		p := rec.Players[1].ID
		open, err := cappedGames(tx, p)
		if err != nil {
			return err
		}
		if err := limits.Check(p, open, false); err != nil {
			return err
		}
		return putGame(tx, old, &rec)
	})
	if err != nil {
		return fmt.Errorf("storage: take challenge %s: %w", g.ID, err)
	}
	*g = rec
	return nil
}

// ClaimRematch implements storage.Store.
func (s *Store) ClaimRematch(ctx context.Context, id storage.GameID) error {
	if err := s.setRematched(ctx, id, true); err != nil {
		return fmt.Errorf("storage: claim the rematch of game %s: %w", id, err)
	}
	return nil
}

// ReleaseRematch implements storage.Store.
func (s *Store) ReleaseRematch(ctx context.Context, id storage.GameID) error {
	if err := s.setRematched(ctx, id, false); err != nil {
		return fmt.Errorf("storage: release the rematch of game %s: %w", id, err)
	}
	return nil
}

// setRematched sets the Rematched mark of an ended game in one
// transaction: claiming a claimed game fails with ErrRematchTaken,
// releasing an unclaimed one does nothing.
func (s *Store) setRematched(ctx context.Context, id storage.GameID, claim bool) error {
	return s.update(ctx, func(tx *bbolt.Tx) error {
		old, err := getGame(tx, id)
		if err != nil {
			return err
		}
		rec, changed, err := storage.MarkRematch(old, claim, s.now())
		if !changed {
			return err
		}
		return putGame(tx, old, &rec)
	})
}

// ActiveGames implements storage.Store.
func (s *Store) ActiveGames(ctx context.Context, p storage.PlayerID) ([]*storage.Game, error) {
	games, err := s.indexedGames(ctx, bucketOpen, pairPrefix(string(p)), false, 0, false)
	if err != nil {
		return nil, fmt.Errorf("storage: active games of %s: %w", p, err)
	}
	return games, nil
}

// AwaitingAI implements storage.Store.
func (s *Store) AwaitingAI(ctx context.Context, shards storage.Shards) ([]*storage.Game, error) {
	games, err := s.indexedGames(ctx, bucketAI, nil, false, 0, true)
	games = slices.DeleteFunc(games, func(g *storage.Game) bool { return !shards.Has(g.GuildID) })
	if err != nil {
		return games, fmt.Errorf("storage: games awaiting the AI: %w", err)
	}
	return games, nil
}

// History implements storage.Store.
func (s *Store) History(ctx context.Context, p storage.PlayerID, limit int) ([]*storage.Game, error) {
	games, err := s.indexedGames(ctx, bucketHistory, pairPrefix(string(p)), true, limit, false)
	if err != nil {
		return nil, fmt.Errorf("storage: history of %s: %w", p, err)
	}
	return games, nil
}

// Solved implements storage.Store.
func (s *Store) Solved(ctx context.Context, p storage.PlayerID, k storage.Kind, limit int) ([]*storage.Game, error) {
	games, err := s.indexedGames(ctx, bucketSolved, solvedPrefix(p, k), true, limit, false)
	if err != nil {
		return nil, fmt.Errorf("storage: %s puzzles solved by %s: %w", k, p, err)
	}
	return games, nil
}

// DueGames implements storage.Store.
func (s *Store) DueGames(ctx context.Context, shards storage.Shards) ([]*storage.Game, error) {
	// Every key of a deadline up to now sorts before this one.
	end := deadlineKey(s.now(), "\xff")
	var (
		games   []*storage.Game
		skipped storage.SkippedError
	)
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		games, skipped = nil, storage.SkippedError{}
		c := tx.Bucket(bucketDeadline).Cursor()
		for k, _ := c.First(); k != nil && bytes.Compare(k, end) <= 0; k, _ = c.Next() {
			g, err := indexedGame(tx, bucketDeadline, storage.GameID(k[8:]), &skipped)
			if err != nil {
				return err
			}
			if g != nil && shards.Has(g.GuildID) {
				games = append(games, g)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: due games: %w", err)
	}
	if err := skipped.Err(); err != nil {
		return games, fmt.Errorf("storage: due games: %w", err)
	}
	return games, nil
}

// indexedGames loads the games named by an index (see indexIDs). With
// skip, a game whose record is corrupt or missing is left out and the
// others returned with a *storage.SkippedError naming it.
func (s *Store) indexedGames(ctx context.Context, bucket, prefix []byte, reverse bool, limit int, skip bool) ([]*storage.Game, error) {
	var (
		games   []*storage.Game
		skipped storage.SkippedError
	)
	err := s.view(ctx, func(tx *bbolt.Tx) (err error) {
		skipped = storage.SkippedError{}
		into := &skipped
		if !skip {
			into = nil
		}
		games, err = loadIndexed(tx, bucket, prefix, reverse, limit, into)
		return err
	})
	if err != nil {
		return nil, err
	}
	return games, skipped.Err()
}

// loadIndexed loads the games named by an index inside tx (see indexIDs);
// with skipped, as indexedGame.
func loadIndexed(tx *bbolt.Tx, bucket, prefix []byte, reverse bool, limit int, skipped *storage.SkippedError) ([]*storage.Game, error) {
	var games []*storage.Game
	for _, id := range indexIDs(tx, bucket, prefix, reverse, limit) {
		g, err := indexedGame(tx, bucket, id, skipped)
		if err != nil {
			return nil, err
		}
		if g != nil {
			games = append(games, g)
		}
	}
	return games, nil
}

// indexedGame loads game id, named by index bucket. With skipped, a game
// whose record is corrupt or missing is named there and nil returned
// instead of an error.
func indexedGame(tx *bbolt.Tx, bucket []byte, id storage.GameID, skipped *storage.SkippedError) (*storage.Game, error) {
	g, err := getGame(tx, id)
	if err == nil {
		return g, nil
	}
	err = fmt.Errorf("game %s in index %s: %w", id, bucket, err)
	if skipped != nil && (errors.Is(err, storage.ErrCorrupt) || errors.Is(err, storage.ErrNotFound)) {
		skipped.Skip(id, err)
		return nil, nil
	}
	return nil, err
}

// indexIDs returns the game ids of the index keys with the given prefix,
// the id being the rest of the key — in key order or, if reverse,
// backwards — stopping after limit ids when limit > 0.
func indexIDs(tx *bbolt.Tx, bucket, prefix []byte, reverse bool, limit int) []storage.GameID {
	var ids []storage.GameID
	c := tx.Bucket(bucket).Cursor()
	var k []byte
	step := c.Next
	if reverse {
		step = c.Prev
		// Seek past the last key with the prefix (ids are ASCII), then
		// step back.
		if k, _ = c.Seek(append(bytes.Clone(prefix), 0xff)); k == nil {
			k, _ = c.Last()
		} else {
			k, _ = c.Prev()
		}
	} else {
		k, _ = c.Seek(prefix)
	}
	for ; k != nil && bytes.HasPrefix(k, prefix) && (limit <= 0 || len(ids) < limit); k, _ = step() {
		ids = append(ids, storage.GameID(k[len(prefix):]))
	}
	return ids
}

// forEachOpen calls fn with each open game once, walking the open-games
// index (which lists a duel under both of its players). A game whose
// record is corrupt, or missing, goes to skipped instead.
func forEachOpen(ctx context.Context, tx *bbolt.Tx, skipped *storage.SkippedError, fn func(*storage.Game)) error {
	seen := map[string]bool{}
	return tx.Bucket(bucketOpen).ForEach(func(k, _ []byte) error {
		_, id, _ := bytes.Cut(k, []byte{0})
		if seen[string(id)] {
			return nil
		}
		seen[string(id)] = true
		g, err := indexedGame(tx, bucketOpen, storage.GameID(id), skipped)
		if err != nil {
			return err
		}
		if g != nil {
			fn(g)
		}
		return ctx.Err()
	})
}

// CountOpen implements storage.Store.
func (s *Store) CountOpen(ctx context.Context) (pending, active int, err error) {
	var skipped storage.SkippedError
	err = s.view(ctx, func(tx *bbolt.Tx) error {
		pending, active, skipped = 0, 0, storage.SkippedError{}
		return forEachOpen(ctx, tx, &skipped, func(g *storage.Game) {
			switch g.Status {
			case storage.StatusPending:
				pending++
			case storage.StatusActive:
				active++
			}
		})
	})
	if err != nil {
		return 0, 0, fmt.Errorf("storage: count open games: %w", err)
	}
	if err := skipped.Err(); err != nil {
		return pending, active, fmt.Errorf("storage: count open games: %w", err)
	}
	return pending, active, nil
}

// OpenGames implements storage.Store. There is no index by guild or time:
// it reads every open game once.
func (s *Store) OpenGames(ctx context.Context, shards storage.Shards, keep func(*storage.Game) bool) ([]*storage.Game, error) {
	var (
		games   []*storage.Game
		skipped storage.SkippedError
	)
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		games, skipped = nil, storage.SkippedError{}
		return forEachOpen(ctx, tx, &skipped, func(g *storage.Game) {
			if shards.Has(g.GuildID) && (keep == nil || keep(g)) {
				games = append(games, g)
			}
		})
	})
	if err != nil {
		return nil, fmt.Errorf("storage: open games: %w", err)
	}
	slices.SortFunc(games, func(a, b *storage.Game) int { return strings.Compare(string(a.ID), string(b.ID)) })
	if err := skipped.Err(); err != nil {
		return games, fmt.Errorf("storage: open games: %w", err)
	}
	return games, nil
}
