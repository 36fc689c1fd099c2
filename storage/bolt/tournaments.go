package bolt

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"time"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage"
)

// tournamentIndex returns the index entries tournament t must have — the
// single definition used by every write and by Check: its guild's open
// or history entry, one entry per entrant, one per game of its boards.
func tournamentIndex(t *storage.Tournament) []indexEntry {
	id := string(t.ID)
	guild := bucketTournamentOpen
	if t.Status.Ended() {
		guild = bucketTournamentHistory
	}
	out := []indexEntry{{guild, pairKey(t.GuildID, id)}}
	for _, p := range t.Players() {
		out = append(out, indexEntry{bucketTournamentPlayers, pairKey(string(p), id)})
	}
	for _, g := range t.Games() {
		out = append(out, indexEntry{bucketTournamentGames, pairKey(string(g), id)})
	}
	return out
}

// decodeTournament decodes and validates a tournament record stored
// under key.
func decodeTournament(key, data []byte) (*storage.Tournament, error) {
	var t storage.Tournament
	if err := decodeRecord(string(bucketTournaments), key, data, &t); err != nil {
		return nil, err
	}
	if err := storage.CheckStoredTournament(string(key), &t); err != nil {
		return nil, &storage.RecordError{Bucket: string(bucketTournaments), Key: string(key), Err: err}
	}
	return &t, nil
}

// getTournament loads tournament id inside tx.
func getTournament(tx *bbolt.Tx, id storage.TournamentID) (*storage.Tournament, error) {
	data := tx.Bucket(bucketTournaments).Get([]byte(id))
	if data == nil {
		return nil, storage.ErrNotFound
	}
	return decodeTournament([]byte(id), data)
}

// putTournament writes t, replacing old (nil for a new one) and moving
// the index entries from old's to t's.
func putTournament(tx *bbolt.Tx, old, t *storage.Tournament) error {
	if old != nil {
		for _, e := range tournamentIndex(old) {
			if err := tx.Bucket(e.bucket).Delete(e.key); err != nil {
				return err
			}
		}
	}
	for _, e := range tournamentIndex(t) {
		if err := tx.Bucket(e.bucket).Put(e.key, nil); err != nil {
			return err
		}
	}
	data, err := encode(t)
	if err != nil {
		return err
	}
	return tx.Bucket(bucketTournaments).Put([]byte(t.ID), data)
}

// CreateTournament implements storage.Store. The guild's open
// tournaments are counted from the index inside the write transaction,
// and bbolt runs one at a time, so the cap holds.
func (s *Store) CreateTournament(ctx context.Context, t *storage.Tournament, caps storage.TournamentCaps) error {
	var rec storage.Tournament
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		open := 0
		prefix := pairPrefix(t.GuildID)
		c := tx.Bucket(bucketTournamentOpen).Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			open++
		}
		seq, err := tx.Bucket(bucketTournaments).NextSequence()
		if err != nil {
			return err
		}
		if rec, err = storage.NewTournament(t, storage.TournamentID(storage.SequenceID(seq)), caps, open, s.now()); err != nil {
			return err
		}
		return putTournament(tx, nil, &rec)
	})
	if err != nil {
		return fmt.Errorf("storage: create tournament: %w", err)
	}
	*t = rec
	return nil
}

// Tournament implements storage.Store.
func (s *Store) Tournament(ctx context.Context, id storage.TournamentID) (*storage.Tournament, error) {
	var t *storage.Tournament
	err := s.view(ctx, func(tx *bbolt.Tx) (err error) {
		t, err = getTournament(tx, id)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: load tournament %s: %w", id, err)
	}
	return t, nil
}

// changeTournament loads tournament id in a write transaction, gives it
// to change, and stores the record change returns when it reports one;
// it returns what is stored. change may run twice (a batched
// transaction) and must only compute.
func (s *Store) changeTournament(ctx context.Context, id storage.TournamentID, what string,
	change func(tx *bbolt.Tx, old *storage.Tournament) (storage.Tournament, bool, error)) (*storage.Tournament, bool, error) {
	var (
		out   *storage.Tournament
		wrote bool
	)
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		out, wrote = nil, false
		old, err := getTournament(tx, id)
		if err != nil {
			return err
		}
		rec, ok, err := change(tx, old)
		if err != nil {
			return err
		}
		if !ok {
			out = old
			return nil
		}
		out, wrote = &rec, true
		return putTournament(tx, old, &rec)
	})
	if err != nil {
		return nil, false, fmt.Errorf("storage: %s tournament %s: %w", what, id, err)
	}
	return out, wrote, nil
}

