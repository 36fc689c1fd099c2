package storage

import (
	"fmt"
	"strings"
	"time"
)

// GameID identifies a game. Ids are short, unique and sort in creation order.
type GameID string

// Kind is the game being played.
type Kind string

// The game kinds Gambit plays.
const (
	Adjacency   Kind = "adjacency"
	ConnectFour Kind = "connect4"
	TicTacToe   Kind = "tictactoe"
)

// Kinds returns every game kind in a stable order.
func Kinds() []Kind { return []Kind{Adjacency, ConnectFour, TicTacToe} }

// Valid reports whether k is a known game kind.
func (k Kind) Valid() bool { return k == Adjacency || k == ConnectFour || k == TicTacToe }

// Status is where a game is in its life.
type Status string

// Game statuses. A game starts pending (a challenge waiting for an answer)
// or active; pending becomes active, expired, declined or cancelled; active
// becomes finished, forfeited or cancelled. The last five are final.
const (
	StatusPending   Status = "pending"
	StatusActive    Status = "active"
	StatusFinished  Status = "finished"
	StatusForfeited Status = "forfeited"
	StatusExpired   Status = "expired"
	StatusDeclined  Status = "declined"
	// StatusCancelled ends a challenge or a game that can no longer be
	// played through no player's doing, such as when the bot is removed
	// from the game's guild. A cancelled game has no result: it is not
	// rated and not in history.
	StatusCancelled Status = "cancelled"
)

// Statuses returns every status in a stable order.
func Statuses() []Status {
	return []Status{StatusPending, StatusActive, StatusFinished, StatusForfeited, StatusExpired, StatusDeclined, StatusCancelled}
}

// Valid reports whether s is a known status.
func (s Status) Valid() bool {
	switch s {
	case StatusPending, StatusActive, StatusFinished, StatusForfeited, StatusExpired, StatusDeclined, StatusCancelled:
		return true
	}
	return false
}

// Open reports whether a game in status s is still going (pending or active).
func (s Status) Open() bool { return s == StatusPending || s == StatusActive }

// Ended reports whether s is a played-out end: finished or forfeited. Such
// games have a result, count for ratings and appear in history.
func (s Status) Ended() bool { return s == StatusFinished || s == StatusForfeited }

// CanBecome reports whether a game may go from status s to status to in one
// change; finishing says whether the change is FinishGame's.
func (s Status) CanBecome(to Status, finishing bool) bool {
	if finishing {
		return s == StatusActive && to.Ended()
	}
	switch s {
	case StatusPending:
		return to == StatusPending || to == StatusActive || to == StatusExpired || to == StatusDeclined || to == StatusCancelled
	case StatusActive:
		return to == StatusActive || to == StatusCancelled
	}
	return false
}

// PlayerID identifies a player: a Discord user (User), an AI strategy (AI)
// or a deleted user (Anonymous).
type PlayerID string

// Player id prefixes.
const (
	userPrefix = "user:"
	aiPrefix   = "ai:"
)

// Anonymous replaces a user who asked for their data to be deleted.
const Anonymous PlayerID = "deleted"

// User returns the player id of a Discord user.
func User(discordID string) PlayerID { return PlayerID(userPrefix + discordID) }

// AI returns the player id of an AI strategy, rated like a user.
func AI(strategy string) PlayerID { return PlayerID(aiPrefix + strategy) }

// UserID returns the Discord user id of a user player.
func (p PlayerID) UserID() (string, bool) { return strings.CutPrefix(string(p), userPrefix) }

// Strategy returns the strategy name of an AI player.
func (p PlayerID) Strategy() (string, bool) { return strings.CutPrefix(string(p), aiPrefix) }

// IsAI reports whether p is an AI strategy.
func (p PlayerID) IsAI() bool { return strings.HasPrefix(string(p), aiPrefix) }

// maxIDLen bounds player and Discord ids so that index keys stay small.
const maxIDLen = 200

// Validate checks that p is a well-formed player id.
func (p PlayerID) Validate() error {
	if p == Anonymous {
		return nil
	}
	rest, ok := p.UserID()
	if !ok {
		rest, ok = p.Strategy()
	}
	if !ok || rest == "" || len(p) > maxIDLen || strings.ContainsRune(rest, 0) {
		return fmt.Errorf("%w: player id %q", ErrInvalid, p)
	}
	return nil
}

// Player is one side of a game.
type Player struct {
	// ID says who plays.
	ID PlayerID `json:"id"`
	// Name is the display name when the game was created, for boards.
	Name string `json:"name,omitempty"`
}

// Settings are the options a game was created with.
type Settings struct {
	// Rounds is the number of rounds (Adjacency); 0 for other kinds.
	Rounds int `json:"rounds,omitempty"`
	// First is the challenger's choice of who moves first: "me",
	// "opponent" or "random".
	First string `json:"first,omitempty"`
	// MoveTime is the AI's time per move.
	MoveTime time.Duration `json:"move_time,omitempty"`
}

