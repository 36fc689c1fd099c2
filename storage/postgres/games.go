package postgres

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/gambitbot/gambit/storage"
)

// listRow is one row of game_players.
type listRow struct {
	player storage.PlayerID
	list   string
	solved *string
}

// gameLists returns the game_players rows that game g must have — the
// single definition used by every write and by Check.
func gameLists(g *storage.Game) []listRow {
	var list string
	switch {
	case g.Status.Open():
		list = "open"
	case g.Status.Ended():
		list = "history"
	default:
		return nil
	}
	var rows []listRow
	for _, p := range g.Players {
		if p.ID == storage.Anonymous || p.ID == storage.Anyone {
			continue
		}
		r := listRow{player: p.ID, list: list}
		if g.Solved() {
			k := string(g.Kind)
			r.solved = &k
		}
		rows = append(rows, r)
	}
	return rows
}

// deadlineNS is the deadline_ns column of g: Unix nanoseconds, nil for
// none.
func deadlineNS(g *storage.Game) *int64 {
	if g.Deadline.IsZero() {
		return nil
	}
	ns := max(g.Deadline.UnixNano(), 0)
	return &ns
}

// shardKey is the shard_key column of g: its guild's id >> 22, nil
// without a guild or for an id that is not a snowflake (storage.ShardKey).
func shardKey(g *storage.Game) *int64 {
	key, ok := storage.ShardKey(g.GuildID)
	if !ok {
		return nil
	}
	k := int64(key)
	return &k
}

