package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/gambitbot/gambit/storage"
)

// openStatuses is the SQL list of the statuses of tournaments not ended.
const openStatuses = "('announced', 'running', 'paused')"

// decodeTournament decodes a tournament record stored under id.
func decodeTournament(id string, data []byte) (*storage.Tournament, error) {
	var t storage.Tournament
	err := storage.DecodeJSON(data, &t)
	if err == nil {
		err = storage.CheckStoredTournament(id, &t)
	}
	if err != nil {
		return nil, &storage.RecordError{Bucket: "tournaments", Key: id, Err: err}
	}
	return &t, nil
}

// queryTournaments runs a query selecting (id, record) rows and decodes
// them; with skipped, a record that does not decode is left out and named
// there instead of failing the query.
func queryTournaments(ctx context.Context, tx pgx.Tx, skipped *storage.SkippedTournamentsError, sql string, args ...any) ([]*storage.Tournament, error) {
	rows, err := tx.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	var (
		out  []*storage.Tournament
		id   string
		data []byte
	)
	_, err = pgx.ForEachRow(rows, []any{&id, &data}, func() error {
		t, err := decodeTournament(id, data)
		switch {
		case err != nil && skipped != nil:
			skipped.Skip(storage.TournamentID(id), err)
		case err != nil:
			return err
		default:
			out = append(out, t)
		}
		return nil
	})
	return out, err
}

// putTournament writes t, inserting it when old is nil, with its rows in
// tournament_players and tournament_games.
func putTournament(ctx context.Context, tx pgx.Tx, old, t *storage.Tournament) error {
	data, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("encode tournament %s: %w", t.ID, err)
	}
	if old == nil {
		_, err = tx.Exec(ctx, "INSERT INTO tournaments (id, guild_id, status, version, record) VALUES ($1, $2, $3, $4, $5)",
			t.ID, t.GuildID, t.Status, t.Version, data)
	} else {
		_, err = tx.Exec(ctx, "UPDATE tournaments SET status = $2, version = $3, record = $4 WHERE id = $1", t.ID, t.Status, t.Version, data)
	}
	if err != nil {
		return fmt.Errorf("write tournament %s: %w", t.ID, err)
	}
	var players []string
	for _, p := range t.Players() {
		players = append(players, string(p))
	}
	if _, err := tx.Exec(ctx, `DELETE FROM tournament_players WHERE tournament_id = $1 AND NOT player = ANY($2::text[])`, t.ID, players); err != nil {
		return fmt.Errorf("write the players of tournament %s: %w", t.ID, err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO tournament_players (player, tournament_id) SELECT unnest($2::text[]), $1
		ON CONFLICT DO NOTHING`, t.ID, players); err != nil {
		return fmt.Errorf("write the players of tournament %s: %w", t.ID, err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO tournament_games (game_id, tournament_id) SELECT unnest($2::text[]), $1
		ON CONFLICT DO NOTHING`, t.ID, t.Games()); err != nil {
		return fmt.Errorf("write the games of tournament %s: %w", t.ID, err)
	}
	return nil
}

// CreateTournament implements storage.Store. The guild's advisory lock
// is held from counting its open tournaments to the commit, so that
// concurrent creations cannot overshoot the cap.
func (s *Store) CreateTournament(ctx context.Context, t *storage.Tournament, caps storage.TournamentCaps) error {
	var rec storage.Tournament
	err := s.update(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtext('gambit tournaments ' || $1))", t.GuildID); err != nil {
			return fmt.Errorf("lock guild: %w", err)
		}
		var open int
		if err := tx.QueryRow(ctx, "SELECT count(*) FROM tournaments WHERE guild_id = $1 AND status IN "+openStatuses, t.GuildID).Scan(&open); err != nil {
			return err
		}
		var seq int64
		if err := tx.QueryRow(ctx, "SELECT nextval('tournament_seq')").Scan(&seq); err != nil {
			return err
		}
		var err error
		now := s.now()
		if rec, err = storage.NewTournament(t, storage.TournamentID(storage.SequenceID(uint64(seq))), caps, open, now); err != nil {
			return err
		}
		if err := putTournament(ctx, tx, nil, &rec); err != nil {
			return err
		}
		return scheduleTournamentChange(ctx, tx, s.jobs, nil, &rec, now)
	})
	if err != nil {
		return fmt.Errorf("storage: create tournament: %w", err)
	}
	*t = rec
	return nil
}

