package bot

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// clickResign asks the player to confirm resigning.
func (b *Bot) clickResign(_ context.Context, ix *interaction, g *storage.Game, _ customid.Params) error {
	if seatOf(g, ix.user().ID) < 0 {
		return userErrorf("Only the players can resign this game.")
	}
	if g.Status != storage.StatusActive {
		return userErrorf("This game is over.")
	}
	question, label := "Resign this game? It counts as a loss.", "Resign"
	if g.Solo() {
		question, label = "Give up this puzzle? It is recorded as abandoned, not solved.", "Give up"
	}
	return ix.reply(render.Message{
		Content: question,
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: label, Style: discordgo.DangerButton, CustomID: customid.ResignConfirm.Build(string(g.ID), render.Ply(g))},
		}}},
	}, true)
}

// clickResignConfirm resigns for the player who clicked.
func (b *Bot) clickResignConfirm(ctx context.Context, ix *interaction, g *storage.Game, p customid.Params) error {
	seat := seatOf(g, ix.user().ID)
	if seat < 0 {
		return userErrorf("Only the players can resign this game.")
	}
	if g.Status != storage.StatusActive {
		return userErrorf("This game is over.")
	}
	// The confirmation may be for an earlier board (the opponent moved
	// meanwhile: resigning still stands), never for one not drawn yet.
	if n, err := strconv.Atoi(p["ply"]); err != nil || n < 0 || n > len(g.Moves) || p["ply"] != strconv.Itoa(n) {
		return userErrorf("This button does not belong to this game's board. Use the Resign button on the board.")
	}
	var res storage.Result
	g.Status, res = g.GiveUp(seat)
	changes, err := b.store.FinishGame(ctx, g, res)
	if errors.Is(err, storage.ErrConflict) || errors.Is(err, storage.ErrGameOver) {
		return raceError(err, "The game changed at the same moment; look at the board and try again.")
	}
	if err != nil {
		return fmt.Errorf("bot: resign game %s: %w", g.ID, err)
	}
	done := "You resigned."
	if g.Solo() {
		done = "You gave up the puzzle."
	}
	if err := ix.update(render.Message{Content: done}); err != nil {
		return err
	}
	pos, err := position(g)
	if err != nil {
		return err
	}
	return b.editBoard(ctx, g, view(g, pos, nil, changes, ""), webhookToken{})
}
