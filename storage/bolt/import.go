package bolt

import (
	"bytes"
	"context"
	"fmt"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage"
)

var _ storage.Importer = (*Store)(nil)

// Import implements storage.Importer: fill's records are written in one
// write transaction with their indexes, and the game and tournament id
// sequences are moved past the highest ids copied. It refuses a file that holds any game,
// rating, guild's or user's settings.
func (s *Store) Import(ctx context.Context, fill func(storage.Sink) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("storage: import into %s: %w", s.path, err)
	}
	// One transaction, never batched with others: a fill can be large,
	// and Batch may run it twice.
	err := s.db.Update(func(tx *bbolt.Tx) error {
		for _, b := range [][]byte{bucketGames, bucketRatings, bucketGuilds, bucketUsers} {
			if k, _ := tx.Bucket(b).Cursor().First(); k != nil {
				return storage.ErrNotEmpty
			}
		}
		sink := &importSink{ctx: ctx, tx: tx}
		if err := fill(sink); err != nil {
			return err
		}
		if err := tx.Bucket(bucketTournaments).SetSequence(max(tx.Bucket(bucketTournaments).Sequence(), sink.maxTournament)); err != nil {
			return err
		}
		return tx.Bucket(bucketGames).SetSequence(max(tx.Bucket(bucketGames).Sequence(), sink.maxSeq))
	})
	if err != nil {
		return fmt.Errorf("storage: import into %s: %w", s.path, err)
	}
	return nil
}

// importSink writes records into an import's transaction.
type importSink struct {
	ctx           context.Context
	tx            *bbolt.Tx
	maxSeq        uint64
	maxTournament uint64 // the highest tournament id's sequence number
}

func (k *importSink) Game(g *storage.Game) error {
	seq, err := storage.CheckImportedGame(g)
	if err != nil {
		return err
	}
	k.maxSeq = max(k.maxSeq, seq)
	if err := putGame(k.tx, nil, g); err != nil {
		return err
	}
	return k.ctx.Err()
}

func (k *importSink) Rating(l storage.Ladder, r storage.Rating) error {
	if err := r.Validate(); err != nil {
		return fmt.Errorf("rating of %s in %s: %w", r.Player, l, err)
	}
	return putRating(k.tx, l, storage.Rating{}, r)
}

func (k *importSink) GuildSettings(guildID string, gs storage.GuildSettings) error {
	if err := gs.Validate(); err != nil {
		return fmt.Errorf("settings of guild %s: %w", guildID, err)
	}
	return k.put(bucketGuilds, guildID, gs)
}

func (k *importSink) UserSettings(userID string, us storage.UserSettings) error {
	if err := us.Validate(); err != nil {
		return fmt.Errorf("settings of user %s: %w", userID, err)
	}
	return k.put(bucketUsers, userID, us)
}

func (k *importSink) DailyAttempt(a storage.DailyAttempt) error {
	if err := a.Validate(); err != nil {
		return err
	}
	if a.Status == storage.DailySolved {
		if err := k.tx.Bucket(bucketDailySolved).Put(dailySolvedKey(a.GuildID, a.Player.ID, a.Day), nil); err != nil {
			return err
		}
	}
	return k.put(bucketDaily, string(dailyKey(a.GuildID, a.Day, a.Player.ID)), a)
}

func (k *importSink) DailyPost(guildID, day string) error {
	if guildID == "" || !storage.ValidDay(day) {
		return fmt.Errorf("%w: daily post of guild %q on %q", storage.ErrInvalid, guildID, day)
	}
	return k.tx.Bucket(bucketDailyPosts).Put([]byte(guildID+"\x00"+day), nil)
}

// Secret writes a copied secret, replacing the file's own of that name.
func (k *importSink) Secret(name string, value []byte) error {
	if err := storage.CheckSecret(name, value); err != nil {
		return fmt.Errorf("secret %q: %w", name, err)
	}
	return k.tx.Bucket(bucketSecrets).Put([]byte(name), bytes.Clone(value))
}

// put writes v's record under key in bucket b.
func (k *importSink) put(b []byte, key string, v any) error {
	data, err := encode(v)
	if err != nil {
		return err
	}
	return k.tx.Bucket(b).Put([]byte(key), data)
}
