package storage

import (
	"fmt"
	"time"
)

// SetMessage returns the record SetTournamentMessage stores when old's
// announcement is message messageID at time now, whether it is to be
// stored (false: old has it already), or the error.
func SetMessage(old *Tournament, messageID string, now time.Time) (Tournament, bool, error) {
	if messageID == "" || len(messageID) > maxIDLen {
		return Tournament{}, false, fmt.Errorf("%w: announcement id %q", ErrInvalid, messageID)
	}
	if old.MessageID == messageID {
		return *old, false, nil
	}
	rec := old.clone()
	rec.MessageID = messageID
	rec, err := changed(old, rec, now)
	return rec, err == nil, err
}

// SetThread returns the record SetRoundThread stores when round number
// round of old gets its boards' thread at time now — or, thread empty,
// when Discord refused one (ThreadsRefused) — whether it is to be stored
// (false: the round has its thread, or threads were refused already), or
// the error.
func SetThread(old *Tournament, round int, thread string, now time.Time) (Tournament, bool, error) {
	switch {
	case old.Status.Ended():
		return Tournament{}, false, fmt.Errorf("%w: it is %s", ErrGameOver, old.Status)
	case round < 1 || round > len(old.Rounds):
		return Tournament{}, false, fmt.Errorf("%w: round %d of %d", ErrInvalid, round, len(old.Rounds))
	case thread == "" && old.ThreadsRefused, thread != "" && old.Rounds[round-1].Thread != "":
		return *old, false, nil
	}
	rec := old.clone()
	if thread == "" {
		rec.ThreadsRefused = true
	} else {
		rec.Rounds[round-1].Thread = thread
	}
	rec, err := changed(old, rec, now)
	return rec, err == nil, err
}

// IntoThread returns the record of game old moved into thread at time
// now, as SetRoundThread stores it, and whether it moves: only an open
// game whose board was not posted yet does.
func IntoThread(old *Game, thread string, now time.Time) (Game, bool, error) {
	if !old.Status.Open() || old.MessageID != "" || old.ChannelID == thread {
		return Game{}, false, nil
	}
	moved := *old
	moved.ChannelID = thread
	rec, err := Commit(old, &moved, nil, now)
	return rec, err == nil, err
}

// ThreadGames lists the games of round number round of t, the ones
// SetRoundThread may move (IntoThread).
func (t *Tournament) ThreadGames(round int) []GameID {
	var out []GameID
	if round >= 1 && round <= len(t.Rounds) {
		for _, b := range t.Rounds[round-1].Boards {
			if b.Game != "" {
				out = append(out, b.Game)
			}
		}
	}
	return out
}

// TournamentBoards is where a guild's tournaments post each round's
// boards (GuildSettings.TournamentBoards).
type TournamentBoards string

// The places of a round's boards. The zero value is the default, a
// thread per round: a busy channel keeps its conversation, and each
// round's boards are together under its pairings.
const (
	TournamentBoardsDefault TournamentBoards = ""
	TournamentBoardsThreads TournamentBoards = "threads"
	TournamentBoardsChannel TournamentBoards = "channel"
)

// Valid reports whether b is a place or the default.
func (b TournamentBoards) Valid() bool {
	return b == TournamentBoardsDefault || b == TournamentBoardsThreads || b == TournamentBoardsChannel
}

// Threads reports whether b puts each round's boards in a thread of its
// own.
func (b TournamentBoards) Threads() bool { return b != TournamentBoardsChannel }
