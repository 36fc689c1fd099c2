package postgres

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/gambitbot/gambit/storage"
)

// tables are Gambit's tables, counted by Stats.
var tables = []string{"games", "game_players", "ratings", "guilds", "users", "claims", "daily_attempts", "daily_posts", "reviews", "interactions", "secrets", "tournaments", "tournament_players", "tournament_games", "schema_migrations"}

// Ping implements storage.Admin: the database answers and has Gambit's
// schema.
func (s *Store) Ping(ctx context.Context) error {
	return s.view(ctx, func(tx pgx.Tx) error {
		_, err := schemaVersion(ctx, tx)
		return err
	})
}

// Stats implements storage.Admin: rows per table and per ladder
// ("ratings/connect4"), games per status, the size of the tables with
// their indexes.
func (s *Store) Stats(ctx context.Context) (storage.Stats, error) {
	st := storage.Stats{Path: s.name}
	err := s.view(ctx, func(tx pgx.Tx) error {
		st.Keys = map[string]int{}
		st.Games = map[storage.Status]int{}
		st.Corrupt, st.Ratings, st.Size = 0, 0, 0
		var err error
		if st.Schema, err = schemaVersion(ctx, tx); err != nil {
			return err
		}
		for _, t := range tables {
			var n int
			var size int64
			if err := tx.QueryRow(ctx, "SELECT count(*), pg_total_relation_size($1::regclass) FROM "+pgx.Identifier{t}.Sanitize(), t).Scan(&n, &size); err != nil {
				return fmt.Errorf("count %s: %w", t, err)
			}
			st.Keys[t] = n
			st.Size += size
		}
		st.Ratings = st.Keys["ratings"]
		rows, err := tx.Query(ctx, "SELECT ladder, count(*) FROM ratings GROUP BY ladder")
		if err != nil {
			return err
		}
		var (
			ladder string
			n      int
		)
		if _, err := pgx.ForEachRow(rows, []any{&ladder, &n}, func() error {
			st.Keys["ratings/"+ladder] = n
			return nil
		}); err != nil {
			return err
		}
		return forEachGame(ctx, tx, func(_ string, g *storage.Game, err error) {
			if err != nil {
				st.Corrupt++
			} else {
				st.Games[g.Status]++
			}
		})
	})
	if err != nil {
		return storage.Stats{}, fmt.Errorf("storage: stats of %s: %w", s.name, err)
	}
	return st, nil
}

