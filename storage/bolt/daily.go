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

// dailyKey is the key of an attempt in bucketDaily: guild \x00 day \x00
// player.
func dailyKey(guildID, day string, p storage.PlayerID) []byte {
	return []byte(guildID + "\x00" + day + "\x00" + string(p))
}

// dailySolvedKey is the key of a solved attempt in bucketDailySolved:
// guild \x00 player \x00 day.
func dailySolvedKey(guildID string, p storage.PlayerID, day string) []byte {
	return []byte(guildID + "\x00" + string(p) + "\x00" + day)
}

// decodeDaily decodes and validates an attempt record stored under key.
func decodeDaily(key, data []byte) (storage.DailyAttempt, error) {
	a, err := decodeSettings[storage.DailyAttempt](bucketDaily, key, data)
	if err == nil && !bytes.Equal(key, dailyKey(a.GuildID, a.Day, a.Player.ID)) {
		err = &storage.RecordError{Bucket: string(bucketDaily), Key: string(key), Err: errors.New("the record is of another guild, day or player")}
	}
	return a, err
}

// DailyAttempt implements storage.Store.
func (s *Store) DailyAttempt(ctx context.Context, guildID, day string, p storage.PlayerID) (storage.DailyAttempt, error) {
	var a storage.DailyAttempt
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		key := dailyKey(guildID, day, p)
		data := tx.Bucket(bucketDaily).Get(key)
		if data == nil {
			return storage.ErrNotFound
		}
		var err error
		a, err = decodeDaily(key, data)
		return err
	})
	if err != nil {
		return storage.DailyAttempt{}, fmt.Errorf("storage: daily attempt of %s in guild %s on %s: %w", p, guildID, day, err)
	}
	return a, nil
}

// UpdateDailyAttempt implements storage.Store. Under concurrent writers
// the transaction may run twice, and change with it.
func (s *Store) UpdateDailyAttempt(ctx context.Context, guildID, day string, p storage.Player, change func(*storage.DailyAttempt) error) (storage.DailyAttempt, error) {
	var a storage.DailyAttempt
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		key := dailyKey(guildID, day, p.ID)
		b := tx.Bucket(bucketDaily)
		a = storage.DailyAttempt{GuildID: guildID, Day: day, Player: p, Status: storage.DailyPlaying}
		if data := b.Get(key); data != nil {
			var err error
			if a, err = decodeDaily(key, data); err != nil {
				return err
			}
			if a.Status.Ended() {
				return storage.ErrGameOver
			}
		}
		if err := change(&a); err != nil {
			return err
		}
		a.GuildID, a.Day, a.Player.ID, a.UpdatedAt = guildID, day, p.ID, s.now()
		if err := a.Validate(); err != nil {
			return err
		}
		data, err := encode(a)
		if err != nil {
			return err
		}
		if err := b.Put(key, data); err != nil {
			return err
		}
		if a.Status == storage.DailySolved {
			return tx.Bucket(bucketDailySolved).Put(dailySolvedKey(guildID, p.ID, day), nil)
		}
		return nil
	})
	if err != nil {
		return storage.DailyAttempt{}, fmt.Errorf("storage: update daily attempt of %s in guild %s on %s: %w", p.ID, guildID, day, err)
	}
	return a, nil
}

// DailyAttempts implements storage.Store.
func (s *Store) DailyAttempts(ctx context.Context, guildID, day string) ([]storage.DailyAttempt, error) {
	var out []storage.DailyAttempt
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		out = nil
		prefix := []byte(guildID + "\x00" + day + "\x00")
		c := tx.Bucket(bucketDaily).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			a, err := decodeDaily(k, v)
			if err != nil {
				return err
			}
			out = append(out, a)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: daily attempts in guild %s on %s: %w", guildID, day, err)
	}
	storage.SortDailyAttempts(out)
	return out, nil
}

