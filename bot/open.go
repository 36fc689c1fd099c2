package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/gamenames"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/storage"
)

// Open challenges: /challenge without a member posts a challenge that any
// member but the challenger may accept. The first Accept takes it, decided
// by the store (storage.Store.TakeChallenge) so that of clicks racing in
// one process or several exactly one starts the game; the others are told
// who was first. Otherwise it lives as a targeted challenge does: the
// challenger's caps count it, it expires after Config.ChallengeTTL, its
// challenger withdraws it (clickDecline), and its message becomes the
// board.

// openChallenge posts req as an open challenge, holding the new game's
// lock.
func (b gameFlow) openChallenge(ctx context.Context, ix *interaction, req gameRequest) error {
	if ix.Context == discordgo.InteractionContextBotDM {
		return mux.Err("open.not_in_dm")
	}
	req.opponent = storage.Player{ID: storage.Anyone}
	_, err := b.challenge(ctx, ix, req)
	return err
}

// checkTake refuses a click on an open challenge's Accept unless the
// challenge is still open and the clicker is not its challenger; a
// challenge another member took is named as theirs. An open challenge is
// for anyone in its channel: a click that is not on its message (a forged
// custom ID) names a game the clicker may not see, and is answered as one
// that does not exist.
func checkTake(ix *interaction, g *storage.Game) error {
	user := ix.Caller().ID
	switch {
	case !onBoard(ix, g):
		return mux.Err("error.no_game", "ID", g.ID)
	case g.OpenChallenge() && g.Status == storage.StatusPending:
		if seatOf(g, user) == 0 {
			return mux.Err("open.own")
		}
		return nil
	case (g.Status == storage.StatusActive || g.Status.Ended()) && seatOf(g, user) < 0:
		return mux.Err("open.taken", "Player", gamenames.Player(g.Kind, g.Players[1]))
	}
	return checkChallenge(ix, g, false)
}

// clickTake accepts an open challenge for the clicker and shows the board
// in the challenge's message.
func (b gameFlow) clickTake(ctx context.Context, ix *component, g *storage.Game) error {
	if b.moves.endedBehind(ix.Interaction, g) {
		return b.moves.catchUp(ctx, ix.Interaction, g)
	}
	if err := checkTake(ix.Interaction, g); err != nil {
		return err
	}
	if err := b.boards.adoptBoard(ctx, ix.Interaction, g); err != nil {
		return err
	}
	g.Players = []storage.Player{g.Players[0], playerOf(ix.Caller())}
	if err := b.begin(ctx, g); err != nil {
		return err
	}
	if err := b.store.TakeChallenge(ctx, g, b.limits()); err != nil {
		return b.takeRefusal(ctx, ix.Interaction, g.ID, err)
	}
	pos, err := position(g)
	if err != nil {
		return err
	}
	return b.boards.updateBoard(ctx, ix.Interaction, g, b.boards.view(g, pos, nil, nil, ""))
}

// takeRefusal explains a take the store refused: taken first by another
// member or ended meanwhile (by another process: this one holds the
// game's lock), the clicker at their cap, or a lost race.
func (b gameFlow) takeRefusal(ctx context.Context, ix *interaction, id storage.GameID, err error) error {
	switch {
	case errors.Is(err, storage.ErrTaken), errors.Is(err, storage.ErrGameOver):
		now, lerr := b.store.Game(ctx, id)
		if lerr != nil {
			return fmt.Errorf("bot: take challenge %s: %w", id, errors.Join(err, lerr))
		}
		if refusal := checkTake(ix, now); refusal != nil {
			return refusal
		}
	case errors.Is(err, storage.ErrLimit):
		return limitRefusal(err)
	}
	return play.Conflict(err, "take challenge", id)
}
