// Package storage defines what Gambit persists — games with their players,
// moves and Discord messages, challenges, ratings, history and per-guild
// settings — and the Store interface the bot uses to keep them.
//
// A game is a duel between two sides or a solo puzzle with one player
// (Game.Solo). Both are stored, listed and ended the same way; only duels
// are rated. A solo puzzle ends finished when solved, with its score in
// the Result (moves used against the optimum), or abandoned when given up.
//
// Two implementations pass the same conformance suite (storage/storetest):
// storage/bolt on one bbolt file and storage/postgres on PostgreSQL; the
// example of storage/bolt is the place to start reading. Every Store
// method that changes data is one transaction: it happens completely or not
// at all, and it is on disk when the method returns.
//
// Games use optimistic concurrency. A game's Version is 1 when it is created
// and grows by one with every committed change; UpdateGame and FinishGame
// take the version the caller loaded and fail with ErrConflict when somebody
// else committed first, so of two clicks racing on one board exactly one
// wins. The loser reloads the game and answers from the new state.
//
// The JSON field names of the types below are the record format of both
// stores; renaming one needs a schema migration.
package storage

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Errors returned by Store implementations, wrapped with context; test them
// with errors.Is.
var (
	// ErrNotFound reports a game or rating that does not exist.
	ErrNotFound = errors.New("not found")
	// ErrConflict reports an update that carried a stale game version:
	// another change was committed since the caller loaded the game.
	ErrConflict = errors.New("version conflict")
	// ErrGameOver reports an update to a game that has already ended
	// (finished, forfeited, abandoned, expired, declined or cancelled).
	ErrGameOver = errors.New("game is over")
	// ErrRematchTaken reports a ClaimRematch of a game whose rematch was
	// claimed already.
	ErrRematchTaken = errors.New("rematch already claimed")
	// ErrTaken reports a TakeChallenge of an open challenge that another
	// member accepted first.
	ErrTaken = errors.New("challenge already taken")
	// ErrInvalid reports a record the caller asked to write that breaks the
	// rules of the data model (unknown kind, illegal status change, …).
	ErrInvalid = errors.New("invalid")
	// ErrCorrupt reports a stored record that cannot be decoded or is
	// inconsistent, the error being a *RecordError naming the record, or
	// a damaged database file (storage/bolt's ErrCorruptFile).
	ErrCorrupt = errors.New("corrupt record")
	// ErrLimit reports a new game refused because the member asking for
	// it is at a cap; the error is a *LimitError saying which.
	ErrLimit = errors.New("over limit")
)

// RecordError reports a stored record that could not be decoded. It matches
// ErrCorrupt with errors.Is and names the bucket and key of the record.
type RecordError struct {
	// Bucket is the bucket path of the record, such as "games".
	Bucket string
	// Key is the record's key.
	Key string
	// Err says what is wrong with it.
	Err error
}

// Error implements error.
func (e *RecordError) Error() string {
	return fmt.Sprintf("corrupt record %s/%q: %v", e.Bucket, e.Key, e.Err)
}

// Unwrap lets errors.Is match both ErrCorrupt and the underlying cause.
func (e *RecordError) Unwrap() []error { return []error{ErrCorrupt, e.Err} }

// SkippedError reports the games a listing left out because their records
// are corrupt. It matches ErrCorrupt with errors.Is; what the listing
// returns beside it is complete for every other game, so one bad record
// holds up no one else's.
type SkippedError struct {
	// Games are the games left out, each with what is wrong with it.
	Games []SkippedGame
}

// SkippedGame is one game a listing left out, and why.
type SkippedGame struct {
	ID  GameID
	Err error
}

// Error implements error.
func (e *SkippedError) Error() string {
	if len(e.Games) == 0 {
		return "skipped no game records"
	}
	msg := fmt.Sprintf("skipped %d corrupt game records: game %s: %v", len(e.Games), e.Games[0].ID, e.Games[0].Err)
	if len(e.Games) > 1 {
		msg += fmt.Sprintf(" and %d more", len(e.Games)-1)
	}
	return msg
}

