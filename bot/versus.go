package bot

import (
	"context"

	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// versusGames is what the versus flow (bot/flows/versus) needs of the
// code that starts games.
type versusGames struct{ gameFlow }

// Begin sets g up to start (begin).
func (b versusGames) Begin(ctx context.Context, g *storage.Game) error { return b.begin(ctx, g) }

// Settings are a server's settings (guildSettings).
func (b versusGames) Settings(ctx context.Context, guildID string) storage.GuildSettings {
	return b.guildSettings(ctx, guildID)
}

// versusTurns is the game seam as the versus flow meets it.
type versusTurns struct{ seamTurns }

// QueueAIFor queues the first turn of g, a game between two AIs, for
// owner, the member who started it: each turn queues the next for them
// (aiFlow.nextTurn), so that a showcase takes its starter's share of the
// AI workers, not everyone's.
func (b versusTurns) QueueAIFor(ctx context.Context, ix *mux.Interaction, g *storage.Game, owner storage.PlayerID) *render.Thinking {
	if !g.AwaitingAI() {
		return nil
	}
	thinking, j := b.turns.enqueueTurn(g, ix.Received, string(owner))
	releaseAfter(ctx, j)
	return thinking
}