// DailySolvedDays implements storage.Store.
func (s *Store) DailySolvedDays(ctx context.Context, guildID string, p storage.PlayerID, limit int) ([]string, error) {
	var days []string
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		days = nil
		prefix := dailySolvedKey(guildID, p, "")
		c := tx.Bucket(bucketDailySolved).Cursor()
		// Seek past the prefix's last key, then walk back.
		end := append(slices.Clone(prefix), 0xff)
		k, _ := c.Seek(end)
		if k == nil {
			k, _ = c.Last()
		} else {
			k, _ = c.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix) && (limit <= 0 || len(days) < limit); k, _ = c.Prev() {
			days = append(days, string(k[len(prefix):]))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: daily solves of %s in guild %s: %w", p, guildID, err)
	}
	return days, nil
}

// ClaimDailyPost implements storage.Store.
func (s *Store) ClaimDailyPost(ctx context.Context, guildID, day string) (bool, error) {
	claimed := false
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		claimed = false
		if guildID == "" || !storage.ValidDay(day) {
			return fmt.Errorf("%w: guild %q, day %q", storage.ErrInvalid, guildID, day)
		}
		b := tx.Bucket(bucketDailyPosts)
		key := []byte(guildID + "\x00" + day)
		if b.Get(key) != nil {
			return nil
		}
		claimed = true
		return b.Put(key, nil)
	})
	if err != nil {
		return false, fmt.Errorf("storage: claim the daily post of guild %s on %s: %w", guildID, day, err)
	}
	return claimed, nil
}

// DailyChannels implements storage.Store: it reads every guild's
// settings, which are few and small.
func (s *Store) DailyChannels(ctx context.Context) (map[string]string, error) {
	out := map[string]string{}
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		clear(out)
		return tx.Bucket(bucketGuilds).ForEach(func(k, v []byte) error {
			gs, err := decodeGuildSettings(k, v)
			if err != nil {
				return err
			}
			if gs.DailyChannel != "" {
				out[string(k)] = gs.DailyChannel
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("storage: daily channels: %w", err)
	}
	return out, nil
}

// deleteDaily removes player p's daily attempts and solves, for DeleteUser.
func deleteDaily(tx *bbolt.Tx, p storage.PlayerID) error {
	for _, bucket := range [][]byte{bucketDaily, bucketDailySolved} {
		var keys [][]byte
		_ = tx.Bucket(bucket).ForEach(func(k, _ []byte) error {
			parts := strings.Split(string(k), "\x00")
			if len(parts) == 3 && (bytes.Equal(bucket, bucketDaily) && parts[2] == string(p) || bytes.Equal(bucket, bucketDailySolved) && parts[1] == string(p)) {
				keys = append(keys, slices.Clone(k))
			}
			return nil
		})
		for _, k := range keys {
			if err := tx.Bucket(bucket).Delete(k); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkDaily adds to c the attempt records that do not decode and the
// solved index's entries that disagree with them.
func checkDaily(tx *bbolt.Tx, c *checker) {
	_ = tx.Bucket(bucketDaily).ForEach(func(k, v []byte) error {
		a, err := decodeDaily(k, v)
		if err != nil {
			c.addf("%v", err)
		} else if a.Status == storage.DailySolved {
			c.expect(string(bucketDailySolved), dailySolvedKey(a.GuildID, a.Player.ID, a.Day))
		}
		return nil
	})
	c.compare(string(bucketDailySolved), tx.Bucket(bucketDailySolved))
}

// exportDaily gives put the attempts and posts of the daily puzzles.
func exportDaily(tx *bbolt.Tx, put storage.Sink) error {
	if err := tx.Bucket(bucketDaily).ForEach(func(k, v []byte) error {
		a, err := decodeDaily(k, v)
		if err != nil {
			return err
		}
		return put.DailyAttempt(a)
	}); err != nil {
		return err
	}
	return tx.Bucket(bucketDailyPosts).ForEach(func(k, _ []byte) error {
		guild, day, _ := strings.Cut(string(k), "\x00")
		return put.DailyPost(guild, day)
	})
}
