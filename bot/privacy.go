package bot

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// cmdPrivacy handles /privacy delete: it asks to confirm first.
func (b infoFlow) cmdPrivacy(_ context.Context, ix *command) error {
	opts := ix.Opts
	if opts.Sub != "delete" {
		return mux.Err("privacy.use_delete")
	}
	l := ix.Lang()
	return ix.Reply(render.Message{
		Content: l.T("privacy.confirm"),
		Components: buttonRows([]discordgo.MessageComponent{discordgo.Button{
			Label: l.T("privacy.erase"), Style: discordgo.DangerButton, CustomID: customid.PrivacyDelete.Build(ix.Caller().ID),
		}}),
	}, true)
}

// clickPrivacyDelete erases the clicking user's data, answers, and only
// then retires the boards of the games it cancelled: editing them may be
// rate limited past the 3 seconds Discord waits for the answer.
func (b infoFlow) clickPrivacyDelete(ctx context.Context, ix *component) error {
	p := ix.Params
	if p["user"] != ix.Caller().ID {
		return mux.Err("privacy.not_yours")
	}
	rep, err := b.store.DeleteUser(ctx, ix.Caller().ID)
	if err != nil {
		return fmt.Errorf("bot: delete user data: %w", err)
	}
	b.forms.set("u:"+ix.Caller().ID, storage.BoardDefault, b.now())
	var answered error
	if err := b.forgetAI(ctx, ix.Caller().ID); err != nil {
		// The rest is erased and its boards are retired below; the
		// button stays, for the member to click again.
		b.log.Error("delete user data: AI turns", "interaction", ix.ID, "err", err)
		answered = ix.Fail(ix.Lang().T("privacy.partly"))
	} else {
		l := ix.Lang()
		answered = ix.Update(render.Message{Content: l.T("privacy.done", "Games", render.Plural(l, len(rep.Removed), "open_game"),
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

// forgetAI erases the AI queue's jobs of the user's turns, which hold
// their ID and the tokens of their interactions (Config.AIQueue; none
// without one: the turns of this process's workers are in memory).
func (b infoFlow) forgetAI(ctx context.Context, userID string) error {
	if b.cfg.AIQueue == nil {
		return nil
	}
	return b.cfg.AIQueue.ForgetAI(ctx, string(storage.User(userID)))
}
