package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/gambitbot/gambit/storage"
)

// decodeDaily decodes and validates an attempt record, which must be of
// the guild, day and player of its row.
func decodeDaily(guildID, day, player string, data []byte) (storage.DailyAttempt, error) {
	var a storage.DailyAttempt
	err := storage.DecodeJSON(data, &a)
	if err == nil {
		err = a.Validate()
	}
	if err == nil && (a.GuildID != guildID || a.Day != day || string(a.Player.ID) != player) {
		err = errors.New("the record is of another guild, day or player")
	}
	if err != nil {
		return a, &storage.RecordError{Bucket: "daily_attempts", Key: guildID + "/" + day + "/" + player, Err: err}
	}
	return a, nil
}

// DailyAttempt implements storage.Store.
func (s *Store) DailyAttempt(ctx context.Context, guildID, day string, p storage.PlayerID) (storage.DailyAttempt, error) {
	var a storage.DailyAttempt
	err := s.view(ctx, func(tx pgx.Tx) error {
		var data []byte
		err := tx.QueryRow(ctx, "SELECT record FROM daily_attempts WHERE guild_id = $1 AND day = $2 AND player = $3", guildID, day, string(p)).Scan(&data)
		if errors.Is(err, pgx.ErrNoRows) {
			return storage.ErrNotFound
		}
		if err != nil {
			return err
		}
		a, err = decodeDaily(guildID, day, string(p), data)
		return err
	})
	if err != nil {
		return storage.DailyAttempt{}, fmt.Errorf("storage: daily attempt of %s in guild %s on %s: %w", p, guildID, day, err)
	}
	return a, nil
}