// Unwrap lets errors.Is match ErrCorrupt.
func (e *SkippedError) Unwrap() error { return ErrCorrupt }

// Skip records game id as left out for err.
func (e *SkippedError) Skip(id GameID, err error) {
	e.Games = append(e.Games, SkippedGame{ID: id, Err: err})
}

// Err returns e if it holds a game, else nil.
func (e *SkippedError) Err() error {
	if len(e.Games) == 0 {
		return nil
	}
	return e
}

// Store is the persistence the bot needs. All methods are safe for
// concurrent use. Methods that change data commit durably before returning.
type Store interface {
	// CreateGame stores a new game in StatusPending (a challenge) or
	// StatusActive. It assigns g.ID, sets g.Version to 1 and the timestamps.
	// In the same transaction it counts the open games of the challenger,
	// Players[0], when that is a user, and fails with a *LimitError
	// (ErrLimit) when they are at one of limits' caps (see Limits).
	CreateGame(ctx context.Context, g *Game, limits Limits) error
	// Game loads a game; ErrNotFound if there is none with that id.
	Game(ctx context.Context, id GameID) (*Game, error)
	// UpdateGame commits g if g.Version is still the stored version and
	// then increments g.Version. It fails with ErrConflict on a stale
	// version and ErrGameOver once the game has ended. It cannot end a game
	// as finished or forfeited (that is FinishGame's job) but it can expire
	// or decline a challenge and cancel a challenge or an active game.
	// Kind and players never change.
	UpdateGame(ctx context.Context, g *Game) error
	// TakeChallenge commits g, an open challenge (Game.OpenChallenge) that
	// the caller started for the member accepting it: g.Players[1] is that
	// member and g.Status active, the rest changed as UpdateGame allows.
	// In the same transaction it counts the acceptor's open games and
	// fails with a *LimitError (ErrLimit) when they are at limits.MaxOpen.
	// Of any number of takes of one challenge, concurrent or not, one
	// succeeds; the others fail with ErrTaken once another member took it,
	// ErrGameOver once it ended unanswered, and ErrConflict for another
	// stale version.
	TakeChallenge(ctx context.Context, g *Game, limits Limits) error
	// FinishGame ends an active game with the given result, g.Status being
	// StatusFinished or StatusForfeited (a duel) or StatusFinished or
	// StatusAbandoned (a solo puzzle). In the same transaction it writes the
	// final state and the players' history and, for a duel, both players'
	// ratings in the global ladder and, for a game in a guild, the guild's
	// ladder. It returns the rating changes for display: none for a solo
	// puzzle. Version rules as UpdateGame.
	FinishGame(ctx context.Context, g *Game, res Result) ([]RatingChange, error)
	// ClaimRematch marks an ended (finished, forfeited or abandoned) game as having
	// its rematch started, the one change an ended game takes: of any
	// number of claims, concurrent or across restarts, one succeeds and
	// the others fail with ErrRematchTaken. The version grows by one. A
	// game that has not ended fails with ErrInvalid.
	ClaimRematch(ctx context.Context, id GameID) error
	// ReleaseRematch undoes ClaimRematch, for a rematch that could not be
	// started, so that the players may ask again. Releasing a game that
	// is not claimed changes nothing.
	ReleaseRematch(ctx context.Context, id GameID) error
	// ActiveGames lists a player's pending and active games, oldest first.
	ActiveGames(ctx context.Context, p PlayerID) ([]*Game, error)
	// AwaitingAI lists the active games of the guilds in shards (every
	// game with the zero Shards) whose player to move is an AI strategy,
	// oldest first: the searches to resume after a restart. A game whose
	// record is corrupt is left out, as in OpenGames.
	AwaitingAI(ctx context.Context, shards Shards) ([]*Game, error)
	// OpenGames lists the pending and active games of the guilds in
	// shards (every game with the zero Shards) that keep accepts (all
	// with a nil keep), oldest first: the games of a guild the bot leaves,
	// the boards to refresh after a restart. It reads every open game of
	// the shards. A game whose record is corrupt is left out, and the
	// others listed with a *SkippedError naming it.
	OpenGames(ctx context.Context, shards Shards, keep func(*Game) bool) ([]*Game, error)
	// CountOpen counts the pending and the active games, for metrics. A
	// store that must read the records to count them counts the others of
	// a corrupt one and returns a *SkippedError naming it with them.
	CountOpen(ctx context.Context) (pending, active int, err error)
	// DueGames lists the pending and active games of the guilds in shards
	// (every game with the zero Shards) whose Deadline has passed by the
	// store's clock (as for Claim), earliest deadline first: challenges to expire and turns to forfeit,
	// by the process running their shard. A game whose record is corrupt
	// is left out, as in OpenGames.
	DueGames(ctx context.Context, shards Shards) ([]*Game, error)
	// History lists up to limit ended (finished, forfeited or abandoned)
	// games of a player, duels and solo puzzles, newest first.
	History(ctx context.Context, p PlayerID, limit int) ([]*Game, error)
	// Solved lists up to limit solo puzzles of kind k that p solved, newest
	// first (abandoned ones are not listed).
	Solved(ctx context.Context, p PlayerID, k Kind, limit int) ([]*Game, error)
	// Leaderboard returns up to n ratings of a ladder: the established
	// ones, highest first and ranked from 1, then, while fewer than n, the
	// provisional ones, highest first with rank 0.
	Leaderboard(ctx context.Context, l Ladder, n int) ([]Standing, error)
	// Rank returns a player's rating in a ladder with up to around
	// established neighbours above and below; ErrNotFound if the player has
	// no rating there. A provisional rating has rank 0 and no neighbours.
	Rank(ctx context.Context, l Ladder, p PlayerID, around int) (RankView, error)
	// GuildSettings returns a guild's settings; the zero value (meaning
	// "use the defaults") when none were saved.
	GuildSettings(ctx context.Context, guildID string) (GuildSettings, error)
	// PutGuildSettings saves a guild's settings, replacing all of them.
	PutGuildSettings(ctx context.Context, guildID string, s GuildSettings) error
	// UpdateGuildSettings changes a guild's settings in one transaction:
	// change edits the stored settings (the zero value when none were
	// saved) and the store saves and returns them, so that two changes
	// at once, to different fields, both hold. change may run more than
	// once (a retried transaction) and must only edit what it is given.
	// An error of change aborts, and is returned wrapped; settings that
	// do not validate fail with ErrInvalid.
	UpdateGuildSettings(ctx context.Context, guildID string, change func(*GuildSettings) error) (GuildSettings, error)
	// UserSettings returns a Discord user's own settings; the zero value
	// (meaning "as the server says") when none were saved.
	UserSettings(ctx context.Context, userID string) (UserSettings, error)
	// PutUserSettings saves a user's own settings; DeleteUser erases them.
	PutUserSettings(ctx context.Context, userID string, s UserSettings) error
	// DeleteUser erases a Discord user's data: their pending and active
	// games are removed (and returned so their messages can be updated),
	// their ratings are removed from every ladder, their daily puzzle
	// attempts and the claims keyed to them (ClaimOf) are removed,
	// their ended games are kept with the user replaced by Anonymous, and
	// their tournaments with the user's entry removed before the start
	// and replaced by an ErasedEntrant after it (Erase).
	DeleteUser(ctx context.Context, userID string) (DeleteReport, error)
	// Review returns the review of game id made from its version or an
	// earlier one (Review says why that is the same); ErrNotFound if
	// there is none.
	Review(ctx context.Context, id GameID, version uint64) (*Review, error)
	// PutReview keeps r as its game's review, replacing any. The game
	// must be an ended duel at r.Version or later (ErrInvalid), and
	// exist (ErrNotFound).
	PutReview(ctx context.Context, r *Review) error
	// Claim takes the expiring claim key for owner until ttl from now by
	// the store's clock — the database server's for a store that
	// processes share (storage/postgres), so that their own clocks need
	// not agree, the process's for one it holds alone (storage/bolt) —
	// and reports whether owner holds it: a claim is
	// taken when nobody holds it, when its holder's time ran out, or when
	// owner holds it already (which renews it). Of any number of owners
	// claiming one key at once, one gets it. Processes sharing a store use
	// claims to split work (an AI turn, a gateway shard) so that it is done
	// once, and a dead process's claims expire for others to take. A store
	// one process holds alone (storage/bolt) drops every claim when it is
	// opened: their holders are gone.
	Claim(ctx context.Context, key, owner string, ttl time.Duration) (bool, error)
	// Release gives up owner's claim on key at once; a claim owner does
	// not hold is left alone.
	Release(ctx context.Context, key, owner string) error
	// Claims lists the claims that have not expired whose keys begin with
	// prefix, key to owner.
	Claims(ctx context.Context, prefix string) (map[string]string, error)
	// FirstDelivery records that the interaction id (Discord's
	// interaction ID, and nothing of who sent it) is being acted on,
	// until ttl from now by the store's clock (as for Claim), and
	// reports whether this is its first delivery: false when it was
	// recorded before and has not expired, wherever that was — another
	// process sharing the store, or this one before a restart. Of any
	// number of calls with one id at once, exactly one gets true. An
	// expired record is as good as none; expired records are swept a
	// few at a time by the calls that record new ones, so what the store
	// keeps stays about the interactions of the last ttl.
	FirstDelivery(ctx context.Context, id string, ttl time.Duration) (bool, error)
	// Secret returns the install's secret called name, creating it — a
	// SecretSize-byte key from crypto/rand — the first time it is asked
	// for. Of any number of processes asking at once, sharing the store,
	// all get the one value that was stored, and it is the same after a
	// restart (and after Copy): the daily puzzles are chosen by the
	// secret DailyKey.
	Secret(ctx context.Context, name string) ([]byte, error)
	// DailyStore keeps the servers' daily puzzles (schema 6 of
	// storage/bolt, migration 5 of storage/postgres).
	DailyStore
	// TournamentStore keeps the servers' tournaments (schema 9 of
	// storage/bolt, migration 8 of storage/postgres).
	TournamentStore
	// Close releases the database.
	Close() error
}

