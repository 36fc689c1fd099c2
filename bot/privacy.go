package bot

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/render"
)

// cmdPrivacy handles /privacy delete: it asks to confirm first.
func (b *Bot) cmdPrivacy(_ context.Context, ix *interaction, opts options) error {
	if opts.sub != "delete" {
		return userErrorf("Use /privacy delete to erase your data.")
	}
	return ix.reply(render.Message{
		Content: "This erases your ratings and cancels your open games and challenges. " +
			"Your finished games stay, with your name replaced by \"deleted user\". It cannot be undone.",
		Components: buttonRows([]discordgo.MessageComponent{discordgo.Button{
			Label: "Erase my data", Style: discordgo.DangerButton, CustomID: customid.PrivacyDelete.Build(ix.user().ID),
		}}),
	}, true)
}

// clickPrivacyDelete erases the clicking user's data, answers, and only
// then retires the boards of the games it cancelled: editing them may be
// rate limited past the 3 seconds Discord waits for the answer.
func (b *Bot) clickPrivacyDelete(ctx context.Context, ix *interaction, p customid.Params) error {
	if p["user"] != ix.user().ID {
		return userErrorf("This button erases someone else's data; use /privacy delete for yours.")
	}
	rep, err := b.store.DeleteUser(ctx, ix.user().ID)
	if err != nil {
		return fmt.Errorf("bot: delete user data: %w", err)
	}
	answered := ix.update(render.Message{Content: fmt.Sprintf(
		"Your data was erased: %d open game(s) cancelled, %d rating(s) removed, %d finished game(s) anonymised.",
		len(rep.Removed), rep.Ratings, rep.Anonymised)})
	for _, g := range rep.Removed {
		if g.MessageID == "" {
			continue
		}
		notice := render.Note(fmt.Sprintf("Game %s was cancelled: a player deleted their data.", g.ID))
		var err error
		if b.reach.isPrivate(g.ChannelID) {
			err = b.editBoard(ctx, g, notice, webhookToken{}) // through a valid token, or not at all
		} else {
			_, err = b.session.ChannelMessageEditComplex(messageEdit(g.ChannelID, g.MessageID, notice))
			b.observeREST(err)
		}
		if err != nil {
			b.log.Warn("update board of a cancelled game", "game", g.ID, "err", err)
		}
	}
	return answered
}
