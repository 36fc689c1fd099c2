package duel

import (
	"context"

	"github.com/gambitbot/gambit/bot/gamenames"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// Draw offers, in games between people: once the game can no longer be
// aborted, either player offers a draw with the board's Offer draw button; the board then shows the offer with
// Accept draw and Decline draw, which only the opponent may click, until
// the next move ends it (commitMove). The offer is kept in the game's
// record (storage.Game.DrawOffer), so it survives a restart.

// checkDrawClick refuses a click on a draw button of g's board unless the
// clicker plays g, g is an active game between people and the button
// belongs to the board as it is now. It returns the clicker's seat.
func (f *Flow) checkDrawClick(ix *mux.Component, g *storage.Game) (int, error) {
	seat := g.Seat(storage.User(ix.Caller().ID))
	switch {
	case seat < 0:
		return seat, mux.Err("draw.players_only")
	case g.Status != storage.StatusActive:
		return seat, mux.Err("error.game_over")
	case !g.BetweenPeople():
		return seat, mux.Err("draw.people_only")
	case g.Abortable():
		return seat, mux.Err("draw.too_early")
	case ix.Params["ply"] != render.Ply(g) || !f.boards.OnBoard(ix.Interaction, g):
		return seat, mux.Err("move.stale")
	}
	return seat, nil
}

// clickDrawOffer offers the opponent a draw on the current board.
func (f *Flow) clickDrawOffer(ctx context.Context, ix *mux.Component, g *storage.Game) error {
	if f.boards.EndedBehind(ix.Interaction, g) {
		return f.boards.CatchUp(ctx, ix.Interaction, g)
	}
	seat, err := f.checkDrawClick(ix, g)
	if err != nil {
		return err
	}
	switch o := g.DrawOffer; {
	case o != nil && o.Seat == seat:
		return mux.Err("draw.already")
	case o != nil:
		return mux.Err("draw.pending", "Player", gamenames.Player(g.Kind, g.Players[o.Seat]))
	}
	if err := f.boards.Adopt(ctx, ix.Interaction, g); err != nil {
		return err
	}
	g.DrawOffer = &storage.DrawOffer{Seat: seat, Ply: len(g.Moves)}
	if err := f.store.UpdateGame(ctx, g); err != nil {
		return play.Conflict(err, "offer a draw in", g.ID)
	}
	return f.update(ctx, ix.Interaction, g, nil, "")
}

// clickDrawAnswer accepts (accept true) or declines the draw offered on
// the current board, for the offer's opponent.
func (f *Flow) clickDrawAnswer(accept bool) func(context.Context, *mux.Component, *storage.Game) error {
	return func(ctx context.Context, ix *mux.Component, g *storage.Game) error {
		if f.boards.EndedBehind(ix.Interaction, g) {
			return f.boards.CatchUp(ctx, ix.Interaction, g)
		}
		seat, err := f.checkDrawClick(ix, g)
		if err != nil {
			return err
		}
		o := g.DrawOffer
		switch {
		case o == nil:
			return mux.Err("draw.expired")
		case o.Seat == seat:
			return mux.Err("draw.own", "Player", gamenames.Player(g.Kind, g.Players[1-seat]))
		}
		if err := f.boards.Adopt(ctx, ix.Interaction, g); err != nil {
			return err
		}
		g.DrawOffer = nil
		if !accept {
			if err := f.store.UpdateGame(ctx, g); err != nil {
				return play.Conflict(err, "decline a draw in", g.ID)
			}
			l := f.boards.Lang(g)
			return f.update(ctx, ix.Interaction, g, nil, l.T("board.draw_declined", "Player", render.PlayerName(l, g.Kind, g.Players[seat])))
		}
		var res storage.Result
		g.Status, res = g.AgreeDraw()
		changes, err := f.store.FinishGame(ctx, g, res)
		if err != nil {
			return play.Conflict(err, "agree a draw in", g.ID)
		}
		return f.update(ctx, ix.Interaction, g, changes, "")
	}
}
