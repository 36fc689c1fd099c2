// Package play is what the bot's flows share about games in play, below
// them: who may see a game.
package play

import (
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/storage"
)

// Who may see a game's review (/review game:, the Review button): its
// players, wherever they ask, and anyone asking from the server channel
// the game was played in, whose board they can see there. A game of a DM
// or a group DM is its players' alone. From another channel, even of the
// same server, the bot cannot tell whether the member may see the game's
// channel, so it answers as it would for a game that does not exist:
// game IDs are a sequence, and a refusal that named the game would tell
// that it exists. /stats user: lists another member's recent games by the
// same rule.

// MayReview reports whether the member asking in ix may see g's review.
func MayReview(ix *mux.Interaction, g *storage.Game) bool {
	if g.Seat(storage.User(ix.Caller().ID)) >= 0 {
		return true
	}
	return g.GuildID != "" && g.GuildID == ix.GuildID && g.ChannelID == ix.ChannelID
}
