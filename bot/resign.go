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
func (b moveFlow) clickResign(_ context.Context, ix *component, g *storage.Game) error {
	if seatOf(g, ix.user().ID) < 0 {
		return userErr("resign.players_only")
	}
	if g.Status != storage.StatusActive {
		return userErr("error.game_over")
	}
	l := ix.lang()
	question, label := l.T("resign.question"), l.T("board.resign")
	if g.Solo() {
		question, label = l.T("resign.question_puzzle"), l.T("board.give_up")
	}
	return ix.reply(render.Message{
		Content: question,
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: label, Style: discordgo.DangerButton, CustomID: customid.ResignConfirm.Build(string(g.ID), render.Ply(g))},
		}}},
	}, true)
}

// clickResignConfirm resigns for the player who clicked.
func (b moveFlow) clickResignConfirm(ctx context.Context, ix *component, g *storage.Game) error {
	p := ix.params
	seat := seatOf(g, ix.user().ID)
	if seat < 0 {
		return userErr("resign.players_only")
	}
	if g.Status != storage.StatusActive {
		return userErr("error.game_over")
	}
	// The confirmation may be for an earlier board (the opponent moved
	// meanwhile: resigning still stands), never for one not drawn yet.
	if n, err := strconv.Atoi(p["ply"]); err != nil || n < 0 || n > len(g.Moves) || p["ply"] != strconv.Itoa(n) {
		return userErr("resign.wrong_board")
	}
	var res storage.Result
	g.Status, res = g.GiveUp(seat)
	changes, err := b.store.FinishGame(ctx, g, res)
	if errors.Is(err, storage.ErrConflict) || errors.Is(err, storage.ErrGameOver) {
		return raceError(err, "error.conflict_board")
	}
	if err != nil {
		return fmt.Errorf("bot: resign game %s: %w", g.ID, err)
	}
	done := ix.lang().T("resign.done")
	if g.Solo() {
		done = ix.lang().T("resign.done_puzzle")
	}
	if err := ix.update(render.Message{Content: done}); err != nil {
		return err
	}
	pos, err := position(g)
	if err != nil {
		return err
	}
	return b.boards.editBoard(ctx, g, b.boards.view(g, pos, nil, changes, ""), webhookToken{})
}
