// Package challenges is the flow of answering challenges: Accept and
// Decline (or, for the challenger, Withdraw) on a challenge to a member,
// Accept on an open challenge, which the first taker gets. Posting them
// (/play, /challenge, the challenge menu, Rematch) is to join it from
// package bot.
package challenges

import (
	"context"
	"errors"
	"fmt"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/gamenames"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/storage"
)

// Store is what the flow reads and changes in the store: the challenge.
type Store interface {
	Game(ctx context.Context, id storage.GameID) (*storage.Game, error)
	UpdateGame(ctx context.Context, g *storage.Game) error
	TakeChallenge(ctx context.Context, g *storage.Game, limits storage.Limits) error
}

// Games is what the flow needs of the code that starts games.
type Games interface {
	// Begin sets g up to start: its start position, who moves first and
	// the deadline of the player to move.
	Begin(ctx context.Context, g *storage.Game) error
	// CheckLimits refuses, as the member's error, a member at their cap
	// of open games.
	CheckLimits(ctx context.Context, userID string) error
	// Limits are the caps the store checks as an open challenge is
	// taken.
	Limits() storage.Limits
}

// Boards is the bot's board code, as a click on a challenge's message
// meets it.
type Boards interface {
	// EndedBehind reports whether the click came from g's message while
	// it is behind g, which ended meanwhile; CatchUp then brings it up to
	// date and tells the clicker nothing was done.
	EndedBehind(ix *mux.Interaction, g *storage.Game) bool
	CatchUp(ctx context.Context, ix *mux.Interaction, g *storage.Game) error
	// OnBoard reports whether the click came from g's message (a forged
	// custom ID can name g from elsewhere).
	OnBoard(ix *mux.Interaction, g *storage.Game) bool
	// Adopt records the clicked message as g's board when its ID was
	// never saved.
	Adopt(ctx context.Context, ix *mux.Interaction, g *storage.Game) error
	// Update answers the click by showing g as it now is in its message:
	// the board of a game begun, or the challenge answered.
	Update(ctx context.Context, ix *mux.Interaction, g *storage.Game) error
}

// Flow answers challenges.
type Flow struct {
	store  Store
	games  Games
	boards Boards
	seam   play.GameRoutes
}

// New returns the flow over store, games and boards, its routes running
// in seam.
func New(store Store, games Games, boards Boards, seam play.GameRoutes) *Flow {
	return &Flow{store: store, games: games, boards: boards, seam: seam}
}

// Routes declares Accept, Decline and an open challenge's Accept, routes
// of one game.
func (f *Flow) Routes(m *mux.Mux) {
	games := mux.NewGroup(m, f.seam)
	games.Component(customid.Accept, f.clickAccept)
	games.Component(customid.Decline, f.clickDecline)
	games.Component(customid.Take, f.clickTake)
}

// checkChallenge refuses an answer to g unless g is a pending challenge
// and the clicker its challenged player (or, for withdraw, the
// challenger). A click that is not on the challenge's message (onBoard)
// carries a forged custom ID: it is answered as for a game that does not
// exist, naming nobody.
func (f *Flow) checkChallenge(ix *mux.Interaction, g *storage.Game, challengerMay bool) error {
	if !f.boards.OnBoard(ix, g) {
		return mux.Err("error.no_game", "ID", g.ID)
	}
	if g.Status != storage.StatusPending {
		state := map[storage.Status]string{
			storage.StatusActive: "active", storage.StatusFinished: "played", storage.StatusForfeited: "played",
			storage.StatusExpired: "expired", storage.StatusDeclined: "declined",
			storage.StatusWithdrawn: "withdrawn", storage.StatusCancelled: "cancelled", storage.StatusAbandoned: "abandoned",
			storage.StatusAborted: "aborted",
		}[g.Status]
		return mux.Err("challenge.closed", "State", mux.Localized(func(l *i18n.Localizer) string { return l.T("challenge.closed." + state) }))
	}
	switch g.Seat(storage.User(ix.Caller().ID)) {
	case 1:
		return nil
	case 0:
		if challengerMay {
			return nil
		}
		return mux.Err("challenge.own", "Player", gamenames.Player(g.Kind, g.Players[1]))
	}
	if g.OpenChallenge() {
		return mux.Err("open.withdraw_own", "Player", gamenames.Player(g.Kind, g.Players[0]))
	}
	return mux.Err("challenge.not_yours", "Player", gamenames.Player(g.Kind, g.Players[1]))
}

