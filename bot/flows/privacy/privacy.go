// Package privacy is the flow of /privacy delete: a member erases their
// data, after confirming it.
package privacy

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// Store is what the flow changes in the store: it erases a member.
type Store interface {
	DeleteUser(ctx context.Context, userID string) (storage.DeleteReport, error)
}

// Bot is what the flow needs of the rest of the bot once the store has
// erased a member: the memory of their board form, their AI turns queued
// elsewhere, and the boards of the games the erasure cancelled.
type Bot interface {
	// ForgetForm drops the member's own board form from memory.
	ForgetForm(userID string)
	// ForgetAI erases the member's AI turns waiting in a queue, which
	// hold their ID and their interactions' tokens.
	ForgetAI(ctx context.Context, userID string) error
	// Cancelled shows on g's board that the erasure cancelled it.
	Cancelled(ctx context.Context, g *storage.Game) error
}

// Flow answers /privacy delete and its confirmation.
type Flow struct {
	store Store
	bot   Bot
	log   *slog.Logger
}

// New returns the flow over store and bot, logging to log.
func New(store Store, bot Bot, log *slog.Logger) *Flow {
	return &Flow{store: store, bot: bot, log: log}
}

// Routes declares /privacy and the button that confirms its delete.
func (f *Flow) Routes(m *mux.Mux) {
	m.Command(&discordgo.ApplicationCommand{
		Name: "privacy", Description: "Your data in Gambit",
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "delete", Description: "Erase your data (asks to confirm)"},
		},
	}, f.cmdPrivacy, nil)
	m.Component(customid.PrivacyDelete, f.clickDelete)
}

// cmdPrivacy handles /privacy delete: it asks to confirm first.
func (f *Flow) cmdPrivacy(_ context.Context, ix *mux.Command) error {
	if ix.Opts.Sub != "delete" {
		return mux.Err("privacy.use_delete")
	}
	return ix.Reply(render.PrivacyConfirm(ix.Lang(), ix.Caller().ID), true)
}

// clickDelete erases the clicking member's data, answers, and only then
// retires the boards of the games it cancelled: editing them may be rate
// limited past the 3 seconds Discord waits for the answer.
func (f *Flow) clickDelete(ctx context.Context, ix *mux.Component) error {
	me := ix.Caller().ID
	if ix.Params["user"] != me {
		return mux.Err("privacy.not_yours")
	}
	rep, err := f.store.DeleteUser(ctx, me)
	if err != nil {
		return fmt.Errorf("privacy: delete user data: %w", err)
	}
	f.bot.ForgetForm(me)
	var answered error
	if err := f.bot.ForgetAI(ctx, me); err != nil {
		// The rest is erased and its boards are retired below; the
		// button stays, for the member to click again.
		f.log.Error("delete user data: AI turns", "interaction", ix.ID, "err", err)
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
		if err := f.bot.Cancelled(ctx, g); err != nil {
			f.log.Warn("update board of a cancelled game", "game", g.ID, "err", err)
		}
	}
	return answered
}
