package challenges

import (
	"context"
	"errors"
	"fmt"

	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/storage"
)

// clickRematch starts a new game between the players of an ended game,
// the other player moving first. The rematch is claimed in the store
// before anything is shown, so that of any number of clicks on the old
// board — racing, or after a restart — one starts a game; the answer is
// deferred before the first call to Discord, which may be rate limited
// past Discord's 3 seconds. The new board follows up, and the old board
// loses its Rematch button.
//
// It acts on two games, so it is no route of one game: the claim runs on
// the old game under its lock (Turns.OnGame), which returns with the lock
// released; only then is the new game created, under its own lock.
func (f *Flow) clickRematch(ctx context.Context, ix *mux.Component) error {
	var (
		req gameRequest
		old *storage.Game
	)
	err := f.turns.OnGame(ctx, ix.Interaction, ix.Params["game"], func(ctx context.Context, g *storage.Game) (err error) {
		old = g
		req, err = f.takeRematch(ctx, ix.Interaction, g)
		return err
	})
	if err != nil {
		return err
	}
	if err := ix.DeferUpdate(); err != nil {
		f.releaseRematch(ctx, old.ID)
		return err
	}
	var g *storage.Game
	if req.opponent.ID.IsAI() {
		g, err = f.startAIGame(ctx, ix.Interaction, req)
	} else {
		g, err = f.challenge(ctx, ix.Interaction, req)
	}
	if g == nil {
		f.releaseRematch(ctx, old.ID) // nothing started: the players may ask again
		return err
	}
	if eerr := ix.Edit(f.boards.Rematched(old, f.boards.Lang(old).T("rematch.started"), ix.Message)); eerr != nil {
		f.log.Warn("remove the rematch button", "game", old.ID, "err", eerr)
	}
	return err
}

// takeRematch checks that the clicking player may have a rematch of the
// ended game old, claims it in the store and returns the new game to
// start. It does not call Discord. The caller holds old's lock.
func (f *Flow) takeRematch(ctx context.Context, ix *mux.Interaction, old *storage.Game) (gameRequest, error) {
	seat := old.Seat(storage.User(ix.Caller().ID))
	if seat < 0 {
		return gameRequest{}, mux.Err("rematch.players_only")
	}
	// The new game goes where the click came from, and the message clicked
	// becomes the old game's final board: it must be that board, or at
	// least in its channel, not a message a forged custom ID was put on.
	if ix.ChannelID != old.ChannelID && (ix.Message == nil || ix.Message.ID != old.MessageID) {
		return gameRequest{}, mux.Err("rematch.elsewhere")
	}
	if !old.Status.Ended() {
		return gameRequest{}, mux.Err("rematch.not_over")
	}
	if old.Rematched {
		return gameRequest{}, errRematchTaken
	}
	if !f.games.Settings(ctx, ix.GuildID).Allows(old.Kind) {
		return gameRequest{}, mux.Err("rematch.not_allowed", "Game", titleIn(old.Kind))
	}
	if old.Solo() {
		return gameRequest{}, mux.Err("rematch.puzzle")
	}
	if old.Settings.Tournament != "" {
		return gameRequest{}, mux.Err("rematch.tournament")
	}
	if old.Players[1-seat].ID == storage.Anonymous {
		return gameRequest{}, mux.Err("rematch.deleted")
	}
	if err := f.games.CheckLimits(ctx, ix.Caller().ID, !old.Players[1-seat].ID.IsAI()); err != nil {
		return gameRequest{}, err
	}
	if err := f.store.ClaimRematch(ctx, old.ID); errors.Is(err, storage.ErrRematchTaken) {
		return gameRequest{}, errRematchTaken
	} else if err != nil {
		return gameRequest{}, fmt.Errorf("challenges: claim the rematch of %s: %w", old.ID, err)
	}
	first := "me"
	if firstSeat(old) == seat {
		first = "opponent"
	}
	return gameRequest{
		kind: old.Kind, me: play.PlayerOf(ix.Caller()), opponent: old.Players[1-seat], first: first,
		rounds: old.Settings.Rounds, moveTime: old.Settings.MoveTime, casual: old.Settings.Casual,
	}, nil
}

// errRematchTaken refuses a second rematch of a game.
var errRematchTaken = mux.Err("rematch.taken")

// releaseRematch gives a claimed rematch back after its game could not be
// started; if that fails too, the players start a new game with /play.
func (f *Flow) releaseRematch(ctx context.Context, id storage.GameID) {
	if err := f.store.ReleaseRematch(ctx, id); err != nil {
		f.log.Error("release the rematch of a game that did not start", "game", id, "err", err)
	}
}

// firstSeat returns the seat of the player who moved first in g.
func firstSeat(g *storage.Game) int {
	if len(g.Moves)%2 == 0 {
		return g.Turn
	}
	return 1 - g.Turn
}
