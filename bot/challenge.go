package bot

import (
	"context"

	"github.com/gambitbot/gambit/bot/gamenames"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/storage"
)

// checkChallenge refuses an answer to g unless g is a pending challenge
// and the clicker its challenged player (or, for withdraw, the
// challenger). A click that is not on the challenge's message (onBoard)
// carries a forged custom ID: it is answered as for a game that does not
// exist, naming nobody.
func checkChallenge(ix *interaction, g *storage.Game, challengerMay bool) error {
	if !onBoard(ix, g) {
		return mux.Err("error.no_game", "ID", g.ID)
	}
	if g.Status != storage.StatusPending {
		state := map[storage.Status]string{
			storage.StatusActive: "active", storage.StatusFinished: "played", storage.StatusForfeited: "played",
			storage.StatusExpired: "expired", storage.StatusDeclined: "declined",
			storage.StatusWithdrawn: "withdrawn", storage.StatusCancelled: "cancelled", storage.StatusAbandoned: "abandoned",
			storage.StatusAborted: "aborted",
		}[g.Status]
		return mux.Err("challenge.closed", "State", message("challenge.closed."+state))
	}
	switch seatOf(g, ix.Caller().ID) {
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
func (b gameFlow) clickAccept(ctx context.Context, ix *component, g *storage.Game) error {
	if b.moves.endedBehind(ix.Interaction, g) {
		return b.moves.catchUp(ctx, ix.Interaction, g)
	}
	if err := checkChallenge(ix.Interaction, g, false); err != nil {
		return err
	}
	// A challenge counts against the challenged member's cap once
	// accepted (storage.Limits.MaxOpen): at the cap, they finish a game
	// first.
	if err := b.checkLimits(ctx, ix.Caller().ID, false); err != nil {
		return err
	}
	if err := b.boards.adoptBoard(ctx, ix.Interaction, g); err != nil {
		return err
	}
	if err := b.begin(ctx, g); err != nil {
		return err
	}
	if err := b.store.UpdateGame(ctx, g); err != nil {
		return play.Conflict(err, "accept challenge", g.ID)
	}
	pos, err := position(g)
	if err != nil {
		return err
	}
	return b.boards.updateBoard(ctx, ix.Interaction, g, b.boards.view(g, pos, nil, nil, ""))
}

// clickDecline declines a challenge, or withdraws it when the challenger
// clicks.
func (b gameFlow) clickDecline(ctx context.Context, ix *component, g *storage.Game) error {
	if b.moves.endedBehind(ix.Interaction, g) {
		return b.moves.catchUp(ctx, ix.Interaction, g)
	}
	if err := checkChallenge(ix.Interaction, g, true); err != nil {
		return err
	}
	if err := b.boards.adoptBoard(ctx, ix.Interaction, g); err != nil {
		return err
	}
	g.Status = storage.StatusDeclined
	if seatOf(g, ix.Caller().ID) == 0 {
		g.Status = storage.StatusWithdrawn
	}
	if err := b.store.UpdateGame(ctx, g); err != nil {
		return play.Conflict(err, "decline challenge", g.ID)
	}
	return b.boards.updateBoard(ctx, ix.Interaction, g, b.boards.view(g, nil, nil, nil, ""))
}
