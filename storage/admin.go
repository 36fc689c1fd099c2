package storage

import (
	"context"
	"errors"
)

// ErrNotEmpty reports an Import into a store that holds data already.
var ErrNotEmpty = errors.New("the database is not empty")

// Admin is what `gambit db` and the operations endpoint need of a store
// beyond Store; both storage/bolt and storage/postgres implement it.
type Admin interface {
	Store
	// Check verifies the store's invariants: every record decodes and
	// validates, every index holds exactly what the records call for. It
	// returns one line per problem, none for a healthy store; the error is
	// for failing to run the check at all.
	Check(ctx context.Context) ([]string, error)
	// Stats summarises the store.
	Stats(ctx context.Context) (Stats, error)
	// Ping checks that the store answers, for health checks.
	Ping(ctx context.Context) error
	// Export calls put with every record, for copying a store (see Copy).
	Export(ctx context.Context, put Sink) error
}

// Stats summarises a store for `gambit db stats`.
type Stats struct {
	// Path names the database: a file, or a PostgreSQL URL without its
	// password.
	Path string
	// Schema is the stored schema version.
	Schema uint64
	// Size is the size of the data in bytes.
	Size int64
	// Keys counts the records of each bucket or table, by name: "games",
	// "ratings/connect4", … (storage/bolt counts sub-buckets too).
	Keys map[string]int
	// Games counts the games in each status; a corrupt record counts
	// under Corrupt instead.
	Games map[Status]int
	// Ratings counts the ratings, in every ladder.
	Ratings int
	// Corrupt counts game records that failed to decode.
	Corrupt int
}

// Sink receives a store's records, as they are stored: games keep their
// ids, versions and timestamps.
type Sink interface {
	// Game receives one game.
	Game(g *Game) error
	// Rating receives one rating in ladder l.
	Rating(l Ladder, r Rating) error
	// GuildSettings receives one guild's settings.
	GuildSettings(guildID string, s GuildSettings) error
	// UserSettings receives one user's settings.
	UserSettings(userID string, s UserSettings) error
	// DailyAttempt receives one member's attempt at a daily puzzle, as
	// stored (UpdatedAt kept).
	DailyAttempt(a DailyAttempt) error
	// DailyPost receives one daily puzzle posted.
	DailyPost(guildID, day string) error
	// Secret receives one of the install's secrets (Store.Secret).
	Secret(name string, value []byte) error
}

// Importer is a store that can be filled from another (see Copy).
type Importer interface {
	// Import runs fill with a Sink that writes into the store, all in one
	// transaction; it refuses a store that holds any game, rating or
	// guild settings already. A secret copied replaces the store's own of
	// that name, which a process that ran on the empty store may have
	// made: the source's is the one its members' puzzles came from.
	Import(ctx context.Context, fill func(Sink) error) error
}

// Copy copies every record of from into the empty store to, in one
// transaction of to's: games with their ids, versions and indexes, ratings,
// guild and user settings, the daily puzzles' attempts and posts, the
// tournaments (to a TournamentSink, as both stores' are), and the
// install's secrets (so that the daily puzzles stay the same).
func Copy(ctx context.Context, from Admin, to Importer) error {
	return to.Import(ctx, func(sink Sink) error { return from.Export(ctx, sink) })
}
