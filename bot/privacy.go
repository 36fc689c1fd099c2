package bot

import (
	"context"

	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// privacyBot is what the privacy flow (bot/flows/privacy) needs of the
// bot once the store has erased a member.
type privacyBot struct{ infoFlow }

// ForgetForm drops the member's own board form from memory.
func (b privacyBot) ForgetForm(userID string) {
	b.places.forms.set("u:"+userID, storage.BoardDefault, b.now())
}

// ForgetAI erases the member's AI turns waiting in a queue (forgetAI).
func (b privacyBot) ForgetAI(ctx context.Context, userID string) error {
	return b.forgetAI(ctx, userID)
}

// Cancelled shows on g's board, in its language, that the erasure
// cancelled it: through a valid token where the board is reached only
// through interactions (a private board, or such a channel), or not at
// all; through the channel otherwise.
func (b privacyBot) Cancelled(ctx context.Context, g *storage.Game) error {
	notice := render.Note(b.boards.boardLang(g).T("privacy.cancelled", "ID", g.ID))
	if b.boards.interactionOnly(g) {
		return b.boards.editBoard(ctx, g, notice, webhookToken{})
	}
	return b.discord.egress.EditChannelMessage(g.ChannelID, g.MessageID, notice)
}

// forgetAI erases the user's queued AI turns, which hold their ID and the
// tokens of their interactions, where the AI-turn seam keeps them outside
// this process's memory (aiSeam.forget).
func (b infoFlow) forgetAI(ctx context.Context, userID string) error {
	return b.ai.turns.forget(ctx, string(storage.User(userID)))
}