// always adapts a change that always writes to changeTournament.
func always(f func(*storage.Tournament) (storage.Tournament, error)) func(*bbolt.Tx, *storage.Tournament) (storage.Tournament, bool, error) {
	return func(_ *bbolt.Tx, old *storage.Tournament) (storage.Tournament, bool, error) {
		rec, err := f(old)
		return rec, err == nil, err
	}
}

// JoinTournament implements storage.Store.
func (s *Store) JoinTournament(ctx context.Context, id storage.TournamentID, e storage.Entrant) (*storage.Tournament, error) {
	t, _, err := s.changeTournament(ctx, id, "join", always(func(old *storage.Tournament) (storage.Tournament, error) {
		return storage.Join(old, e, s.now())
	}))
	return t, err
}

// LeaveTournament implements storage.Store.
func (s *Store) LeaveTournament(ctx context.Context, id storage.TournamentID, p storage.PlayerID) (*storage.Tournament, error) {
	t, _, err := s.changeTournament(ctx, id, "leave", always(func(old *storage.Tournament) (storage.Tournament, error) {
		return storage.Leave(old, p, s.now())
	}))
	return t, err
}

// SetTournamentStatus implements storage.Store.
func (s *Store) SetTournamentStatus(ctx context.Context, id storage.TournamentID, to storage.TournamentStatus) (*storage.Tournament, error) {
	t, _, err := s.changeTournament(ctx, id, "set the status of", func(tx *bbolt.Tx, old *storage.Tournament) (storage.Tournament, bool, error) {
		now := s.now()
		rec, err := storage.SetStatus(old, to, now)
		if err != nil {
			return rec, false, err
		}
		pause, ok := storage.PausesClocks(old.Status, to)
		if !ok {
			return rec, true, nil
		}
		for _, gid := range old.PendingGames() {
			g, err := getGame(tx, gid)
			if err != nil {
				return rec, false, fmt.Errorf("game %s: %w", gid, err)
			}
			if ng, ok := storage.PauseGame(g, pause, now); ok {
				if err := putGame(tx, g, &ng); err != nil {
					return rec, false, err
				}
			}
		}
		return rec, true, nil
	})
	return t, err
}

// AnnounceRound implements storage.Store.
func (s *Store) AnnounceRound(ctx context.Context, id storage.TournamentID, n int) (*storage.Tournament, bool, error) {
	return s.changeTournament(ctx, id, "announce a round of", func(_ *bbolt.Tx, old *storage.Tournament) (storage.Tournament, bool, error) {
		return storage.Announce(old, n, s.now())
	})
}

// FinishTournament implements storage.Store.
func (s *Store) FinishTournament(ctx context.Context, id storage.TournamentID, placings []storage.Placing) (*storage.Tournament, error) {
	t, _, err := s.changeTournament(ctx, id, "finish", always(func(old *storage.Tournament) (storage.Tournament, error) {
		return storage.Finish(old, placings, s.now())
	}))
	return t, err
}

// PairRound implements storage.Store: the round and its games are one
// transaction, and of racing pairings of one round the second finds it
// recorded.
func (s *Store) PairRound(ctx context.Context, id storage.TournamentID, version uint64, r storage.Round, games []*storage.Game) (*storage.Tournament, bool, error) {
	return s.changeTournament(ctx, id, "pair a round of", func(tx *bbolt.Tx, old *storage.Tournament) (storage.Tournament, bool, error) {
		now := s.now()
		rec, ok, err := storage.AddRound(old, version, r, games, now)
		if err != nil || !ok {
			return rec, ok, err
		}
		ids := make([]storage.GameID, len(games))
		for i, g := range games {
			seq, err := tx.Bucket(bucketGames).NextSequence()
			if err != nil {
				return rec, false, err
			}
			grec := storage.NewRecord(g, storage.SequenceID(seq), now)
			if err := putGame(tx, nil, &grec); err != nil {
				return rec, false, err
			}
			ids[i] = grec.ID
		}
		return rec, true, storage.SetBoardGames(&rec, ids)
	})
}

