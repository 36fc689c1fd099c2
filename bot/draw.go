package bot

import (
	"context"
	"fmt"

	"github.com/gambitbot/gambit/bot/mux"
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
func (b gameFlow) checkDrawClick(ix *component, g *storage.Game) (int, error) {
	seat := seatOf(g, ix.Caller().ID)
	switch {
	case seat < 0:
		return seat, mux.Err("draw.players_only")
	case g.Status != storage.StatusActive:
		return seat, mux.Err("error.game_over")
	case !g.BetweenPeople():
		return seat, mux.Err("draw.people_only")
	case g.Abortable():
		return seat, mux.Err("draw.too_early")
	case ix.Params["ply"] != render.Ply(g) || !onBoard(ix.Interaction, g):
		return seat, mux.Err("move.stale")
	}
	return seat, nil
}

// clickDrawOffer offers the opponent a draw on the current board.
func (b gameFlow) clickDrawOffer(ctx context.Context, ix *component, g *storage.Game) error {
	if b.moves.endedBehind(ix.Interaction, g) {
		return b.moves.catchUp(ctx, ix.Interaction, g)
	}
	seat, err := b.checkDrawClick(ix, g)
	if err != nil {
		return err
	}
	switch o := g.DrawOffer; {
	case o != nil && o.Seat == seat:
		return mux.Err("draw.already")
	case o != nil:
		return mux.Err("draw.pending", "Player", nameIn(g.Kind, g.Players[o.Seat]))
	}
	if err := b.boards.adoptBoard(ctx, ix.Interaction, g); err != nil {
		return err
	}
	g.DrawOffer = &storage.DrawOffer{Seat: seat, Ply: len(g.Moves)}
	if err := b.store.UpdateGame(ctx, g); err != nil {
		return answerConflict(err, "offer a draw in", g.ID)
	}
	return b.showDrawBoard(ctx, ix, g, nil, "")
}

// clickDrawAnswer accepts (accept true) or declines the draw offered on
// the current board, for the offer's opponent.
func (b gameFlow) clickDrawAnswer(accept bool) func(context.Context, *component, *storage.Game) error {
	return func(ctx context.Context, ix *component, g *storage.Game) error {
		if b.moves.endedBehind(ix.Interaction, g) {
			return b.moves.catchUp(ctx, ix.Interaction, g)
		}
		seat, err := b.checkDrawClick(ix, g)
		if err != nil {
			return err
		}
		o := g.DrawOffer
		switch {
		case o == nil:
			return mux.Err("draw.expired")
		case o.Seat == seat:
			return mux.Err("draw.own", "Player", nameIn(g.Kind, g.Players[1-seat]))
		}
		if err := b.boards.adoptBoard(ctx, ix.Interaction, g); err != nil {
			return err
		}
		g.DrawOffer = nil
		if !accept {
			if err := b.store.UpdateGame(ctx, g); err != nil {
				return answerConflict(err, "decline a draw in", g.ID)
			}
			return b.showDrawBoard(ctx, ix, g, nil, b.boards.boardLang(g).T("board.draw_declined", "Player", render.PlayerName(b.boards.boardLang(g), g.Kind, g.Players[seat])))
		}
		var res storage.Result
		g.Status, res = g.AgreeDraw()
		changes, err := b.store.FinishGame(ctx, g, res)
		if err != nil {
			return answerConflict(err, "agree a draw in", g.ID)
		}
		return b.showDrawBoard(ctx, ix, g, changes, "")
	}
}

// showDrawBoard updates the clicked board of g after a draw offer or its
// answer.
func (b gameFlow) showDrawBoard(ctx context.Context, ix *component, g *storage.Game, changes []storage.RatingChange, notice string) error {
	pos, err := position(g)
	if err != nil {
		return fmt.Errorf("bot: draw in game %s: %w", g.ID, err)
	}
	return b.boards.updateBoard(ctx, ix.Interaction, g, b.boards.view(g, pos, nil, changes, notice))
}