// getTournament loads tournament id inside tx, locking its row when
// forUpdate.
func getTournament(ctx context.Context, tx pgx.Tx, id storage.TournamentID, forUpdate bool) (*storage.Tournament, error) {
	sql := "SELECT id, record FROM tournaments WHERE id = $1"
	if forUpdate {
		sql += " FOR UPDATE"
	}
	list, err := queryTournaments(ctx, tx, nil, sql, id)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, storage.ErrNotFound
	}
	return list[0], nil
}

// Tournament implements storage.Store.
func (s *Store) Tournament(ctx context.Context, id storage.TournamentID) (*storage.Tournament, error) {
	var t *storage.Tournament
	err := s.view(ctx, func(tx pgx.Tx) (err error) {
		t, err = getTournament(ctx, tx, id, false)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: load tournament %s: %w", id, err)
	}
	return t, nil
}

// changeTournament loads tournament id under its row lock, gives it to
// change, and stores the record change returns when it reports one, with
// the jobs the change makes due (scheduleTournamentChange); it returns
// what is stored. A retried transaction calls change again.
func (s *Store) changeTournament(ctx context.Context, id storage.TournamentID, what string,
	change func(tx pgx.Tx, old *storage.Tournament) (storage.Tournament, bool, error)) (*storage.Tournament, bool, error) {
	var (
		out   *storage.Tournament
		wrote bool
	)
	err := s.update(ctx, func(tx pgx.Tx) error {
		out, wrote = nil, false
		old, err := getTournament(ctx, tx, id, true)
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
		if err := putTournament(ctx, tx, old, &rec); err != nil {
			return err
		}
		return scheduleTournamentChange(ctx, tx, s.jobs, old, &rec, rec.UpdatedAt)
	})
	if err != nil {
		return nil, false, fmt.Errorf("storage: %s tournament %s: %w", what, id, err)
	}
	return out, wrote, nil
}

// always adapts a change that always writes to changeTournament.
func always(f func(*storage.Tournament) (storage.Tournament, error)) func(pgx.Tx, *storage.Tournament) (storage.Tournament, bool, error) {
	return func(_ pgx.Tx, old *storage.Tournament) (storage.Tournament, bool, error) {
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
	t, _, err := s.changeTournament(ctx, id, "set the status of", func(tx pgx.Tx, old *storage.Tournament) (storage.Tournament, bool, error) {
		now := s.now()
		rec, err := storage.SetStatus(old, to, now)
		if err != nil {
			return rec, false, err
		}
		pause, ok := storage.PausesClocks(old.Status, to)
		if !ok {
			return rec, true, nil
		}
		// Under the tournament's row lock, each game's: a pause's write
		// has no deadline, so it schedules no job, and the version it
		// bumps leaves the job of the old one nothing to end.
		for _, gid := range old.PendingGames() {
			g, err := getGame(ctx, tx, gid, true)
			if err != nil {
				return rec, false, fmt.Errorf("game %s: %w", gid, err)
			}
			if ng, ok := storage.PauseGame(g, pause, now); ok {
				if err := putGame(ctx, tx, s.jobs, g, &ng); err != nil {
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
	return s.changeTournament(ctx, id, "announce a round of", func(_ pgx.Tx, old *storage.Tournament) (storage.Tournament, bool, error) {
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
// transaction under the tournament's row lock, so of racing pairings of
// one round the second waits for the first and finds it recorded.
func (s *Store) PairRound(ctx context.Context, id storage.TournamentID, version uint64, r storage.Round, games []*storage.Game) (*storage.Tournament, bool, error) {
	return s.changeTournament(ctx, id, "pair a round of", func(tx pgx.Tx, old *storage.Tournament) (storage.Tournament, bool, error) {
		now := s.now()
		rec, ok, err := storage.AddRound(old, version, r, games, now)
		if err != nil || !ok {
			return rec, ok, err
		}
		ids := make([]storage.GameID, len(games))
		for i, g := range games {
			var seq int64
			if err := tx.QueryRow(ctx, "SELECT nextval('game_seq')").Scan(&seq); err != nil {
				return rec, false, err
			}
			grec := storage.NewRecord(g, storage.SequenceID(uint64(seq)), now)
			if err := putGame(ctx, tx, s.jobs, nil, &grec); err != nil {
				return rec, false, err
			}
			ids[i] = grec.ID
		}
		return rec, true, storage.SetBoardGames(&rec, ids)
	})
}

// RecordTournamentResult implements storage.Store: the game is read in
// the transaction that holds the tournament's row lock and sets the
// board.
func (s *Store) RecordTournamentResult(ctx context.Context, game storage.GameID) (*storage.Tournament, bool, error) {
	var id storage.TournamentID
	err := s.view(ctx, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, "SELECT tournament_id FROM tournament_games WHERE game_id = $1", game).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("%w: game %s is in no tournament", storage.ErrNotFound, game)
		}
		return err
	})
	if err != nil {
		return nil, false, fmt.Errorf("storage: record the result of game %s: %w", game, err)
	}
	return s.changeTournament(ctx, id, "record a result in", func(tx pgx.Tx, old *storage.Tournament) (storage.Tournament, bool, error) {
		g, err := getGame(ctx, tx, game, false)
		if err != nil {
			return storage.Tournament{}, false, err
		}
		return storage.SetResult(old, g, s.now())
	})
}

// listTournaments runs query, selecting (id, record) rows, in a read
// transaction and returns its tournaments with the skipped ones' error.
func (s *Store) listTournaments(ctx context.Context, what string, sql string, args ...any) ([]*storage.Tournament, error) {
	var (
		out     []*storage.Tournament
		skipped storage.SkippedTournamentsError
	)
	err := s.view(ctx, func(tx pgx.Tx) (err error) {
		skipped = storage.SkippedTournamentsError{}
		out, err = queryTournaments(ctx, tx, &skipped, sql, args...)
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
	list, err := s.listTournaments(ctx, "tournaments of guild "+guildID, `(SELECT id, record FROM tournaments WHERE guild_id = $1 AND status IN `+openStatuses+`)
		UNION ALL (SELECT id, record FROM tournaments WHERE guild_id = $1 AND status NOT IN `+openStatuses+` ORDER BY id DESC LIMIT $2)`,
		guildID, max(history, 0))
	return storage.SortTournaments(list, history), err
}

// OpenTournaments implements storage.Store: it reads every tournament
// not ended, which the caps keep few, and keeps the shards'.
func (s *Store) OpenTournaments(ctx context.Context, shards storage.Shards) ([]*storage.Tournament, error) {
	list, err := s.listTournaments(ctx, "open tournaments", "SELECT id, record FROM tournaments WHERE status IN "+openStatuses+" ORDER BY id")
	return slices.DeleteFunc(list, func(t *storage.Tournament) bool { return !shards.Has(t.GuildID) }), err
}

// PlayerTournaments implements storage.Store.
func (s *Store) PlayerTournaments(ctx context.Context, p storage.PlayerID, n int) ([]storage.PlayerTournament, error) {
	list, err := s.listTournaments(ctx, "tournaments of "+string(p), `SELECT t.id, t.record FROM tournament_players p JOIN tournaments t ON t.id = p.tournament_id
		WHERE p.player = $1 AND t.status = 'finished' ORDER BY t.id DESC`, p)
	var out []storage.PlayerTournament
	for _, t := range list {
		if r, ok := t.Result(p); ok && (n <= 0 || len(out) < n) {
			out = append(out, r)
		}
	}
	return out, err
}

// checkTournaments reports the tournament records that do not decode or
// whose columns disagree with them, the rows of tournament_players and
// tournament_games that differ from what the records call for, and the
// games of boards still on that do not exist.
func checkTournaments(ctx context.Context, tx pgx.Tx, addf func(string, ...any)) error {
	rows, err := tx.Query(ctx, "SELECT id, guild_id, status, version, record FROM tournaments ORDER BY id")
	if err != nil {
		return err
	}
	want := map[string]bool{}         // "players|player|id" and "games|game|id"
	var pending []*storage.Tournament // with games still on
	var (
		id, guild, status string
		version           uint64
		data              []byte
	)
	if _, err := pgx.ForEachRow(rows, []any{&id, &guild, &status, &version, &data}, func() error {
		t, err := decodeTournament(id, data)
		if err != nil {
			addf("%v", err)
			return nil
		}
		if t.GuildID != guild || string(t.Status) != status || t.Version != version {
			addf("tournament %s: columns (guild %s, status %s, version %d) disagree with the record", id, guild, status, version)
		}
		for _, p := range t.Players() {
			want["players|"+string(p)+"|"+id] = true
		}
		for _, g := range t.Games() {
			want["games|"+string(g)+"|"+id] = true
		}
		if len(t.PendingGames()) > 0 {
			pending = append(pending, t)
		}
		return ctx.Err()
	}); err != nil {
		return err
	}
	for _, q := range []string{
		"SELECT 'players|' || player || '|' || tournament_id FROM tournament_players ORDER BY 1",
		"SELECT 'games|' || game_id || '|' || tournament_id FROM tournament_games ORDER BY 1",
	} {
		rows, err := tx.Query(ctx, q)
		if err != nil {
			return err
		}
		keys, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		for _, k := range keys {
			if !want[k] {
				addf("tournament rows: stray %q", k)
			}
			delete(want, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(want)) {
		addf("tournament rows: missing %q", k)
	}
	for _, t := range pending {
		for _, g := range t.PendingGames() {
			var exists bool
			if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT FROM games WHERE id = $1)", g).Scan(&exists); err != nil {
				return err
			}
			if !exists {
				addf("tournament %s: game %s, still on, does not exist", t.ID, g)
			}
		}
	}
	return nil
}

// exportTournaments gives put every tournament when it takes them
// (storage.TournamentSink).
func exportTournaments(ctx context.Context, tx pgx.Tx, put storage.Sink) error {
	ts, ok := put.(storage.TournamentSink)
	if !ok {
		return nil
	}
	list, err := queryTournaments(ctx, tx, nil, "SELECT id, record FROM tournaments ORDER BY id")
	if err != nil {
		return err
	}
	for _, t := range list {
		if err := ts.Tournament(t); err != nil {
			return err
		}
	}
	return nil
}

// Tournament implements storage.TournamentSink: the record with its rows.
func (k *importSink) Tournament(t *storage.Tournament) error {
	seq, err := storage.CheckImportedTournament(t)
	if err != nil {
		return err
	}
	k.maxTournament = max(k.maxTournament, seq)
	return putTournament(k.ctx, k.tx, nil, t)
}

// eraseFromTournaments replaces member p in their tournaments, for
// DeleteUser (storage.Erase), under the tournaments' row locks, and
// schedules through c an advance now of each running one: a board of
// theirs still on is scored, and they are paired no more.
func eraseFromTournaments(ctx context.Context, tx pgx.Tx, c *jobs, p storage.PlayerID, now time.Time) error {
	list, err := queryTournaments(ctx, tx, nil, `SELECT t.id, t.record FROM tournament_players p JOIN tournaments t ON t.id = p.tournament_id
		WHERE p.player = $1 ORDER BY t.id FOR UPDATE OF t`, p)
	if err != nil {
		return err
	}
	for _, old := range list {
		rec, ok, err := storage.Erase(old, p, now)
		if err != nil {
			return fmt.Errorf("tournament %s: %w", old.ID, err)
		}
		if !ok {
			continue
		}
		if err := putTournament(ctx, tx, old, &rec); err != nil {
			return err
		}
		if rec.Status == storage.TournamentRunning {
			if _, err := insertJobs(ctx, tx, c, []river.InsertManyParams{tournamentJob(rec.ID, now, now)}); err != nil {
				return fmt.Errorf("schedule the advance of tournament %s: %w", rec.ID, err)
			}
		}
	}
	return nil
}