// putGame writes g, replacing old (nil for a new game) and its list rows,
// and schedules its deadline's job through c (scheduleDeadline) and, when
// it ends a tournament's game, the tournament's advance (scheduleGameEnd).
func putGame(ctx context.Context, tx pgx.Tx, c *jobs, old, g *storage.Game) error {
	data, err := json.Marshal(g)
	if err != nil {
		return fmt.Errorf("encode game %s: %w", g.ID, err)
	}
	if old == nil {
		_, err = tx.Exec(ctx, `INSERT INTO games (id, version, status, awaiting_ai, deadline_ns, shard_key, record)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, g.ID, g.Version, g.Status, g.AwaitingAI(), deadlineNS(g), shardKey(g), data)
	} else {
		_, err = tx.Exec(ctx, `UPDATE games SET version = $2, status = $3, awaiting_ai = $4, deadline_ns = $5, shard_key = $6, record = $7
			WHERE id = $1`, g.ID, g.Version, g.Status, g.AwaitingAI(), deadlineNS(g), shardKey(g), data)
	}
	if err != nil {
		return fmt.Errorf("write game %s: %w", g.ID, err)
	}
	if err := scheduleDeadline(ctx, tx, c, g); err != nil {
		return err
	}
	if err := scheduleGameEnd(ctx, tx, c, old, g); err != nil {
		return err
	}
	want := gameLists(g)
	if old != nil {
		if had := gameLists(old); slices.EqualFunc(had, want, sameRow) {
			return nil
		}
		if _, err := tx.Exec(ctx, "DELETE FROM game_players WHERE game_id = $1", g.ID); err != nil {
			return fmt.Errorf("write the lists of game %s: %w", g.ID, err)
		}
	}
	for _, r := range want {
		if _, err := tx.Exec(ctx, "INSERT INTO game_players (player, list, game_id, solved) VALUES ($1, $2, $3, $4)",
			r.player, r.list, g.ID, r.solved); err != nil {
			return fmt.Errorf("write the lists of game %s: %w", g.ID, err)
		}
	}
	return nil
}

func sameRow(a, b listRow) bool {
	return a.player == b.player && a.list == b.list && (a.solved == nil) == (b.solved == nil) &&
		(a.solved == nil || *a.solved == *b.solved)
}

// decodeGame decodes a game record stored under id.
func decodeGame(id string, data []byte) (*storage.Game, error) {
	var g storage.Game
	err := storage.DecodeJSON(data, &g)
	if err == nil {
		err = storage.CheckStoredGame(id, &g)
	}
	if err != nil {
		return nil, &storage.RecordError{Bucket: "games", Key: id, Err: err}
	}
	return &g, nil
}

// queryGames runs a query selecting (id, record) rows and decodes them.
// With skipped, a record that does not decode is left out and named there
// instead of failing the query.
func queryGames(ctx context.Context, q pgx.Tx, skipped *storage.SkippedError, sql string, args ...any) ([]*storage.Game, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	var games []*storage.Game
	var (
		id   string
		data []byte
	)
	_, err = pgx.ForEachRow(rows, []any{&id, &data}, func() error {
		g, err := decodeGame(id, data)
		switch {
		case err != nil && skipped != nil:
			skipped.Skip(storage.GameID(id), err)
		case err != nil:
			return err
		default:
			games = append(games, g)
		}
		return nil
	})
	return games, err
}

// getGame loads game id inside tx, locking its row when forUpdate.
func getGame(ctx context.Context, tx pgx.Tx, id storage.GameID, forUpdate bool) (*storage.Game, error) {
	sql := "SELECT id, record FROM games WHERE id = $1"
	if forUpdate {
		sql += " FOR UPDATE"
	}
	games, err := queryGames(ctx, tx, nil, sql, id)
	if err != nil {
		return nil, err
	}
	if len(games) == 0 {
		return nil, storage.ErrNotFound
	}
	return games[0], nil
}

// openGamesOf is the query of a player's open games, oldest first.
const openGamesOf = `SELECT g.id, g.record FROM game_players p JOIN games g ON g.id = p.game_id
	WHERE p.player = $1 AND p.list = 'open' ORDER BY p.game_id`

// CreateGame implements storage.Store. The challenger's advisory lock is
// held from counting their open games to committing the new one, so
// concurrent requests of one member cannot overshoot a cap.
func (s *Store) CreateGame(ctx context.Context, g *storage.Game, limits storage.Limits) error {
	if err := storage.CheckNew(g); err != nil {
		return fmt.Errorf("storage: create game: %w", err)
	}
	var rec storage.Game
	err := s.update(ctx, func(tx pgx.Tx) error {
		if p := g.Players[0].ID; !p.IsAI() {
			if err := lockPlayers(ctx, tx, p); err != nil {
				return err
			}
			open, err := queryGames(ctx, tx, nil, openGamesOf, p)
			if err != nil {
				return err
			}
			if err := limits.Check(p, open, g.Status == storage.StatusPending); err != nil {
				return err
			}
		}
		var seq int64
		if err := tx.QueryRow(ctx, "SELECT nextval('game_seq')").Scan(&seq); err != nil {
			return err
		}
		rec = storage.NewRecord(g, storage.SequenceID(uint64(seq)), s.now())
		return putGame(ctx, tx, s.jobs, nil, &rec)
	})
	if err != nil {
		return fmt.Errorf("storage: create game: %w", err)
	}
	*g = rec
	return nil
}

// Game implements storage.Store.
func (s *Store) Game(ctx context.Context, id storage.GameID) (*storage.Game, error) {
	var g *storage.Game
	err := s.view(ctx, func(tx pgx.Tx) (err error) {
		g, err = getGame(ctx, tx, id, false)
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

// commitGame is UpdateGame (res nil) and FinishGame: under the game's row
// lock it compares the version, checks the change (storage.Commit), and
// writes the game, its lists and, when finishing, the ratings — all in
// one transaction. Finishing takes the advisory locks of the players
// whose ratings move first (ratedPlayers: never an AI's), and rates last,
// as the lock of an AI's tally is held from its read to the commit.
func (s *Store) commitGame(ctx context.Context, g *storage.Game, res *storage.Result) ([]storage.RatingChange, error) {
	var (
		rec     storage.Game
		changes []storage.RatingChange
	)
	err := s.update(ctx, func(tx pgx.Tx) error {
		changes = nil
		if res != nil {
			if err := lockPlayers(ctx, tx, ratedPlayers(g)...); err != nil {
				return err
			}
		}
		old, err := getGame(ctx, tx, g.ID, true)
		if err != nil {
			return err
		}
		if rec, err = storage.Commit(old, g, res, s.now()); err != nil {
			return err
		}
		if err := putGame(ctx, tx, s.jobs, old, &rec); err != nil || res == nil {
			return err
		}
		changes, err = applyRatings(ctx, tx, &rec, s.ai)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: update game %s: %w", g.ID, err)
	}
	*g = rec
	return changes, nil
}

// TakeChallenge implements storage.Store. The acceptor's advisory lock,
// then the challenge's row lock, are held from the checks to the commit:
// of concurrent takes, in one process or several, the first commits and
// the others, waiting on the row, find the challenge taken; and the
// acceptor's open games cannot change between their count and the commit.
func (s *Store) TakeChallenge(ctx context.Context, g *storage.Game, limits storage.Limits) error {
	if len(g.Players) != 2 {
		return fmt.Errorf("storage: take challenge %s: %w: %d players", g.ID, storage.ErrInvalid, len(g.Players))
	}
	var rec storage.Game
	err := s.update(ctx, func(tx pgx.Tx) error {
		p := g.Players[1].ID
		if err := lockPlayers(ctx, tx, p); err != nil {
			return err
		}
		old, err := getGame(ctx, tx, g.ID, true)
		if err != nil {
			return err
		}
		if rec, err = storage.Take(old, g, s.now()); err != nil {
			return err
		}
		open, err := queryGames(ctx, tx, nil, openGamesOf, p)
		if err != nil {
			return err
		}
		if err := limits.Check(p, open, false); err != nil {
			return err
		}
		return putGame(ctx, tx, s.jobs, old, &rec)
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

// setRematched sets the Rematched mark of an ended game under its row
// lock (see storage.MarkRematch).
func (s *Store) setRematched(ctx context.Context, id storage.GameID, claim bool) error {
	return s.update(ctx, func(tx pgx.Tx) error {
		old, err := getGame(ctx, tx, id, true)
		if err != nil {
			return err
		}
		rec, changed, err := storage.MarkRematch(old, claim, s.now())
		if !changed {
			return err
		}
		return putGame(ctx, tx, s.jobs, old, &rec)
	})
}

// games runs a read-only query of (id, record) rows in a snapshot. With
// skip, a record that does not decode is left out and the others returned
// with a *storage.SkippedError naming it.
func (s *Store) games(ctx context.Context, skip bool, sql string, args ...any) ([]*storage.Game, error) {
	var (
		games   []*storage.Game
		skipped storage.SkippedError
	)
	err := s.view(ctx, func(tx pgx.Tx) (err error) {
		skipped = storage.SkippedError{}
		into := &skipped
		if !skip {
			into = nil
		}
		games, err = queryGames(ctx, tx, into, sql, args...)
		return err
	})
	if err != nil {
		return nil, err
	}
	return games, skipped.Err()
}

// limit is a LIMIT argument: NULL (no limit) for n <= 0.
func limit(n int) *int {
	if n <= 0 {
		return nil
	}
	return &n
}

// ActiveGames implements storage.Store.
func (s *Store) ActiveGames(ctx context.Context, p storage.PlayerID) ([]*storage.Game, error) {
	games, err := s.games(ctx, false, openGamesOf, p)
	if err != nil {
		return nil, fmt.Errorf("storage: active games of %s: %w", p, err)
	}
	return games, nil
}

// AwaitingAI implements storage.Store.
func (s *Store) AwaitingAI(ctx context.Context, shards storage.Shards) ([]*storage.Game, error) {
	games, err := s.games(ctx, true, "SELECT id, record FROM games WHERE awaiting_ai AND "+shardFilter("games", 1)+" ORDER BY id", shardArgs(shards)...)
	if err != nil {
		return games, fmt.Errorf("storage: games awaiting the AI: %w", err)
	}
	return games, nil
}

// History implements storage.Store.
func (s *Store) History(ctx context.Context, p storage.PlayerID, n int) ([]*storage.Game, error) {
	games, err := s.games(ctx, false, `SELECT g.id, g.record FROM game_players p JOIN games g ON g.id = p.game_id
		WHERE p.player = $1 AND p.list = 'history' ORDER BY p.game_id DESC LIMIT $2`, p, limit(n))
	if err != nil {
		return nil, fmt.Errorf("storage: history of %s: %w", p, err)
	}
	return games, nil
}

// Solved implements storage.Store.
func (s *Store) Solved(ctx context.Context, p storage.PlayerID, k storage.Kind, n int) ([]*storage.Game, error) {
	games, err := s.games(ctx, false, `SELECT g.id, g.record FROM game_players p JOIN games g ON g.id = p.game_id
		WHERE p.player = $1 AND p.solved = $2 ORDER BY p.game_id DESC LIMIT $3`, p, k, limit(n))
	if err != nil {
		return nil, fmt.Errorf("storage: %s puzzles solved by %s: %w", k, p, err)
	}
	return games, nil
}

// DueGames implements storage.Store, selecting the shards' games by
// their shard_key column (see migrations/0003_shard_key.sql). A deadline
// has passed by the database server's clock, as the claims expire
// (dbNow), so that a process whose clock runs ahead does not list a game
// before its time.
func (s *Store) DueGames(ctx context.Context, shards storage.Shards) ([]*storage.Game, error) {
	games, err := s.games(ctx, true, `SELECT id, record FROM games
		WHERE deadline_ns <= (extract(epoch FROM `+dbNow(1)+`) * 1000000000)::bigint AND `+shardFilter("games", 2)+`
		ORDER BY deadline_ns, id`, append([]any{s.dbTime()}, shardArgs(shards)...)...)
	if err != nil {
		return games, fmt.Errorf("storage: due games: %w", err)
	}
	return games, nil
}

// OpenGames implements storage.Store, selecting the shards' games by their
// shard_key column.
func (s *Store) OpenGames(ctx context.Context, shards storage.Shards, keep func(*storage.Game) bool) ([]*storage.Game, error) {
	var (
		games   []*storage.Game
		skipped storage.SkippedError
	)
	err := s.view(ctx, func(tx pgx.Tx) error {
		games, skipped = nil, storage.SkippedError{}
		rows, err := tx.Query(ctx, "SELECT id, record FROM games WHERE status IN ('pending', 'active') AND "+shardFilter("games", 1)+" ORDER BY id",
			shardArgs(shards)...)
		if err != nil {
			return err
		}
		var (
			id   string
			data []byte
		)
		_, err = pgx.ForEachRow(rows, []any{&id, &data}, func() error {
			g, err := decodeGame(id, data)
			switch {
			case err != nil:
				skipped.Skip(storage.GameID(id), err)
			case keep == nil || keep(g):
				games = append(games, g)
			}
			return ctx.Err()
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: open games: %w", err)
	}
	if err := skipped.Err(); err != nil {
		return games, fmt.Errorf("storage: open games: %w", err)
	}
	return games, nil
}

// CountOpen implements storage.Store.
func (s *Store) CountOpen(ctx context.Context) (pending, active int, err error) {
	err = s.view(ctx, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, `SELECT count(*) FILTER (WHERE status = 'pending'), count(*) FILTER (WHERE status = 'active')
			FROM games WHERE status IN ('pending', 'active')`).Scan(&pending, &active)
	})
	if err != nil {
		return 0, 0, fmt.Errorf("storage: count open games: %w", err)
	}
	return pending, active, nil
}

// DeleteUser implements storage.Store: under the user's advisory lock, in
// one transaction, their open games are deleted, their ended games
// anonymised (a committed change: the version grows by one), their place
// in tournaments erased (storage.Erase) and their ratings removed.
func (s *Store) DeleteUser(ctx context.Context, userID string) (storage.DeleteReport, error) {
	p := storage.User(userID)
	if err := p.Validate(); err != nil {
		return storage.DeleteReport{}, fmt.Errorf("storage: delete user %s: %w", userID, err)
	}
	var rep storage.DeleteReport
	err := s.update(ctx, func(tx pgx.Tx) error {
		rep = storage.DeleteReport{}
		if err := lockPlayers(ctx, tx, p); err != nil {
			return err
		}
		removed, err := queryGames(ctx, tx, nil, `DELETE FROM games WHERE id IN
			(SELECT game_id FROM game_players WHERE player = $1 AND list = 'open') RETURNING id, record`, p)
		if err != nil {
			return err
		}
		slices.SortFunc(removed, func(a, b *storage.Game) int { return cmp.Compare(a.ID, b.ID) })
		rep.Removed = removed
		ended, err := queryGames(ctx, tx, nil, `SELECT g.id, g.record FROM game_players p JOIN games g ON g.id = p.game_id
			WHERE p.player = $1 AND p.list = 'history' ORDER BY p.game_id FOR UPDATE OF g`, p)
		if err != nil {
			return err
		}
		now := s.now()
		for _, old := range ended {
			rec := storage.Anonymise(old, p, now)
			if err := putGame(ctx, tx, s.jobs, old, &rec); err != nil {
				return err
			}
			rep.Anonymised++
		}
		if err := eraseFromTournaments(ctx, tx, s.jobs, p, now); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM daily_attempts WHERE player = $1", string(p)); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM claims WHERE right(key, length($1) + 1) = '/' || $1", userID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM users WHERE user_id = $1", userID); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, "DELETE FROM ratings WHERE player = $1", p)
		if err != nil {
			return err
		}
		rep.Ratings = int(tag.RowsAffected())
		return nil
	})
	if err != nil {
		return storage.DeleteReport{}, fmt.Errorf("storage: delete user %s: %w", userID, err)
	}
	return rep, nil
}

// GuildSettings implements storage.Store.
func (s *Store) GuildSettings(ctx context.Context, guildID string) (storage.GuildSettings, error) {
	var gs storage.GuildSettings
	err := s.view(ctx, func(tx pgx.Tx) error {
		gs = storage.GuildSettings{}
		var data []byte
		err := tx.QueryRow(ctx, "SELECT record FROM guilds WHERE guild_id = $1", guildID).Scan(&data)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		gs, err = decodeGuildSettings(guildID, data)
		return err
	})
	if err != nil {
		return storage.GuildSettings{}, fmt.Errorf("storage: settings of guild %s: %w", guildID, err)
	}
	return gs, nil
}

// decodeGuildSettings decodes and validates a guild settings record.
func decodeGuildSettings(guildID string, data []byte) (storage.GuildSettings, error) {
	var gs storage.GuildSettings
	err := storage.DecodeJSON(data, &gs)
	if err == nil {
		err = gs.Validate()
	}
	if err != nil {
		return gs, &storage.RecordError{Bucket: "guilds", Key: guildID, Err: err}
	}
	return gs, nil
}

// PutGuildSettings implements storage.Store.
func (s *Store) PutGuildSettings(ctx context.Context, guildID string, gs storage.GuildSettings) error {
	err := gs.Validate()
	if err == nil {
		err = storage.ValidateGuildID(guildID)
	}
	if err == nil {
		err = s.update(ctx, func(tx pgx.Tx) error { return putGuildSettings(ctx, tx, guildID, gs) })
	}
	if err != nil {
		return fmt.Errorf("storage: save settings of guild %s: %w", guildID, err)
	}
	return nil
}

// UpdateGuildSettings implements storage.Store: the guild's row is
// locked while change runs (inserted first, empty, when the guild has
// none), so that two changes at once happen one after the other. A
// retried transaction calls change again.
func (s *Store) UpdateGuildSettings(ctx context.Context, guildID string, change func(*storage.GuildSettings) error) (storage.GuildSettings, error) {
	var gs storage.GuildSettings
	err := storage.ValidateGuildID(guildID)
	if err == nil {
		err = s.update(ctx, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "INSERT INTO guilds (guild_id, record) VALUES ($1, '{}') ON CONFLICT DO NOTHING", guildID); err != nil {
				return err
			}
			var data []byte
			if err := tx.QueryRow(ctx, "SELECT record FROM guilds WHERE guild_id = $1 FOR UPDATE", guildID).Scan(&data); err != nil {
				return err
			}
			var err error
			if gs, err = decodeGuildSettings(guildID, data); err != nil {
				return err
			}
			if err := change(&gs); err != nil {
				return err
			}
			if err := gs.Validate(); err != nil {
				return err
			}
			return putGuildSettings(ctx, tx, guildID, gs)
		})
	}
	if err != nil {
		return storage.GuildSettings{}, fmt.Errorf("storage: update settings of guild %s: %w", guildID, err)
	}
	return gs, nil
}

func putGuildSettings(ctx context.Context, tx pgx.Tx, guildID string, gs storage.GuildSettings) error {
	data, err := json.Marshal(gs)
	if err != nil {
		return fmt.Errorf("encode guild settings: %w", err)
	}
	_, err = tx.Exec(ctx, `INSERT INTO guilds (guild_id, record) VALUES ($1, $2)
		ON CONFLICT (guild_id) DO UPDATE SET record = excluded.record`, guildID, data)
	return err
}

// UserSettings implements storage.Store.
func (s *Store) UserSettings(ctx context.Context, userID string) (storage.UserSettings, error) {
	var us storage.UserSettings
	err := s.view(ctx, func(tx pgx.Tx) error {
		us = storage.UserSettings{}
		var data []byte
		err := tx.QueryRow(ctx, "SELECT record FROM users WHERE user_id = $1", userID).Scan(&data)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		us, err = decodeUserSettings(userID, data)
		return err
	})
	if err != nil {
		return storage.UserSettings{}, fmt.Errorf("storage: settings of user %s: %w", userID, err)
	}
	return us, nil
}

// decodeUserSettings decodes and validates a user settings record.
func decodeUserSettings(userID string, data []byte) (storage.UserSettings, error) {
	var us storage.UserSettings
	err := storage.DecodeJSON(data, &us)
	if err == nil {
		err = us.Validate()
	}
	if err != nil {
		return us, &storage.RecordError{Bucket: "users", Key: userID, Err: err}
	}
	return us, nil
}

// PutUserSettings implements storage.Store.
func (s *Store) PutUserSettings(ctx context.Context, userID string, us storage.UserSettings) error {
	err := us.Validate()
	if err == nil {
		err = storage.User(userID).Validate()
	}
	if err == nil {
		err = s.update(ctx, func(tx pgx.Tx) error { return putUserSettings(ctx, tx, userID, us) })
	}
	if err != nil {
		return fmt.Errorf("storage: save settings of user %s: %w", userID, err)
	}
	return nil
}

func putUserSettings(ctx context.Context, tx pgx.Tx, userID string, us storage.UserSettings) error {
	data, err := json.Marshal(us)
	if err != nil {
		return fmt.Errorf("encode user settings: %w", err)
	}
	_, err = tx.Exec(ctx, `INSERT INTO users (user_id, record) VALUES ($1, $2)
		ON CONFLICT (user_id) DO UPDATE SET record = excluded.record`, userID, data)
	return err
}