// RecordTournamentResult implements storage.Store: the game and the
// tournament are read in the one write transaction that sets the board.
func (s *Store) RecordTournamentResult(ctx context.Context, game storage.GameID) (*storage.Tournament, bool, error) {
	var id storage.TournamentID
	if err := s.view(ctx, func(tx *bbolt.Tx) error {
		var err error
		id, err = tournamentOfGame(tx, game)
		return err
	}); err != nil {
		return nil, false, fmt.Errorf("storage: record the result of game %s: %w", game, err)
	}
	return s.changeTournament(ctx, id, "record a result in", func(tx *bbolt.Tx, old *storage.Tournament) (storage.Tournament, bool, error) {
		g, err := getGame(tx, game)
		if err != nil {
			return storage.Tournament{}, false, err
		}
		return storage.SetResult(old, g, s.now())
	})
}

// tournamentOfGame returns the tournament whose board plays game.
func tournamentOfGame(tx *bbolt.Tx, game storage.GameID) (storage.TournamentID, error) {
	prefix := pairPrefix(string(game))
	k, _ := tx.Bucket(bucketTournamentGames).Cursor().Seek(prefix)
	if k == nil || !bytes.HasPrefix(k, prefix) {
		return "", fmt.Errorf("%w: game %s is in no tournament", storage.ErrNotFound, game)
	}
	return storage.TournamentID(k[len(prefix):]), nil
}

// indexedTournaments loads the tournaments of the index keys of bucket
// under prefix (prefix ‖ tournament id), leaving a corrupt one to
// skipped.
func indexedTournaments(tx *bbolt.Tx, bucket, prefix []byte, skipped *storage.SkippedTournamentsError) ([]*storage.Tournament, error) {
	var out []*storage.Tournament
	c := tx.Bucket(bucket).Cursor()
	k, _ := c.First()
	if len(prefix) > 0 {
		k, _ = c.Seek(prefix)
	}
	for ; k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		_, id, _ := bytes.Cut(k, []byte{0})
		t, err := getTournament(tx, storage.TournamentID(id))
		if err != nil {
			skipped.Skip(storage.TournamentID(id), err)
			continue
		}
		out = append(out, t)
	}
	return out, nil
}

// listTournaments runs list in a read transaction and returns its
// tournaments with the skipped ones' error.
func (s *Store) listTournaments(ctx context.Context, what string, list func(tx *bbolt.Tx, skipped *storage.SkippedTournamentsError) ([]*storage.Tournament, error)) ([]*storage.Tournament, error) {
	var (
		out     []*storage.Tournament
		skipped storage.SkippedTournamentsError
	)
	err := s.view(ctx, func(tx *bbolt.Tx) (err error) {
		skipped = storage.SkippedTournamentsError{}
		out, err = list(tx, &skipped)
		return err
	})
	if err == nil {
		err = skipped.Err()
	}
	if err != nil {
		return out, fmt.Errorf("storage: %s: %w", what, err)
	}
	return out, nil
}

// GuildTournaments implements storage.Store.
func (s *Store) GuildTournaments(ctx context.Context, guildID string, history int) ([]*storage.Tournament, error) {
	return s.listTournaments(ctx, "tournaments of guild "+guildID, func(tx *bbolt.Tx, skipped *storage.SkippedTournamentsError) ([]*storage.Tournament, error) {
		open, _ := indexedTournaments(tx, bucketTournamentOpen, pairPrefix(guildID), skipped)
		ended, _ := indexedTournaments(tx, bucketTournamentHistory, pairPrefix(guildID), skipped)
		return storage.SortTournaments(append(open, ended...), history), nil
	})
}