// SecretSize is the size in bytes of the secrets Store.Secret creates.
const SecretSize = 32

// DailyKey names the secret that the daily puzzles are chosen by: with
// it, a server's puzzle of a day can be told from nothing shown in
// Discord, and without it (a new secret) every server's puzzles change.
const DailyKey = "daily"

// ValidateSecretName refuses a secret's name that is empty or too long.
func ValidateSecretName(name string) error {
	if name == "" || len(name) > maxIDLen {
		return fmt.Errorf("%w: secret name of %d bytes", ErrInvalid, len(name))
	}
	return nil
}

// CheckSecret reports what is wrong with a stored secret: its name
// (ValidateSecretName), or a value that is not SecretSize bytes.
func CheckSecret(name string, value []byte) error {
	if err := ValidateSecretName(name); err != nil {
		return err
	}
	if len(value) != SecretSize {
		return fmt.Errorf("%w: secret %q of %d bytes, want %d", ErrInvalid, name, len(value), SecretSize)
	}
	return nil
}

// NewSecret returns a fresh secret of SecretSize bytes from crypto/rand.
func NewSecret() ([]byte, error) {
	b := make([]byte, SecretSize)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("storage: new secret: %w", err)
	}
	return b, nil
}

// DeleteReport says what DeleteUser changed.
type DeleteReport struct {
	// Removed are the pending and active games that were deleted, as they
	// were before deletion.
	Removed []*Game
	// Anonymised counts the ended games in which the user was anonymised.
	Anonymised int
	// Ratings counts the ladder ratings that were removed.
	Ratings int
}

