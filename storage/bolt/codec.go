package bolt

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/gambitbot/gambit/storage"
)

// Records are one format byte followed by JSON. JSON keeps the file
// inspectable with bbolt's own tools, makes adding a field painless and
// costs little here: a finished game is a few hundred bytes and the store is
// bounded by fsyncs, not by encoding. The format byte lets a future compact
// encoding coexist with old records during a migration; the decoder rejects
// unknown format bytes, unknown fields and trailing data, so a record written
// by a newer Gambit or damaged on disk is reported, never half-read.
const recordV1 byte = 1

// Bucket names. Index buckets hold empty values; everything is in the keys.
var (
	bucketMeta     = []byte("meta")         // "schema" → uint64 schema version
	bucketGames    = []byte("games")        // game id → game record
	bucketOpen     = []byte("idx_open")     // player \x00 game id, for pending and active games
	bucketHistory  = []byte("idx_history")  // player \x00 game id, for ended games
	bucketSolved   = []byte("idx_solved")   // player \x00 kind \x00 game id, for solved solo puzzles (schema 2)
	bucketAI       = []byte("idx_ai")       // game id, for active games with an AI to move
	bucketDeadline = []byte("idx_deadline") // uint64 unix nanos ‖ game id, for open games with a deadline
	bucketRatings  = []byte("ratings")      // ladder → player id → rating record
	bucketRank     = []byte("rank")         // ladder → rank key ‖ player id, established ratings only
	bucketGuilds   = []byte("guilds")       // guild id → guild settings record
	bucketClaims   = []byte("claims")       // claim key → claim record (schema 4)
	bucketUsers    = []byte("users")        // user id → user settings record (schema 5)
	// The daily puzzles (schema 6): guild \x00 day \x00 player id → attempt
	// record; guild \x00 player id \x00 day for the solved attempts; guild
	// \x00 day for the puzzles posted.
	bucketDaily       = []byte("daily")
	bucketDailySolved = []byte("idx_daily_solved")
	bucketDailyPosts  = []byte("daily_posts")
	bucketReviews     = []byte("reviews") // game id → review record (schema 7)
	// Interactions acted on (schema 8): interaction id → expiry, so that
	// an interaction delivered twice acts once, across restarts.
	bucketInteractions = []byte("interactions")
	// The install's secrets (schema 8): name → value, such as the key that
	// daily puzzles are chosen by; the value is the secret's bytes as
	// they are, not a record (storage.CheckSecret).
	bucketSecrets = []byte("secrets")
	// The tournaments (schema 9): tournament id → record; guild \x00
	// tournament id for those not ended and for the ended ones; player
	// \x00 tournament id for each entrant; game id \x00 tournament id for
	// each board's game.
	bucketTournaments       = []byte("tournaments")
	bucketTournamentOpen    = []byte("idx_tournament_open")
	bucketTournamentHistory = []byte("idx_tournament_history")
	bucketTournamentPlayers = []byte("idx_tournament_players")
	bucketTournamentGames   = []byte("idx_tournament_games")
)

// allBuckets lists the top-level buckets of the current schema.
var allBuckets = [][]byte{
	bucketMeta, bucketGames, bucketOpen, bucketHistory, bucketAI, bucketDeadline,
	bucketRatings, bucketRank, bucketGuilds, bucketSolved, bucketClaims, bucketUsers,
	bucketDaily, bucketDailySolved, bucketDailyPosts,
	bucketReviews,
	bucketInteractions, bucketSecrets,
	bucketTournaments, bucketTournamentOpen, bucketTournamentHistory, bucketTournamentPlayers, bucketTournamentGames,
}

var keySchema = []byte("schema")

// encode returns the record encoding of v.
func encode(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("storage: encode %T: %w", v, err)
	}
	return append([]byte{recordV1}, b...), nil
}

