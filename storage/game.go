package storage

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// GameID identifies a game. Ids are short, unique and sort in creation order.
type GameID string

// Kind is the game being played: the name of a game's plug-in (see
// games/catalog), such as "adjacency". The store keeps kinds as names and
// knows no game; which names are games is the catalog's business.
type Kind string

// maxKindLen bounds a kind's name.
const maxKindLen = 32

// Valid reports whether k is a well-formed kind name: 1–32 lowercase
// letters and digits.
func (k Kind) Valid() bool {
	if len(k) == 0 || len(k) > maxKindLen {
		return false
	}
	for _, c := range k {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// Status is where a game is in its life.
type Status string

// Game statuses. A game starts pending (a challenge waiting for an answer)
// or active; pending becomes active, expired, declined, withdrawn or
// cancelled; active becomes finished, forfeited, abandoned, aborted or
// cancelled. The last eight are final. A solo puzzle (see Game.Solo) starts active and ends finished
// (solved), abandoned or cancelled.
const (
	StatusPending   Status = "pending"
	StatusActive    Status = "active"
	StatusFinished  Status = "finished"
	StatusForfeited Status = "forfeited"
	StatusExpired   Status = "expired"
	// StatusDeclined ends a challenge its challenged player declined.
	StatusDeclined Status = "declined"
	// StatusWithdrawn ends a challenge its challenger took back (schema
	// version 3; before it, withdrawn challenges were stored as declined).
	StatusWithdrawn Status = "withdrawn"
	// StatusCancelled ends a challenge or a game that can no longer be
	// played through no player's doing, such as when the bot is removed
	// from the game's guild. A cancelled game has no result: it is not
	// rated and not in history.
	StatusCancelled Status = "cancelled"
	// StatusAbandoned ends a solo puzzle its player gave up (or could no
	// longer solve) without solving it. It is a status of its own, not
	// "finished" with a reason, so that nothing which counts finished
	// puzzles as solved — a list of solutions, a daily leaderboard — can
	// count a gave-up puzzle by forgetting to look at the reason. Like
	// finished, it has a Result (Winner Nobody) and is in history; it is
	// never rated, as no solo game is.
	StatusAbandoned Status = "abandoned"
	// StatusAborted ends a duel one of its players called off before
	// each side had moved twice (Game.Abortable): like a cancelled game it
	// has no result, is not rated and is not in history.
	StatusAborted Status = "aborted"
)

// Statuses returns every status in a stable order.
func Statuses() []Status {
	return []Status{StatusPending, StatusActive, StatusFinished, StatusForfeited, StatusExpired, StatusDeclined, StatusWithdrawn, StatusCancelled, StatusAbandoned, StatusAborted}
}

// Valid reports whether s is a known status.
func (s Status) Valid() bool {
	switch s {
	case StatusPending, StatusActive, StatusFinished, StatusForfeited, StatusExpired, StatusDeclined, StatusWithdrawn, StatusCancelled, StatusAbandoned, StatusAborted:
		return true
	}
	return false
}

// Open reports whether a game in status s is still going (pending or active).
func (s Status) Open() bool { return s == StatusPending || s == StatusActive }

// Ended reports whether s is a played-out end: finished, forfeited or
// abandoned. Such games have a result and appear in history; the duels
// among them count for ratings.
func (s Status) Ended() bool {
	return s == StatusFinished || s == StatusForfeited || s == StatusAbandoned
}

// CanBecome reports whether a game may go from status s to status to in one
// change; finishing says whether the change is FinishGame's.
func (s Status) CanBecome(to Status, finishing bool) bool {
	if finishing {
		return s == StatusActive && to.Ended()
	}
	switch s {
	case StatusPending:
		return to == StatusPending || to == StatusActive || to == StatusExpired || to == StatusDeclined || to == StatusWithdrawn || to == StatusCancelled
	case StatusActive:
		return to == StatusActive || to == StatusCancelled || to == StatusAborted
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

// Anyone holds seat 1 of an open challenge: a challenge any member but
// its challenger may accept, the first to accept taking the seat
// (Store.TakeChallenge). Only a challenge that was never accepted has
// it: pending, or expired, withdrawn or cancelled unanswered.
const Anyone PlayerID = "anyone"

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
	if p == Anonymous || p == Anyone {
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

// Player is one side of a game, or the player of a solo puzzle.
type Player struct {
	// ID says who plays.
	ID PlayerID `json:"id"`
	// Name is the display name when the game was created, for boards.
	Name string `json:"name,omitempty"`
}

// Settings are the options a game was created with.
type Settings struct {
	// Rounds is the number of rounds, for a game that has rounds; 0 otherwise.
	Rounds int `json:"rounds,omitempty"`
	// First is the challenger's choice of who moves first: "me",
	// "opponent" or "random".
	First string `json:"first,omitempty"`
	// MoveTime is the AI's time per move.
	MoveTime time.Duration `json:"move_time,omitempty"`
	// Casual is set on a game that moves no rating (Game.Ladders is
	// empty); records written before it existed are rated.
	Casual bool `json:"casual,omitempty"`
	// Daily is set on the solo puzzle a member plays a server's daily
	// puzzle in: the day, as DailyAttempt.Day, whose attempt the game's
	// end settles; empty for any other game.
	Daily string `json:"daily,omitempty"`
	// Tournament is set on the game of a tournament's board: the
	// tournament whose result its end records; empty for any other game.
	Tournament TournamentID `json:"tournament,omitempty"`
	// TurnTime is the time a person has for each move, a tournament's
	// time per move; 0 for the server's turn timeout.
	TurnTime time.Duration `json:"turn_time,omitempty"`
	// StartedBy is the member who started a showcase, a game between two
	// AIs (showcase.go), while it is open: the store clears it when the
	// game closes.
	StartedBy PlayerID `json:"started_by,omitempty"`
}

// DrawOffer is a player's offer of a draw, standing on the board of one
// ply: the next move ends it.
type DrawOffer struct {
	// Seat is the index in Game.Players of the player who offered it.
	Seat int `json:"seat"`
	// Ply is len(Game.Moves) when it was offered.
	Ply int `json:"ply"`
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

// Nobody is the Result.Winner of an abandoned solo puzzle: nobody solved it.
const Nobody = -2

// Result is how a game ended.
//
// A duel's Winner is the index in Game.Players of the winner, or Draw. A
// solo puzzle's is 0 when it was solved (StatusFinished) and Nobody when it
// was abandoned (StatusAbandoned); its score is MovesUsed against Optimal.
type Result struct {
	// Winner is the index in Game.Players of the winner, Draw or Nobody.
	Winner int `json:"winner"`
	// Outcome is how it ended: by the rules, a resignation, a timeout…
	// Records keep it under its old name, "reason".
	Outcome Outcome `json:"reason,omitempty"`
	// MovesUsed is how many moves the player of a solo puzzle made; 0 in
	// a duel.
	MovesUsed int `json:"moves_used,omitempty"`
	// Optimal is the fewest moves that solve a solo puzzle from its start;
	// 0 when unknown, and in a duel. A solved puzzle's MovesUsed is never
	// below it.
	Optimal int `json:"optimal,omitempty"`
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
	// Players are the two sides of a duel, Players[0] being the
	// challenger, or the one player of a solo puzzle. The number never
	// changes: it is what makes a game solo.
	Players []Player `json:"players"`
	// Turn is the index in Players of the player to move: always 0 in a
	// solo puzzle.
	Turn int `json:"turn"`
	// Settings are the options the game was created with.
	Settings Settings `json:"settings"`
	// Start is the position text a game started from when that is not its
	// kind's standard start, such as a puzzle's scrambled board; empty
	// otherwise. Two solo games with the same kind and Start are the same
	// puzzle.
	Start string `json:"start,omitempty"`
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
	// DrawOffer is the draw one player of an active duel between people
	// offered on the current board, nil if none. The store clears it when
	// the game closes.
	DrawOffer *DrawOffer `json:"draw_offer,omitempty"`
	// Hints counts the hints a solo puzzle's player asked for, which its
	// result then mentions.
	Hints int `json:"hints,omitempty"`
	// Paused is set on the active game of a tournament's board while the
	// tournament is paused (SetTournamentStatus): its clock is stopped —
	// no deadline — and nobody moves, an AI neither; TurnLeft is the time
	// the player to move had left when it stopped, given back on resume
	// (PauseGame). The store clears both when the game closes.
	Paused   bool          `json:"paused,omitempty"`
	TurnLeft time.Duration `json:"turn_left,omitempty"`
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
	return g.Status == StatusActive && !g.Paused && g.Players[g.Turn].ID.IsAI()
}

// OpenChallenge reports whether g is an open challenge nobody has
// accepted: a duel with Anyone in seat 1.
func (g *Game) OpenChallenge() bool { return len(g.Players) == 2 && g.Players[1].ID == Anyone }

// Solo reports whether g is a one-player puzzle rather than a duel.
func (g *Game) Solo() bool { return len(g.Players) == 1 }

// Solved reports whether g is a solo puzzle its player solved.
func (g *Game) Solved() bool { return g.Solo() && g.Status == StatusFinished }

// Next returns the seat that moves after seat: the other side in a duel,
// the same player in a solo puzzle.
func (g *Game) Next(seat int) int { return (seat + 1) % len(g.Players) }

// abortPlies is the number of moves after which a duel can no longer be
// aborted: each side has moved twice.
const abortPlies = 4

// Abortable reports whether g is an active duel that either player may
// still call off without a result: fewer than abortPlies moves were made,
// and it is no tournament's board, whose pairing stands once made (an
// aborted board would score as lost for both sides).
func (g *Game) Abortable() bool {
	return g.Status == StatusActive && !g.Solo() && len(g.Moves) < abortPlies && g.Settings.Tournament == ""
}

// BetweenPeople reports whether g is a duel whose two sides are people,
// not AI strategies: the games in which players may agree a draw.
func (g *Game) BetweenPeople() bool {
	return !g.Solo() && !g.Players[0].ID.IsAI() && !g.Players[1].ID.IsAI()
}

// Opponent returns the other side of a duel from seat's point of view;
// false in a solo puzzle, which has none.
func (g *Game) Opponent(seat int) (Player, bool) {
	if len(g.Players) != 2 {
		return Player{}, false
	}
	return g.Players[1-seat], true
}

// NoShow returns the seat of the loser of g, a tournament's board game,
// when they lost it on the move timer without having made a move in it:
// White (seat 0, first to move) before the first move, Black before the
// second. An AI is never a no-show: it moves when its turn comes, and a
// timeout of its turn queue is no absence of a player.
func (g *Game) NoShow() (int, bool) {
	if g.Status != StatusForfeited || g.Result == nil || g.Result.Outcome != TimedOut ||
		len(g.Players) != 2 || (g.Result.Winner != 0 && g.Result.Winner != 1) {
		return 0, false
	}
	loser := 1 - g.Result.Winner
	if len(g.Moves) > loser || g.Players[loser].ID.IsAI() {
		return 0, false
	}
	return loser, true
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

// Outcome returns the status and result that end g when a move by the
// player in seat ends it with score for that player (1 a win, 0.5 a draw,
// 0 a loss). A duel is finished with its winner or a draw. A solo puzzle
// is finished when won (solved) and otherwise abandoned (NoWayOn),
// its moves used being len(g.Moves); the optimum is left unknown (0).
func (g *Game) Outcome(seat int, score float64) (Status, Result) {
	if g.Solo() {
		if score == 1 {
			return StatusFinished, Result{Winner: 0, MovesUsed: len(g.Moves)}
		}
		return StatusAbandoned, Result{Winner: Nobody, Outcome: NoWayOn, MovesUsed: len(g.Moves)}
	}
	switch score {
	case 1:
		return StatusFinished, Result{Winner: seat}
	case 0:
		return StatusFinished, Result{Winner: 1 - seat}
	}
	return StatusFinished, Result{Winner: Draw}
}

// AgreeDraw returns the status and result that end g, an active duel,
// when its players agree a draw.
func (g *Game) AgreeDraw() (Status, Result) {
	return StatusFinished, Result{Winner: Draw, Outcome: DrawAgreed}
}

// GiveUp returns the status and result that end g when the player in seat
// gives up: a duel is finished, won by the other side (Resigned); a solo
// puzzle is abandoned (GaveUp).
func (g *Game) GiveUp(seat int) (Status, Result) {
	if g.Solo() {
		return StatusAbandoned, Result{Winner: Nobody, Outcome: GaveUp, MovesUsed: len(g.Moves)}
	}
	return StatusFinished, Result{Winner: 1 - seat, Outcome: Resigned}
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
	if n := len(g.Players); n != 1 && n != 2 {
		return bad("%d players, want 1 (a solo puzzle) or 2", n)
	}
	for _, p := range g.Players {
		if err := p.ID.Validate(); err != nil {
			return bad("%v", err)
		}
	}
	if g.Turn < 0 || g.Turn >= len(g.Players) {
		return bad("turn %d is not a seat of %d players", g.Turn, len(g.Players))
	}
	if g.Settings.Rounds < 0 || g.Settings.MoveTime < 0 || g.Settings.TurnTime < 0 {
		return bad("negative setting")
	}
	if d := g.Settings.Daily; d != "" && (!g.Solo() || !ValidDay(d)) {
		return bad("daily puzzle day %q on a game of %d players", d, len(g.Players))
	}
	if (g.Result != nil) != g.Status.Ended() {
		return bad("status %s with result %v", g.Status, g.Result)
	}
	if g.Solo() {
		if err := g.validateSolo(); err != nil {
			return bad("%v", err)
		}
	} else if err := g.validateDuel(); err != nil {
		return bad("%v", err)
	}
	if o := g.DrawOffer; o != nil && (g.Status != StatusActive || !g.BetweenPeople() || o.Seat < 0 || o.Seat > 1 || o.Ply != len(g.Moves)) {
		return bad("draw offer %+v on a %s game at move %d", *o, g.Status, len(g.Moves))
	}
	if err := g.validateAnyone(); err != nil {
		return bad("%v", err)
	}
	if g.Rematched && !g.Status.Ended() {
		return bad("rematch claimed on a %s game", g.Status)
	}
	if !g.Deadline.IsZero() && !g.Status.Open() {
		return bad("deadline on a %s game", g.Status)
	}
	if p := g.Settings.StartedBy; p != "" {
		if _, ok := p.UserID(); !ok || p.Validate() != nil || !g.Status.Open() || g.Solo() || !g.Players[0].ID.IsAI() || !g.Players[1].ID.IsAI() {
			return bad("a %s game of %s started by %q: only an open game between two AIs has a member who started it", g.Status, g.Players[0].ID, p)
		}
	}
	if g.Paused && (g.Status != StatusActive || !g.Deadline.IsZero()) || g.TurnLeft < 0 || g.TurnLeft > 0 && !g.Paused {
		return bad("a %s game paused %v with %v left and deadline %v", g.Status, g.Paused, g.TurnLeft, g.Deadline)
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

// validateAnyone checks where Anyone sits: only in seat 1 of a duel,
// and only while the challenge was never accepted.
func (g *Game) validateAnyone() error {
	for i, p := range g.Players {
		if p.ID != Anyone {
			continue
		}
		if i != 1 {
			return fmt.Errorf("%s in seat %d of %d: only an open challenge's seat 1 is anyone's", Anyone, i, len(g.Players))
		}
		switch g.Status {
		case StatusPending, StatusExpired, StatusWithdrawn, StatusCancelled:
		default:
			return fmt.Errorf("an open challenge cannot be %s with nobody in seat 1", g.Status)
		}
	}
	return nil
}

// validateSolo checks the rules of a solo puzzle: its player is a person
// (or Anonymous, once deleted); it is never a challenge, never forfeited
// and has no deadline, as nobody waits for its player; a solved puzzle has
// Winner 0 and ends by the rules, an abandoned one Nobody and ends by a
// puzzle's outcome, and its score is consistent.
func (g *Game) validateSolo() error {
	if g.Players[0].ID.IsAI() {
		return fmt.Errorf("a solo puzzle played by %s: only people play puzzles", g.Players[0].ID)
	}
	switch g.Status {
	case StatusPending, StatusExpired, StatusDeclined, StatusWithdrawn, StatusForfeited, StatusAborted:
		return fmt.Errorf("a solo puzzle cannot be %s", g.Status)
	}
	if !g.Deadline.IsZero() {
		return errors.New("a solo puzzle has no deadline")
	}
	if r := g.Result; r != nil {
		want := 0
		if g.Status == StatusAbandoned {
			want = Nobody
		}
		if r.Winner != want {
			return fmt.Errorf("a %s solo puzzle with winner %d, want %d", g.Status, r.Winner, want)
		}
		if !r.Outcome.EndsPuzzle() || (g.Status == StatusFinished && r.Outcome != ByRules) {
			return fmt.Errorf("a %s solo puzzle with outcome %q", g.Status, r.Outcome)
		}
		if r.MovesUsed < 0 || r.Optimal < 0 || (g.Status == StatusFinished && r.MovesUsed < r.Optimal) {
			return fmt.Errorf("a solo puzzle's score of %d moves, optimal %d", r.MovesUsed, r.Optimal)
		}
	}
	return nil
}

// validateDuel checks the rules of a game between two sides: two different
// players (unless both were deleted), a winner that is a seat or Draw, no
// puzzle score, a duel's outcome (a resignation or timeout has a winner, a
// draw agreed has none), not abandoned, which only a puzzle can be, and
// aborted only while it was abortable.
func (g *Game) validateDuel() error {
	if a, b := g.Players[0].ID, g.Players[1].ID; a == b && a != Anonymous {
		return fmt.Errorf("both players are %s", a)
	}
	if g.Status == StatusAbandoned {
		return errors.New("only a solo puzzle can be abandoned")
	}
	if g.Status == StatusAborted && len(g.Moves) >= abortPlies {
		return fmt.Errorf("aborted after %d moves: a game can be aborted only before each side has moved twice", len(g.Moves))
	}
	if r := g.Result; r != nil {
		if r.Winner < Draw || r.Winner > 1 {
			return fmt.Errorf("winner %d is not 0, 1 or Draw", r.Winner)
		}
		if r.MovesUsed != 0 || r.Optimal != 0 {
			return errors.New("a duel with a puzzle's score")
		}
		drawn := r.Winner == Draw
		if !r.Outcome.EndsDuel() || (drawn && r.Outcome != ByRules && r.Outcome != DrawAgreed) || (!drawn && r.Outcome == DrawAgreed) {
			return fmt.Errorf("a duel with winner %d and outcome %q", r.Winner, r.Outcome)
		}
	}
	return nil
}