// GuildSettings are a guild's choices; zero fields mean "use the default".
type GuildSettings struct {
	// MoveTime is the default AI move time for new games.
	MoveTime time.Duration `json:"move_time,omitempty"`
	// TurnTimeout is how long a player may take before forfeiting.
	TurnTimeout time.Duration `json:"turn_timeout,omitempty"`
	// AllowedGames lists the kinds that may be played; empty allows all.
	AllowedGames []Kind `json:"allowed_games,omitempty"`
	// Casual makes new games casual (Settings.Casual) unless their
	// players ask for a rated one; false, the default, makes them rated.
	Casual bool `json:"casual,omitempty"`
	// Board is how the guild's boards are shown to members who did not
	// choose for themselves (UserSettings.Board).
	Board BoardForm `json:"board,omitempty"`
	// DailyChannel is the channel the daily puzzle is posted in; empty,
	// the default, posts none.
	DailyChannel string `json:"daily_channel,omitempty"`
	// TournamentBoards is where the guild's tournaments post each round's
	// boards: the default, a thread per round.
	TournamentBoards TournamentBoards `json:"tournament_boards,omitempty"`
}

// BoardForm is how a board message shows the board: its picture, its
// emoji grid, or both. The zero value defers: a user's to the guild's,
// a guild's to Gambit's, the picture.
type BoardForm string

