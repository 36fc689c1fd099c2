package bolt

import (
	"errors"
	"fmt"

	"go.etcd.io/bbolt"
)

// ErrSchema reports a database whose schema this build cannot use: written
// by a newer Gambit, not a Gambit database, or (read-only) not yet upgraded.
var ErrSchema = errors.New("unsupported database schema")

// A migration upgrades the database from schema version i to i+1, where i is
// its index in the migration list. Each step runs in its own transaction
// together with the bump of the stored schema version, so a crash during an
// upgrade leaves the database at the previous version, and the next Open
// runs the step again from the start.
type migration struct {
	name  string
	apply func(tx *bbolt.Tx) error
}

// migrations is the upgrade path; the current schema version is its length.
// Version 0 is an empty file. Append steps; never edit or reorder them.
var migrations = []migration{
	{name: "create buckets", apply: createBuckets},
	{name: "solo puzzles", apply: addSolvedIndex},
	{name: "withdrawn challenges", apply: allowWithdrawn},
	{name: "claims", apply: addClaims},
	{name: "user settings", apply: addUsers},
	{name: "daily puzzles", apply: addDaily},
	{name: "reviews", apply: addReviews},
	{name: "interactions and secrets", apply: addInteractionsAndSecrets},
	{name: "tournaments", apply: addTournaments},
}

// createBuckets is the step from version 0 (an empty file) to version 1:
// the buckets of version 1, named here rather than through allBuckets so
// that the step stays what it was when later versions add buckets.
func createBuckets(tx *bbolt.Tx) error {
	for _, b := range [][]byte{
		bucketMeta, bucketGames, bucketOpen, bucketHistory, bucketAI, bucketDeadline,
		bucketRatings, bucketRank, bucketGuilds,
	} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return fmt.Errorf("create bucket %s: %w", b, err)
		}
	}
	return nil
}

// addSolvedIndex is the step from version 1 to version 2, which brings
// solo puzzles: game records with one player, the status "abandoned" and
// the result fields "moves_used" and "optimal", and the index of solved
// puzzles. A version-1 file cannot hold a solo puzzle (its games have two
// players), so the new index starts empty and no record is rewritten: the
// two-player records read unchanged. The version bump is what matters
// most: a Gambit of version 1 refuses the upgraded file as too new instead
// of meeting records it cannot decode.
func addSolvedIndex(tx *bbolt.Tx) error {
	if _, err := tx.CreateBucketIfNotExists(bucketSolved); err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketSolved, err)
	}
	return nil
}

// allowWithdrawn is the step from version 2 to version 3, which brings the
// status "withdrawn" of a challenge its challenger took back (version 2
// stored it as "declined"). No record changes: the bump alone makes a
// Gambit of version 2, whose decoder does not know the status, refuse the
// file as too new instead of reporting its withdrawn challenges as
// corrupt. Challenges withdrawn before stay "declined": nothing recorded
// which of the two they were.
func allowWithdrawn(*bbolt.Tx) error { return nil }

// addClaims is the step from version 3 to version 4, which brings the
// bucket of expiring claims (Store.Claim). The bump keeps a Gambit of
// version 3, whose check does not know the bucket, from reporting it.
func addClaims(tx *bbolt.Tx) error {
	if _, err := tx.CreateBucketIfNotExists(bucketClaims); err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketClaims, err)
	}
	return nil
}

// addUsers is the step from version 4 to version 5, which brings the
// bucket of users' own settings (Store.UserSettings) and the board form
// of guild settings. The bump keeps a Gambit of version 4, whose check
// does not know the bucket nor the form, from reporting them.
func addUsers(tx *bbolt.Tx) error {
	if _, err := tx.CreateBucketIfNotExists(bucketUsers); err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketUsers, err)
	}
	return nil
}