// decodeRecord decodes a record of the given bucket and key into v, wrapping
// any problem in a *storage.RecordError that names the record.
func decodeRecord(bucket string, key, data []byte, v any) error {
	fail := func(err error) error {
		return &storage.RecordError{Bucket: bucket, Key: string(key), Err: err}
	}
	if len(data) == 0 {
		return fail(errors.New("empty record"))
	}
	if data[0] != recordV1 {
		return fail(fmt.Errorf("unknown record format %d", data[0]))
	}
	if err := storage.DecodeJSON(data[1:], v); err != nil {
		return fail(err)
	}
	return nil
}

// decodeGame decodes and validates a game record stored under key.
func decodeGame(key, data []byte) (*storage.Game, error) {
	var g storage.Game
	if err := decodeRecord(string(bucketGames), key, data, &g); err != nil {
		return nil, err
	}
	if err := storage.CheckStoredGame(string(key), &g); err != nil {
		return nil, &storage.RecordError{Bucket: string(bucketGames), Key: string(key), Err: err}
	}
	return &g, nil
}

// decodeRating decodes and validates a rating record of ladder l.
func decodeRating(l string, key, data []byte) (storage.Rating, error) {
	bucket := string(bucketRatings) + "/" + l
	var r storage.Rating
	if err := decodeRecord(bucket, key, data, &r); err != nil {
		return r, err
	}
	if err := storage.CheckStoredRating(string(key), r); err != nil {
		return r, &storage.RecordError{Bucket: bucket, Key: string(key), Err: err}
	}
	return r, nil
}

// decodeGuildSettings decodes and validates a guild settings record.
func decodeGuildSettings(key, data []byte) (storage.GuildSettings, error) {
	return decodeSettings[storage.GuildSettings](bucketGuilds, key, data)
}

// decodeUserSettings decodes and validates a user settings record.
func decodeUserSettings(key, data []byte) (storage.UserSettings, error) {
	return decodeSettings[storage.UserSettings](bucketUsers, key, data)
}

// decodeSettings decodes a settings record of bucket and validates it.
func decodeSettings[T interface{ Validate() error }](bucket, key, data []byte) (T, error) {
	var s T
	if err := decodeRecord(string(bucket), key, data, &s); err != nil {
		return s, err
	}
	if err := s.Validate(); err != nil {
		return s, &storage.RecordError{Bucket: string(bucket), Key: string(key), Err: err}
	}
	return s, nil
}

// encodeSchema and decodeSchema store the schema version.
func encodeSchema(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }

func decodeSchema(data []byte) (uint64, error) {
	if len(data) != 8 {
		return 0, &storage.RecordError{Bucket: string(bucketMeta), Key: string(keySchema), Err: fmt.Errorf("schema version has %d bytes, want 8", len(data))}
	}
	return binary.BigEndian.Uint64(data), nil
}

// pairKey is the index key "a \x00 b" (player and game id).
func pairKey(a, b string) []byte {
	k := make([]byte, 0, len(a)+1+len(b))
	k = append(k, a...)
	k = append(k, 0)
	return append(k, b...)
}

// pairPrefix is the prefix of all pairKey(a, …).
func pairPrefix(a string) []byte { return pairKey(a, "") }

// solvedPrefix is the prefix of the solved-puzzles index keys of player p
// and kind k: "p \x00 k \x00", the game id following.
func solvedPrefix(p storage.PlayerID, k storage.Kind) []byte {
	return pairKey(string(p), string(k)+"\x00")
}

// deadlineKey orders open games by deadline.
func deadlineKey(t time.Time, id storage.GameID) []byte {
	ns := max(t.UnixNano(), 0)
	return append(binary.BigEndian.AppendUint64(nil, uint64(ns)), id...)
}

// rankKey orders a ladder's established ratings best first: the rating as
// an order-preserving unsigned integer, inverted, then the player id to
// break ties.
func rankKey(r storage.Rating) []byte {
	bits := math.Float64bits(r.Rating)
	if bits>>63 == 0 {
		bits |= 1 << 63
	} else {
		bits = ^bits
	}
	return append(binary.BigEndian.AppendUint64(nil, ^bits), r.Player...)
}

// rankKeyPlayer returns the player id of a rank key.
func rankKeyPlayer(k []byte) (storage.PlayerID, bool) {
	if len(k) <= 8 {
		return "", false
	}
	return storage.PlayerID(k[8:]), true
}