// LastMove is what a game's last move did, in the game's notation: the
// move and the other cells it changed (captured marks).
type LastMove struct {
	// Move is the move played.
	Move string `json:"move"`
	// Changed lists the other cells the move changed.
	Changed []string `json:"changed,omitempty"`
}

// Draw is the Result.Winner of a drawn game.
const Draw = -1

// Result is how a game ended.
type Result struct {
	// Winner is the index in Game.Players of the winner, or Draw.
	Winner int `json:"winner"`
	// Reason says why it ended, for display ("resigned", "timeout", …).
	Reason string `json:"reason,omitempty"`
}

// Score returns player i's score: 1 for a win, 0.5 for a draw, 0 for a loss.
func (r Result) Score(i int) float64 {
	switch r.Winner {
	case Draw:
		return 0.5
	case i:
		return 1
	}
	return 0
}

// Game is a challenge or a game, from invitation to result.
type Game struct {
	// ID is assigned by CreateGame.
	ID GameID `json:"id"`
	// Version is 1 when created and grows by one per committed change.
	Version uint64 `json:"version"`
	// Kind is the game played.
	Kind Kind `json:"kind"`
	// Status is where the game is in its life.
	Status Status `json:"status"`
	// Players are the two sides; Players[0] is the challenger.
	Players [2]Player `json:"players"`
	// Turn is the index in Players of the player to move.
	Turn int `json:"turn"`
	// Settings are the options the game was created with.
	Settings Settings `json:"settings"`
	// Moves are the moves so far in the engine's text notation.
	Moves []string `json:"moves,omitempty"`
	// Position is the current position in the engine's text format.
	Position string `json:"position,omitempty"`
	// Last is what the last move did, for boards; nil before the first
	// move and in records written before Gambit kept it.
	Last *LastMove `json:"last,omitempty"`
	// Result is set when the game has ended (finished or forfeited).
	Result *Result `json:"result,omitempty"`
	// GuildID, ChannelID and MessageID locate the Discord message showing
	// the game; GuildID is empty in direct messages.
	GuildID   string `json:"guild_id,omitempty"`
	ChannelID string `json:"channel_id,omitempty"`
	MessageID string `json:"message_id,omitempty"`
	// Deadline is when a pending challenge expires or the player to move
	// forfeits; zero for none. The store clears it when the game closes.
	Deadline time.Time `json:"deadline,omitzero"`
	// Rematched is set on an ended game once a rematch of it was claimed
	// (Store.ClaimRematch), so that its Rematch button starts one game
	// only, also across restarts.
	Rematched bool `json:"rematched,omitempty"`
	// CreatedAt and UpdatedAt are set by the store.
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// AwaitingAI reports whether the game is active with an AI to move.
func (g *Game) AwaitingAI() bool {
	return g.Status == StatusActive && g.Players[g.Turn].ID.IsAI()
}

// Seat returns the index of player p in g.Players, or -1.
func (g *Game) Seat(p PlayerID) int {
	for i, pl := range g.Players {
		if pl.ID == p {
			return i
		}
	}
	return -1
}

// Validate checks the rules every stored game obeys, apart from the id,
// version and timestamps that the store assigns.
func (g *Game) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: game %s: %s", ErrInvalid, g.ID, fmt.Sprintf(format, args...))
	}
	if !g.Kind.Valid() {
		return bad("unknown kind %q", g.Kind)
	}
	if !g.Status.Valid() {
		return bad("unknown status %q", g.Status)
	}
	for _, p := range g.Players {
		if err := p.ID.Validate(); err != nil {
			return bad("%v", err)
		}
	}
	if a, b := g.Players[0].ID, g.Players[1].ID; a == b && a != Anonymous {
		return bad("both players are %s", a)
	}
	if g.Turn != 0 && g.Turn != 1 {
		return bad("turn %d is not 0 or 1", g.Turn)
	}
	if g.Settings.Rounds < 0 || g.Settings.MoveTime < 0 {
		return bad("negative setting")
	}
	if (g.Result != nil) != g.Status.Ended() {
		return bad("status %s with result %v", g.Status, g.Result)
	}
	if g.Result != nil && (g.Result.Winner < Draw || g.Result.Winner > 1) {
		return bad("winner %d is not 0, 1 or Draw", g.Result.Winner)
	}
	if g.Rematched && !g.Status.Ended() {
		return bad("rematch claimed on a %s game", g.Status)
	}
	if !g.Deadline.IsZero() && !g.Status.Open() {
		return bad("deadline on a %s game", g.Status)
	}
	for _, id := range []string{g.GuildID, g.ChannelID, g.MessageID} {
		if len(id) > maxIDLen || strings.ContainsRune(id, 0) {
			return bad("malformed Discord id %q", id)
		}
	}
	for i, m := range g.Moves {
		if m == "" {
			return bad("move %d is empty", i+1)
		}
	}
	return nil
}