// addDaily is the step from version 5 to version 6, which brings the
// buckets of the servers' daily puzzles (storage.DailyStore) and the daily
// channel of guild settings. The bump keeps a Gambit of version 5, whose
// check does not know the buckets, from reporting them.
func addDaily(tx *bbolt.Tx) error {
	for _, b := range [][]byte{bucketDaily, bucketDailySolved, bucketDailyPosts} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return fmt.Errorf("create bucket %s: %w", b, err)
		}
	}
	return nil
}

// addReviews is the step from version 6 to version 7, which brings the
// bucket of ended duels' reviews (Store.Review), kept so that a game is
// reviewed once. The bump keeps a Gambit of version 6, whose check does
// not know the bucket, from reporting it.
func addReviews(tx *bbolt.Tx) error {
	if _, err := tx.CreateBucketIfNotExists(bucketReviews); err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketReviews, err)
	}
	return nil
}

// addInteractionsAndSecrets is the step from version 7 to version 8, which
// brings the bucket of interactions acted on, so that one delivered twice
// acts once across processes and restarts, and the bucket of the install's
// secrets (the daily puzzles' key). The bump keeps a Gambit of version 7,
// whose check does not know the buckets, from reporting them.
func addInteractionsAndSecrets(tx *bbolt.Tx) error {
	for _, b := range [][]byte{bucketInteractions, bucketSecrets} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return fmt.Errorf("create bucket %s: %w", b, err)
		}
	}
	return nil
}

// addTournaments is the step from version 8 to version 9, which brings
// the servers' tournaments (storage.TournamentStore): their records and
// indexes. The bump keeps a Gambit of version 8, whose check does not
// know the buckets, from reporting them.
func addTournaments(tx *bbolt.Tx) error {
	for _, b := range [][]byte{bucketTournaments, bucketTournamentOpen, bucketTournamentHistory, bucketTournamentPlayers, bucketTournamentGames} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return fmt.Errorf("create bucket %s: %w", b, err)
		}
	}
	return nil
}

// readSchema returns the stored schema version: 0 for an empty file, an
// ErrSchema error for a non-empty file without Gambit's meta bucket.
func readSchema(tx *bbolt.Tx) (uint64, error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		if k, _ := tx.Cursor().First(); k != nil {
			return 0, fmt.Errorf("%w: not a Gambit database (bucket %q but no %q bucket)", ErrSchema, k, bucketMeta)
		}
		return 0, nil
	}
	data := meta.Get(keySchema)
	if data == nil {
		return 0, fmt.Errorf("%w: no schema version in bucket %q", ErrSchema, bucketMeta)
	}
	return decodeSchema(data)
}

// migrate brings the database to len(steps), one transaction per step.
func migrate(db *bbolt.DB, path string, steps []migration) error {
	var have uint64
	if err := db.View(func(tx *bbolt.Tx) (err error) {
		have, err = readSchema(tx)
		return err
	}); err != nil {
		return fmt.Errorf("storage: open %s: %w", path, err)
	}
	want := uint64(len(steps))
	switch {
	case have > want:
		return fmt.Errorf("storage: open %s: %w: schema version %d is newer than this build's %d; run a newer Gambit", path, ErrSchema, have, want)
	case have < want && db.IsReadOnly():
		return fmt.Errorf("storage: open %s: %w: schema version %d needs upgrading to %d; open it read-write (start the bot) first", path, ErrSchema, have, want)
	}
	for v := have; v < want; v++ {
		step := steps[v]
		if err := db.Update(func(tx *bbolt.Tx) error {
			if err := step.apply(tx); err != nil {
				return err
			}
			meta, err := tx.CreateBucketIfNotExists(bucketMeta)
			if err != nil {
				return err
			}
			return meta.Put(keySchema, encodeSchema(v+1))
		}); err != nil {
			return fmt.Errorf("storage: open %s: migrate schema %d→%d (%s): %w", path, v, v+1, step.name, err)
		}
	}
	return nil
}