// The board forms.
const (
	BoardDefault BoardForm = ""
	BoardPicture BoardForm = "picture"
	BoardEmoji   BoardForm = "emoji"
	BoardBoth    BoardForm = "both"
)

// BoardForms are the forms one may choose, in the order menus list them.
var BoardForms = []BoardForm{BoardPicture, BoardEmoji, BoardBoth}

// Valid reports whether f is a form or the default.
func (f BoardForm) Valid() bool { return f == BoardDefault || slices.Contains(BoardForms, f) }

// Or returns f, or def if f is the default.
func (f BoardForm) Or(def BoardForm) BoardForm {
	if f == BoardDefault {
		return def
	}
	return f
}

// UserSettings are a user's own choices, which override their guilds';
// zero fields mean "as the guild says".
type UserSettings struct {
	// Board is how boards are shown in the games the user plays.
	Board BoardForm `json:"board,omitempty"`
}

// Validate checks the settings before they are stored.
func (s UserSettings) Validate() error {
	if !s.Board.Valid() {
		return fmt.Errorf("%w: unknown board form %q in user settings", ErrInvalid, s.Board)
	}
	return nil
}

// Allows reports whether the guild allows games of kind k.
func (s GuildSettings) Allows(k Kind) bool {
	if len(s.AllowedGames) == 0 {
		return true
	}
	for _, a := range s.AllowedGames {
		if a == k {
			return true
		}
	}
	return false
}

// ValidateGuildID refuses the empty guild ID, under which no settings
// are kept.
func ValidateGuildID(guildID string) error {
	if guildID == "" {
		return fmt.Errorf("%w: empty guild id", ErrInvalid)
	}
	return nil
}

// Validate checks the settings before they are stored.
func (s GuildSettings) Validate() error {
	if s.MoveTime < 0 || s.TurnTimeout < 0 {
		return fmt.Errorf("%w: negative duration in guild settings", ErrInvalid)
	}
	for _, k := range s.AllowedGames {
		if !k.Valid() {
			return fmt.Errorf("%w: unknown game kind %q in guild settings", ErrInvalid, k)
		}
	}
	if !s.Board.Valid() {
		return fmt.Errorf("%w: unknown board form %q in guild settings", ErrInvalid, s.Board)
	}
	if len(s.DailyChannel) > maxIDLen {
		return fmt.Errorf("%w: daily channel id of %d bytes in guild settings", ErrInvalid, len(s.DailyChannel))
	}
	if !s.TournamentBoards.Valid() {
		return fmt.Errorf("%w: unknown tournament boards %q in guild settings", ErrInvalid, s.TournamentBoards)
	}
	return nil
}