// sameInt reports whether two nullable columns hold the same value.
func sameInt(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// show formats a nullable column.
func show(v *int64) string {
	if v == nil {
		return "NULL"
	}
	return strconv.FormatInt(*v, 10)
}

// gameColumns are the columns of the games table beside the record.
type gameColumns struct {
	version    uint64
	status     string
	awaitingAI bool
	deadlineNS *int64
	shardKey   *int64
}

// forEachGame calls fn with every game (or the error decoding it), in id
// order.
func forEachGame(ctx context.Context, tx pgx.Tx, fn func(id string, g *storage.Game, err error)) error {
	return forEachGameRow(ctx, tx, func(id string, _ gameColumns, g *storage.Game, err error) { fn(id, g, err) })
}

func forEachGameRow(ctx context.Context, tx pgx.Tx, fn func(id string, cols gameColumns, g *storage.Game, err error)) error {
	rows, err := tx.Query(ctx, "SELECT id, version, status, awaiting_ai, deadline_ns, shard_key, record FROM games ORDER BY id")
	if err != nil {
		return err
	}
	var (
		id   string
		c    gameColumns
		data []byte
	)
	_, err = pgx.ForEachRow(rows, []any{&id, &c.version, &c.status, &c.awaitingAI, &c.deadlineNS, &c.shardKey, &data}, func() error {
		g, err := decodeGame(id, data)
		fn(id, c, g, err)
		return ctx.Err()
	})
	return err
}

// Check implements storage.Admin: the schema version; every game record
// decodes and validates, its columns agree with it and its list rows are
// exactly those it calls for; the id sequence is past every id; every
// rating decodes, belongs to a well-formed ladder and its columns agree
// with it; every guild's and user's settings, daily attempt and review
// decode and validate; every secret is well formed.
func (s *Store) Check(ctx context.Context) ([]string, error) {
	var problems []string
	addf := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	err := s.view(ctx, func(tx pgx.Tx) error {
		problems = nil
		v, err := schemaVersion(ctx, tx)
		if err != nil {
			return err
		}
		if v != uint64(len(migrations)) {
			addf("schema version %d, want %d", v, len(migrations))
			return nil
		}
		want := map[string]bool{} // list rows the games call for, as "player|list|game|solved"
		var maxSeq uint64
		if err := forEachGameRow(ctx, tx, func(id string, c gameColumns, g *storage.Game, err error) {
			if err != nil {
				addf("%v", err)
				return
			}
			if seq, ok := g.ID.Sequence(); !ok {
				addf("game %s: the id is not a sequence number", id)
			} else {
				maxSeq = max(maxSeq, seq)
			}
			if c.version != g.Version || c.status != string(g.Status) || c.awaitingAI != g.AwaitingAI() ||
				!sameInt(deadlineNS(g), c.deadlineNS) || !sameInt(shardKey(g), c.shardKey) {
				addf("game %s: columns (version %d, status %s, awaiting_ai %t, deadline_ns %v, shard_key %v) disagree with the record",
					id, c.version, c.status, c.awaitingAI, show(c.deadlineNS), show(c.shardKey))
			}
			for _, r := range gameLists(g) {
				want[listKey(string(r.player), r.list, id, r.solved)] = true
			}
		}); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, "SELECT player, list, game_id, solved FROM game_players ORDER BY game_id, player, list")
		if err != nil {
			return err
		}
		var (
			player, list, game string
			solved             *string
		)
		if _, err := pgx.ForEachRow(rows, []any{&player, &list, &game, &solved}, func() error {
			k := listKey(player, list, game, solved)
			if want[k] {
				delete(want, k)
			} else {
				addf("game_players: stray row %q", k)
			}
			return nil
		}); err != nil {
			return err
		}
		for _, k := range slices.Sorted(maps.Keys(want)) {
			addf("game_players: missing row %q", k)
		}
		var last uint64
		var called bool
		if err := tx.QueryRow(ctx, "SELECT last_value, is_called FROM game_seq").Scan(&last, &called); err != nil {
			return err
		}
		if !called {
			last = 0
		}
		if last < maxSeq {
			addf("game_seq is at %d, below the newest game's number %d", last, maxSeq)
		}
		if err := checkRatings(ctx, tx, addf); err != nil {
			return err
		}
		err = checkSettings(ctx, tx, "SELECT guild_id, record FROM guilds ORDER BY guild_id", func(id string, data []byte) error {
			_, err := decodeGuildSettings(id, data)
			return err
		}, addf)
		if err != nil {
			return err
		}
		err = checkSettings(ctx, tx, "SELECT user_id, record FROM users ORDER BY user_id", func(id string, data []byte) error {
			_, err := decodeUserSettings(id, data)
			return err
		}, addf)
		if err != nil {
			return err
		}
		if err := checkDaily(ctx, tx, addf); err != nil {
			return err
		}
		if err := checkSecrets(ctx, tx, addf); err != nil {
			return err
		}
		if err := checkTournaments(ctx, tx, addf); err != nil {
			return err
		}
		return checkSettings(ctx, tx, "SELECT game_id, record FROM reviews ORDER BY game_id", func(id string, data []byte) error {
			_, err := decodeReview(id, data)
			return err
		}, addf)
	})
	if err != nil {
		return nil, fmt.Errorf("storage: check %s: %w", s.name, err)
	}
	return problems, nil
}

func listKey(player, list, game string, solved *string) string {
	k := player + "|" + list + "|" + game
	if solved != nil {
		k += "|solved " + *solved
	}
	return k
}

func checkRatings(ctx context.Context, tx pgx.Tx, addf func(string, ...any)) error {
	rows, err := tx.Query(ctx, "SELECT ladder, player, rating, established, record FROM ratings ORDER BY ladder, player")
	if err != nil {
		return err
	}
	var (
		ladder, player string
		rating         float64
		established    bool
		data           []byte
	)
	_, err = pgx.ForEachRow(rows, []any{&ladder, &player, &rating, &established, &data}, func() error {
		if _, err := storage.ParseLadder(ladder); err != nil {
			addf("ratings: %v", err)
		}
		r, err := decodeRating(ladder, player, data)
		if err != nil {
			addf("%v", err)
		} else if r.Rating != rating || r.Provisional() == established {
			addf("rating of %s in %s: columns (rating %v, established %t) disagree with the record", player, ladder, rating, established)
		}
		return ctx.Err()
	})
	return err
}

// checkSettings reports every record of query's rows (an ID and a
// record) that decode refuses, guilds' and users' settings alike.
func checkSettings(ctx context.Context, tx pgx.Tx, query string, decode func(id string, data []byte) error, addf func(string, ...any)) error {
	rows, err := tx.Query(ctx, query)
	if err != nil {
		return err
	}
	var (
		id   string
		data []byte
	)
	_, err = pgx.ForEachRow(rows, []any{&id, &data}, func() error {
		if err := decode(id, data); err != nil {
			addf("%v", err)
		}
		return ctx.Err()
	})
	return err
}

