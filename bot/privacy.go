package bot

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// cmdPrivacy handles /privacy delete: it asks to confirm first.
func (b infoFlow) cmdPrivacy(_ context.Context, ix *command) error {
	opts := ix.opts
	if opts.sub != "delete" {
		return userErr("privacy.use_delete")
	}
	l := ix.lang()
	return ix.reply(render.Message{
		Content: l.T("privacy.confirm"),
		Components: buttonRows([]discordgo.MessageComponent{discordgo.Button{
			Label: l.T("privacy.erase"), Style: discordgo.DangerButton, CustomID: customid.PrivacyDelete.Build(ix.user().ID),
		}}),
	}, true)
}

// clickPrivacyDelete erases the clicking user's data, answers, and only
// then retires the boards of the games it cancelled: editing them may be
// rate limited past the 3 seconds Discord waits for the answer.
func (b infoFlow) clickPrivacyDelete(ctx context.Context, ix *component) error {
	p := ix.params
	if p["user"] != ix.user().ID {
		return userErr("privacy.not_yours")
	}
	rep, err := b.store.DeleteUser(ctx, ix.user().ID)
	if err != nil {
		return fmt.Errorf("bot: delete user data: %w", err)
	}
	b.forms.set("u:"+ix.user().ID, storage.BoardDefault, b.now())
	var answered error
	if err := b.forgetAI(ctx, ix.user().ID); err != nil {
		// The rest is erased and its boards are retired below; the
		// button stays, for the member to click again.
		b.log.Error("delete user data: AI turns", "interaction", ix.ID, "err", err)
		answered = ix.fail(ix.lang().T("privacy.partly"))
	} else {
		l := ix.lang()
		answered = ix.update(render.Message{Content: l.T("privacy.done", "Games", render.Plural(l, len(rep.Removed), "open_game"),
			"Ratings", render.Plural(l, rep.Ratings, "rating"), "Finished", render.Plural(l, rep.Anonymised, "finished_game"))})
	}
	for _, g := range rep.Removed {
		if g.MessageID == "" {
			continue
		}
		notice := render.Note(b.boards.boardLang(g).T("privacy.cancelled", "ID", g.ID))
		var err error
		if b.reach.isPrivate(g.ChannelID) {
			err = b.boards.editBoard(ctx, g, notice, webhookToken{}) // through a valid token, or not at all
		} else {
			err = b.egress.EditChannelMessage(g.ChannelID, g.MessageID, notice)
		}
		if err != nil {
			b.log.Warn("update board of a cancelled game", "game", g.ID, "err", err)
		}
	}
	return answered
}

// forgetAI erases the user's queued AI turns, which hold their ID and the
// tokens of their interactions, where the AI-turn seam keeps them outside
// this process's memory (aiSeam.forget).
func (b infoFlow) forgetAI(ctx context.Context, userID string) error {
	return b.aiTurns.forget(ctx, string(storage.User(userID)))
}
