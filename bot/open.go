package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/mux"
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
