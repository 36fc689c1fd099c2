// Package bolt is Gambit's storage.Store on a single bbolt file, plus the
// functions behind `gambit db check|backup|stats|bench`.
//
// # Layout
//
// Records live in top-level buckets: "games" (game id → game), "ratings"
// (one sub-bucket per ladder, player id → rating), "guilds" (guild id →
// settings) and "meta" (the schema version). Secondary indexes hold empty
// values and keep everything in ordered keys, so every list is a range scan:
// "idx_open" and "idx_history" (player ‖ 0 ‖ game id; one entry per player,
// so a duel has two and a solo puzzle one), "idx_solved" (player ‖ 0 ‖ kind
// ‖ 0 ‖ game id, solved solo puzzles only; since schema 2), "idx_ai" (game
// id), "idx_deadline" (big-endian deadline ‖ game id) and "rank" (one sub-bucket
// per ladder, inverted order-preserving rating ‖ player id, established
// ratings only, so a leaderboard is the first N keys). One function,
// gameIndex, defines the index entries of a game; writes and Check both use
// it. Game ids are the games bucket's sequence in zero-padded base 36: short
// enough for Discord custom ids, unique, and sorted by creation.
//
// Tournaments (schema 9) are records in "tournaments" (id → tournament,
// ids from that bucket's sequence, as games'), indexed by the same rule,
// tournamentIndex: "idx_tournament_open" and "idx_tournament_history"
// (guild ‖ 0 ‖ id, by whether it ended), "idx_tournament_players"
// (player ‖ 0 ‖ id) and "idx_tournament_games" (game id ‖ 0 ‖ id, for
// the tournament of a game that ends).
//
// Records are a format byte followed by JSON (see codec.go). The schema
// version in "meta" names the layout; Open upgrades older files through an
// ordered list of migrations, one transaction each, and refuses newer ones.
// Version 1 is the buckets above without "idx_solved"; version 2 adds it
// together with solo puzzles (game records with one player, the status
// "abandoned", the result's "moves_used" and "optimal", the game's
// "start"). A change a version-1 reader could not decode bumps the
// version even when no record is rewritten, so that the older reader
// refuses the file as too new rather than calling its records corrupt.
// testdata/schema1.db, written by the code of version 1, keeps the upgrade
// honest (migrate_test.go).
//
// # Crashes
//
// Every logical change — creating or updating a game with all its index
// entries, finishing a game together with both players' ratings, history
// and rank keys, deleting a user, one migration step — is one bbolt
// transaction, and bbolt commits a transaction by writing its new pages,
// fsyncing them, then writing and fsyncing one of two alternating meta
// pages. The store never disables those fsyncs (NoSync, NoGrowSync and
// NoFreelistSync stay false). So a crash, power loss or SIGKILL at any
// point leaves:
//
//   - before the meta page is on disk: the previous state, exactly; the
//     half-written pages are unreachable and reused;
//   - after it: the whole change; the method may not have returned, so the
//     caller never showed it, and the next load sees the new version (a
//     retry of the same update then fails with storage.ErrConflict rather
//     than applying twice);
//   - never a game without its index entries, a result without its rating
//     change, or a rating counted twice.
//
// Concurrent writes may share one transaction through DB.Batch; each of
// them still returns only after the shared commit is durable. A crash during
// Store.BackupFile leaves at most a temporary file beside the target, which
// is renamed into place only once complete and fsynced; Store.Snapshot's
// copy loses its name as soon as it is created, so a crash during the copy
// leaves nothing. A crash during a schema migration leaves the previous schema
// version, and the step runs again on the next Open.
//
// bbolt takes an exclusive file lock, so only one process can open the
// database for writing; Open waits Options.LockTimeout and then fails with
// ErrLocked, naming the file.
//
// # Damaged files
//
// bbolt checksums its meta pages but trusts every other page: it follows
// their offsets and page ids through unchecked pointers, so a flipped bit
// can make it panic, loop forever on a page cycle, or read outside the
// mapped file — a memory fault that kills the process and that recover
// cannot catch, least of all in the goroutine behind bbolt's Tx.Check. So
// Open and Check first walk the page tree with bounds-checked reads of
// their own (verify.go: every page below the high-water mark and reached
// once, every element and inline bucket inside its page, the freelist
// inside its page and listing no page in use); Open refuses a damaged file and Check reports its
// damage as problems, before bbolt touches it. What remains is caught at
// the boundary: Open, Check and Stats run under guard, which turns a panic
// or a memory fault (debug.SetPanicOnFault) into an error naming the file.
// Both errors match ErrCorruptFile and storage.ErrCorrupt.
package bolt