// Export implements storage.Admin from one snapshot, so the copy is
// consistent while writers go on.
func (s *Store) Export(ctx context.Context, put storage.Sink) error {
	err := s.view(ctx, func(tx pgx.Tx) error {
		var firstErr error
		if err := forEachGame(ctx, tx, func(_ string, g *storage.Game, err error) {
			if firstErr == nil {
				if firstErr = err; err == nil {
					firstErr = put.Game(g)
				}
			}
		}); err != nil {
			return err
		}
		if firstErr != nil {
			return firstErr
		}
		rows, err := tx.Query(ctx, "SELECT ladder, player, record FROM ratings ORDER BY ladder, player")
		if err != nil {
			return err
		}
		var (
			ladder, player string
			data           []byte
		)
		if _, err := pgx.ForEachRow(rows, []any{&ladder, &player, &data}, func() error {
			l, err := storage.ParseLadder(ladder)
			if err != nil {
				return &storage.RecordError{Bucket: "ratings", Key: ladder, Err: err}
			}
			r, err := decodeRating(ladder, player, data)
			if err != nil {
				return err
			}
			return put.Rating(l, r)
		}); err != nil {
			return err
		}
		if rows, err = tx.Query(ctx, "SELECT guild_id, record FROM guilds ORDER BY guild_id"); err != nil {
			return err
		}
		if _, err = pgx.ForEachRow(rows, []any{&player, &data}, func() error {
			gs, err := decodeGuildSettings(player, data)
			if err != nil {
				return err
			}
			return put.GuildSettings(player, gs)
		}); err != nil {
			return err
		}
		if rows, err = tx.Query(ctx, "SELECT user_id, record FROM users ORDER BY user_id"); err != nil {
			return err
		}
		_, err = pgx.ForEachRow(rows, []any{&player, &data}, func() error {
			us, err := decodeUserSettings(player, data)
			if err != nil {
				return err
			}
			return put.UserSettings(player, us)
		})
		if err != nil {
			return err
		}
		if err := exportDaily(ctx, tx, put); err != nil {
			return err
		}
		if err := exportTournaments(ctx, tx, put); err != nil {
			return err
		}
		return exportSecrets(ctx, tx, put)
	})
	if err != nil {
		return fmt.Errorf("storage: export %s: %w", s.name, err)
	}
	return nil
}

// Import implements storage.Importer: fill's records are written in one
// transaction (without the operation timeout: a large copy takes long),
// and the game and tournament id sequences are moved past the highest
// ids copied.
func (s *Store) Import(ctx context.Context, fill func(storage.Sink) error) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var used bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT FROM games) OR EXISTS (SELECT FROM ratings)
			OR EXISTS (SELECT FROM guilds) OR EXISTS (SELECT FROM users)`).Scan(&used); err != nil {
			return err
		}
		if used {
			return storage.ErrNotEmpty
		}
		sink := &importSink{ctx: ctx, tx: tx, jobs: s.jobs}
		if err := fill(sink); err != nil {
			return err
		}
		if sink.maxSeq > 0 {
			if _, err := tx.Exec(ctx, "SELECT setval('game_seq', $1)", int64(sink.maxSeq)); err != nil {
				return err
			}
		}
		if sink.maxTournament > 0 {
			if _, err := tx.Exec(ctx, "SELECT setval('tournament_seq', $1)", int64(sink.maxTournament)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: import into %s: %w", s.name, err)
	}
	return nil
}

// importSink writes records into an import's transaction.
type importSink struct {
	ctx           context.Context
	tx            pgx.Tx
	jobs          *jobs
	maxSeq        uint64
	maxTournament uint64 // the highest tournament id's sequence number
}

func (k *importSink) Game(g *storage.Game) error {
	seq, err := storage.CheckImportedGame(g)
	if err != nil {
		return err
	}
	k.maxSeq = max(k.maxSeq, seq)
	return putGame(k.ctx, k.tx, k.jobs, nil, g)
}

func (k *importSink) Rating(l storage.Ladder, r storage.Rating) error {
	if err := r.Validate(); err != nil {
		return fmt.Errorf("rating of %s in %s: %w", r.Player, l, err)
	}
	return putRating(k.ctx, k.tx, l, r)
}

func (k *importSink) GuildSettings(guildID string, gs storage.GuildSettings) error {
	if err := gs.Validate(); err != nil {
		return fmt.Errorf("settings of guild %s: %w", guildID, err)
	}
	return putGuildSettings(k.ctx, k.tx, guildID, gs)
}

func (k *importSink) UserSettings(userID string, us storage.UserSettings) error {
	if err := us.Validate(); err != nil {
		return fmt.Errorf("settings of user %s: %w", userID, err)
	}
	return putUserSettings(k.ctx, k.tx, userID, us)
}
