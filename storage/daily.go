package storage

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// DailyStatus is where a member's attempt at a server's daily puzzle is.
type DailyStatus string

// The statuses of a daily attempt: playing until solved, failed (a
// wrong move in a best-move puzzle) or given up; the last three are
// final.
const (
	DailyPlaying DailyStatus = "playing"
	DailySolved  DailyStatus = "solved"
	DailyFailed  DailyStatus = "failed"
	DailyGaveUp  DailyStatus = "gave_up"
)

// Valid reports whether s is a known status.
func (s DailyStatus) Valid() bool {
	switch s {
	case DailyPlaying, DailySolved, DailyFailed, DailyGaveUp:
		return true
	}
	return false
}

// Ended reports whether an attempt in status s is over and never changes.
func (s DailyStatus) Ended() bool { return s.Valid() && s != DailyPlaying }

// DailyAttempt is one member's attempt at a server's puzzle of one day:
// at most one per guild, day and player.
type DailyAttempt struct {
	// GuildID is the server.
	GuildID string `json:"guild_id"`
	// Day is the UTC date of the puzzle, "2006-01-02".
	Day string `json:"day"`
	// Player is the member.
	Player Player `json:"player"`
	// Status is where the attempt is.
	Status DailyStatus `json:"status"`
	// Hints counts the hints the member asked for.
	Hints int `json:"hints,omitempty"`
	// Moves counts the moves the member made.
	Moves int `json:"moves,omitempty"`
	// GameID is the solo game the member plays a sliding-tile or N-Queens
	// puzzle in; empty for a best-move puzzle, played in one click.
	GameID GameID `json:"game_id,omitempty"`
	// UpdatedAt is set by the store at each change: for an ended attempt,
	// when it ended.
	UpdatedAt time.Time `json:"updated_at"`
}

// Validate checks the rules every stored attempt obeys.
func (a DailyAttempt) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: daily attempt of %s in guild %s on %s: %s", ErrInvalid, a.Player.ID, a.GuildID, a.Day, fmt.Sprintf(format, args...))
	}
	if a.GuildID == "" || len(a.GuildID) > maxIDLen {
		return bad("no guild")
	}
	if !ValidDay(a.Day) {
		return bad("day %q is not a date like 2026-11-27", a.Day)
	}
	if _, ok := a.Player.ID.UserID(); !ok || a.Player.ID.Validate() != nil {
		return bad("player %q is not a user", a.Player.ID)
	}
	if !a.Status.Valid() {
		return bad("unknown status %q", a.Status)
	}
	if a.Hints < 0 || a.Moves < 0 {
		return bad("negative count")
	}
	return nil
}

// ValidDay reports whether day names a date as "2006-01-02".
func ValidDay(day string) bool {
	t, err := time.Parse(time.DateOnly, day)
	return err == nil && t.Format(time.DateOnly) == day
}

// Streak returns the number of consecutive days, ending today or the day
// before, in solved (days as "2006-01-02", newest first): a streak lives
// on until a whole day passes without a solve.
func Streak(solved []string, today string) int {
	t, err := time.Parse(time.DateOnly, today)
	if err != nil {
		return 0
	}
	i := 0
	for i < len(solved) && solved[i] > today {
		i++ // a day after today: the clock moved back
	}
	if i < len(solved) && solved[i] != today {
		t = t.AddDate(0, 0, -1)
	}
	n := 0
	for ; i < len(solved) && solved[i] == t.Format(time.DateOnly); i++ {
		n++
		t = t.AddDate(0, 0, -1)
	}
	return n
}

// SortDailyAttempts sorts attempts as DailyAttempts lists them: the
// earliest changed first, ties by player.
func SortDailyAttempts(list []DailyAttempt) {
	slices.SortFunc(list, func(a, b DailyAttempt) int {
		if c := a.UpdatedAt.Compare(b.UpdatedAt); c != 0 {
			return c
		}
		return strings.Compare(string(a.Player.ID), string(b.Player.ID))
	})
}

// DailyStore keeps the servers' daily puzzles: who played them, how, and
// which were posted. storage.Store has it.
type DailyStore interface {
	// DailyAttempt returns a member's attempt at guild's puzzle of day;
	// ErrNotFound if they have not begun it.
	DailyAttempt(ctx context.Context, guildID, day string, p PlayerID) (DailyAttempt, error)
	// UpdateDailyAttempt changes a member's attempt at guild's puzzle of
	// day in one transaction: change edits the stored attempt, or a new
	// one in DailyPlaying with the guild, day and player set, and the
	// store saves it with UpdatedAt set. An ended attempt never changes:
	// ErrGameOver, change not called. An error of change aborts, and is
	// returned wrapped.
	UpdateDailyAttempt(ctx context.Context, guildID, day string, p Player, change func(*DailyAttempt) error) (DailyAttempt, error)
	// DailyAttempts lists the attempts at guild's puzzle of day, the
	// earliest changed first (SortDailyAttempts).
	DailyAttempts(ctx context.Context, guildID, day string) ([]DailyAttempt, error)
	// DailySolvedDays lists the days on which p solved guild's daily
	// puzzle, newest first, at most limit of them.
	DailySolvedDays(ctx context.Context, guildID string, p PlayerID, limit int) ([]string, error)
	// ClaimDailyPost records that guild's puzzle of day is posted and
	// reports whether this call did so: of all calls for one guild and
	// day, by any process sharing the store and across restarts, one
	// gets true.
	ClaimDailyPost(ctx context.Context, guildID, day string) (bool, error)
	// DailyChannels returns the guilds whose settings name a channel for
	// the daily puzzle (GuildSettings.DailyChannel), guild to channel.
	DailyChannels(ctx context.Context) (map[string]string, error)
}