// UpdateDailyAttempt implements storage.Store: the attempt's row is
// locked while change runs, so that two changes at once happen one after
// the other. A retried transaction calls change again.
func (s *Store) UpdateDailyAttempt(ctx context.Context, guildID, day string, p storage.Player, change func(*storage.DailyAttempt) error) (storage.DailyAttempt, error) {
	var a storage.DailyAttempt
	err := s.update(ctx, func(tx pgx.Tx) error {
		a = storage.DailyAttempt{GuildID: guildID, Day: day, Player: p, Status: storage.DailyPlaying}
		if err := a.Validate(); err != nil {
			return err
		}
		// A row to lock, also for a new attempt: inserted with the new
		// attempt's record, or left as it is.
		fresh, err := json.Marshal(a)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO daily_attempts (guild_id, day, player, status, record) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT DO NOTHING`, guildID, day, string(p.ID), string(a.Status), fresh); err != nil {
			return err
		}
		var data []byte
		if err := tx.QueryRow(ctx, "SELECT record FROM daily_attempts WHERE guild_id = $1 AND day = $2 AND player = $3 FOR UPDATE",
			guildID, day, string(p.ID)).Scan(&data); err != nil {
			return err
		}
		if a, err = decodeDaily(guildID, day, string(p.ID), data); err != nil {
			return err
		}
		if a.Status.Ended() {
			return storage.ErrGameOver
		}
		if err := change(&a); err != nil {
			return err
		}
		a.GuildID, a.Day, a.Player.ID, a.UpdatedAt = guildID, day, p.ID, s.now()
		if err := a.Validate(); err != nil {
			return err
		}
		if data, err = json.Marshal(a); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, "UPDATE daily_attempts SET status = $4, record = $5 WHERE guild_id = $1 AND day = $2 AND player = $3",
			guildID, day, string(p.ID), string(a.Status), data)
		return err
	})
	if err != nil {
		return storage.DailyAttempt{}, fmt.Errorf("storage: update daily attempt of %s in guild %s on %s: %w", p.ID, guildID, day, err)
	}
	return a, nil
}

// DailyAttempts implements storage.Store.
func (s *Store) DailyAttempts(ctx context.Context, guildID, day string) ([]storage.DailyAttempt, error) {
	var out []storage.DailyAttempt
	err := s.view(ctx, func(tx pgx.Tx) error {
		out = nil
		rows, err := tx.Query(ctx, "SELECT player, record FROM daily_attempts WHERE guild_id = $1 AND day = $2", guildID, day)
		if err != nil {
			return err
		}
		var (
			player string
			data   []byte
		)
		_, err = pgx.ForEachRow(rows, []any{&player, &data}, func() error {
			a, err := decodeDaily(guildID, day, player, data)
			if err != nil {
				return err
			}
			out = append(out, a)
			return nil
		})
		return err
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
	err := s.view(ctx, func(tx pgx.Tx) error {
		days = nil
		q := "SELECT day FROM daily_attempts WHERE guild_id = $1 AND player = $2 AND status = 'solved' ORDER BY day DESC"
		args := []any{guildID, string(p)}
		if limit > 0 {
			q += " LIMIT $3"
			args = append(args, limit)
		}
		rows, err := tx.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		days, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: daily solves of %s in guild %s: %w", p, guildID, err)
	}
	return days, nil
}

// ClaimDailyPost implements storage.Store.
func (s *Store) ClaimDailyPost(ctx context.Context, guildID, day string) (bool, error) {
	claimed := false
	err := s.update(ctx, func(tx pgx.Tx) error {
		claimed = false
		if guildID == "" || !storage.ValidDay(day) {
			return fmt.Errorf("%w: guild %q, day %q", storage.ErrInvalid, guildID, day)
		}
		tag, err := tx.Exec(ctx, "INSERT INTO daily_posts (guild_id, day) VALUES ($1, $2) ON CONFLICT DO NOTHING", guildID, day)
		claimed = err == nil && tag.RowsAffected() == 1
		return err
	})
	if err != nil {
		return false, fmt.Errorf("storage: claim the daily post of guild %s on %s: %w", guildID, day, err)
	}
	return claimed, nil
}

// DailyChannels implements storage.Store.
func (s *Store) DailyChannels(ctx context.Context) (map[string]string, error) {
	out := map[string]string{}
	err := s.view(ctx, func(tx pgx.Tx) error {
		clear(out)
		rows, err := tx.Query(ctx, "SELECT guild_id, record->>'daily_channel' FROM guilds WHERE coalesce(record->>'daily_channel', '') <> ''")
		if err != nil {
			return err
		}
		var guild, channel string
		_, err = pgx.ForEachRow(rows, []any{&guild, &channel}, func() error {
			out[guild] = channel
			return nil
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: daily channels: %w", err)
	}
	return out, nil
}

// checkDaily reports the attempt records that do not decode or whose
// status column disagrees with them.
func checkDaily(ctx context.Context, tx pgx.Tx, addf func(string, ...any)) error {
	rows, err := tx.Query(ctx, "SELECT guild_id, day, player, status, record FROM daily_attempts ORDER BY guild_id, day, player")
	if err != nil {
		return err
	}
	var guild, day, player, status string
	var data []byte
	_, err = pgx.ForEachRow(rows, []any{&guild, &day, &player, &status, &data}, func() error {
		a, err := decodeDaily(guild, day, player, data)
		if err != nil {
			addf("%v", err)
		} else if string(a.Status) != status {
			addf("daily attempt %s/%s/%s: status column %q disagrees with the record's %q", guild, day, player, status, a.Status)
		}
		return ctx.Err()
	})
	return err
}

// exportDaily gives put the attempts and posts of the daily puzzles.
func exportDaily(ctx context.Context, tx pgx.Tx, put storage.Sink) error {
	rows, err := tx.Query(ctx, "SELECT guild_id, day, player, record FROM daily_attempts ORDER BY guild_id, day, player")
	if err != nil {
		return err
	}
	var guild, day, player string
	var data []byte
	if _, err := pgx.ForEachRow(rows, []any{&guild, &day, &player, &data}, func() error {
		a, err := decodeDaily(guild, day, player, data)
		if err != nil {
			return err
		}
		return put.DailyAttempt(a)
	}); err != nil {
		return err
	}
	if rows, err = tx.Query(ctx, "SELECT guild_id, day FROM daily_posts ORDER BY guild_id, day"); err != nil {
		return err
	}
	_, err = pgx.ForEachRow(rows, []any{&guild, &day}, func() error { return put.DailyPost(guild, day) })
	return err
}

// DailyAttempt implements storage.Sink.
func (k *importSink) DailyAttempt(a storage.DailyAttempt) error {
	if err := a.Validate(); err != nil {
		return err
	}
	data, err := json.Marshal(a)
	if err != nil {
		return err
	}
	_, err = k.tx.Exec(k.ctx, "INSERT INTO daily_attempts (guild_id, day, player, status, record) VALUES ($1, $2, $3, $4, $5)",
		a.GuildID, a.Day, string(a.Player.ID), string(a.Status), data)
	return err
}

// DailyPost implements storage.Sink.
func (k *importSink) DailyPost(guildID, day string) error {
	if guildID == "" || !storage.ValidDay(day) {
		return fmt.Errorf("%w: daily post of guild %q on %q", storage.ErrInvalid, guildID, day)
	}
	_, err := k.tx.Exec(k.ctx, "INSERT INTO daily_posts (guild_id, day) VALUES ($1, $2)", guildID, day)
	return err
}