// clickAccept starts a challenged game.
func (f *Flow) clickAccept(ctx context.Context, ix *mux.Component, g *storage.Game) error {
	if f.boards.EndedBehind(ix.Interaction, g) {
		return f.boards.CatchUp(ctx, ix.Interaction, g)
	}
	if err := f.checkChallenge(ix.Interaction, g, false); err != nil {
		return err
	}
	// A challenge counts against the challenged member's cap once
	// accepted (storage.Limits.MaxOpen): at the cap, they finish a game
	// first.
	if err := f.games.CheckLimits(ctx, ix.Caller().ID); err != nil {
		return err
	}
	if err := f.boards.Adopt(ctx, ix.Interaction, g); err != nil {
		return err
	}
	if err := f.games.Begin(ctx, g); err != nil {
		return err
	}
	if err := f.store.UpdateGame(ctx, g); err != nil {
		return play.Conflict(err, "accept challenge", g.ID)
	}
	return f.boards.Update(ctx, ix.Interaction, g)
}

// clickDecline declines a challenge, or withdraws it when the challenger
// clicks.
func (f *Flow) clickDecline(ctx context.Context, ix *mux.Component, g *storage.Game) error {
	if f.boards.EndedBehind(ix.Interaction, g) {
		return f.boards.CatchUp(ctx, ix.Interaction, g)
	}
	if err := f.checkChallenge(ix.Interaction, g, true); err != nil {
		return err
	}
	if err := f.boards.Adopt(ctx, ix.Interaction, g); err != nil {
		return err
	}
	g.Status = storage.StatusDeclined
	if g.Seat(storage.User(ix.Caller().ID)) == 0 {
		g.Status = storage.StatusWithdrawn
	}
	if err := f.store.UpdateGame(ctx, g); err != nil {
		return play.Conflict(err, "decline challenge", g.ID)
	}
	return f.boards.Update(ctx, ix.Interaction, g)
}

// checkTake refuses a click on an open challenge's Accept unless the
// challenge is still open and the clicker is not its challenger; a
// challenge another member took is named as theirs. An open challenge is
// for anyone in its channel: a click that is not on its message (a forged
// custom ID) names a game the clicker may not see, and is answered as one
// that does not exist.
func (f *Flow) checkTake(ix *mux.Interaction, g *storage.Game) error {
	user := ix.Caller().ID
	switch {
	case !f.boards.OnBoard(ix, g):
		return mux.Err("error.no_game", "ID", g.ID)
	case g.OpenChallenge() && g.Status == storage.StatusPending:
		if g.Seat(storage.User(user)) == 0 {
			return mux.Err("open.own")
		}
		return nil
	case (g.Status == storage.StatusActive || g.Status.Ended()) && g.Seat(storage.User(user)) < 0:
		return mux.Err("open.taken", "Player", gamenames.Player(g.Kind, g.Players[1]))
	}
	return f.checkChallenge(ix, g, false)
}

// clickTake accepts an open challenge for the clicker and shows the board
// in the challenge's message.
func (f *Flow) clickTake(ctx context.Context, ix *mux.Component, g *storage.Game) error {
	if f.boards.EndedBehind(ix.Interaction, g) {
		return f.boards.CatchUp(ctx, ix.Interaction, g)
	}
	if err := f.checkTake(ix.Interaction, g); err != nil {
		return err
	}
	if err := f.boards.Adopt(ctx, ix.Interaction, g); err != nil {
		return err
	}
	g.Players = []storage.Player{g.Players[0], play.PlayerOf(ix.Caller())}
	if err := f.games.Begin(ctx, g); err != nil {
		return err
	}
	if err := f.store.TakeChallenge(ctx, g, f.games.Limits()); err != nil {
		return f.takeRefusal(ctx, ix.Interaction, g.ID, err)
	}
	return f.boards.Update(ctx, ix.Interaction, g)
}

// takeRefusal explains a take the store refused: taken first by another
// member or ended meanwhile (by another process: this one holds the
// game's lock), the clicker at their cap, or a lost race.
func (f *Flow) takeRefusal(ctx context.Context, ix *mux.Interaction, id storage.GameID, err error) error {
	switch {
	case errors.Is(err, storage.ErrTaken), errors.Is(err, storage.ErrGameOver):
		now, lerr := f.store.Game(ctx, id)
		if lerr != nil {
			return fmt.Errorf("challenges: take challenge %s: %w", id, errors.Join(err, lerr))
		}
		if refusal := f.checkTake(ix, now); refusal != nil {
			return refusal
		}
	case errors.Is(err, storage.ErrLimit):
		return play.LimitRefusal(err)
	}
	return play.Conflict(err, "take challenge", id)
}