// OpenTournaments implements storage.Store: it reads every tournament
// not ended, which the caps keep few.
func (s *Store) OpenTournaments(ctx context.Context, shards storage.Shards) ([]*storage.Tournament, error) {
	return s.listTournaments(ctx, "open tournaments", func(tx *bbolt.Tx, skipped *storage.SkippedTournamentsError) ([]*storage.Tournament, error) {
		all, _ := indexedTournaments(tx, bucketTournamentOpen, nil, skipped)
		all = slices.DeleteFunc(all, func(t *storage.Tournament) bool { return !shards.Has(t.GuildID) })
		return storage.SortTournaments(all, 0), nil
	})
}

// PlayerTournaments implements storage.Store.
func (s *Store) PlayerTournaments(ctx context.Context, p storage.PlayerID, limit int) ([]storage.PlayerTournament, error) {
	var out []storage.PlayerTournament
	_, err := s.listTournaments(ctx, "tournaments of "+string(p), func(tx *bbolt.Tx, skipped *storage.SkippedTournamentsError) ([]*storage.Tournament, error) {
		out = nil
		list, _ := indexedTournaments(tx, bucketTournamentPlayers, pairPrefix(string(p)), skipped)
		for _, t := range slices.Backward(list) {
			if r, ok := t.Result(p); ok && (limit <= 0 || len(out) < limit) {
				out = append(out, r)
			}
		}
		return nil, nil
	})
	return out, err
}

// checkTournaments adds to c the tournament records that do not decode,
// their index entries, and the games of their boards still on that do
// not exist.
func checkTournaments(tx *bbolt.Tx, c *checker) {
	_ = tx.Bucket(bucketTournaments).ForEach(func(k, v []byte) error {
		t, err := decodeTournament(k, v)
		if err != nil {
			c.addf("%v", err)
			return nil
		}
		for _, e := range tournamentIndex(t) {
			c.expect(string(e.bucket), e.key)
		}
		for _, g := range t.PendingGames() {
			if tx.Bucket(bucketGames).Get([]byte(g)) == nil {
				c.addf("tournament %s: game %s, still on, does not exist", t.ID, g)
			}
		}
		return nil
	})
	for _, b := range [][]byte{bucketTournamentOpen, bucketTournamentHistory, bucketTournamentPlayers, bucketTournamentGames} {
		c.compare(string(b), tx.Bucket(b))
	}
}

// exportTournaments gives put every tournament when it takes them
// (storage.TournamentSink).
func exportTournaments(tx *bbolt.Tx, put storage.Sink) error {
	ts, ok := put.(storage.TournamentSink)
	if !ok {
		return nil
	}
	return tx.Bucket(bucketTournaments).ForEach(func(k, v []byte) error {
		t, err := decodeTournament(k, v)
		if err != nil {
			return err
		}
		return ts.Tournament(t)
	})
}

// Tournament implements storage.TournamentSink: the record with its
// index entries.
func (k *importSink) Tournament(t *storage.Tournament) error {
	seq, err := storage.CheckImportedTournament(t)
	if err != nil {
		return err
	}
	k.maxTournament = max(k.maxTournament, seq)
	return putTournament(k.tx, nil, t)
}

// eraseFromTournaments replaces member p in their tournaments, for
// DeleteUser (storage.Erase).
func eraseFromTournaments(tx *bbolt.Tx, p storage.PlayerID, now time.Time) error {
	var ids []storage.TournamentID
	prefix := pairPrefix(string(p))
	c := tx.Bucket(bucketTournamentPlayers).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		ids = append(ids, storage.TournamentID(k[len(prefix):]))
	}
	for _, id := range ids {
		old, err := getTournament(tx, id)
		if err != nil {
			return fmt.Errorf("tournament %s: %w", id, err)
		}
		rec, ok, err := storage.Erase(old, p, now)
		if err != nil {
			return fmt.Errorf("tournament %s: %w", id, err)
		}
		if ok {
			if err := putTournament(tx, old, &rec); err != nil {
				return err
			}
		}
	}
	return nil
}
