package bot

import (
	"context"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/storage"
)

// duelBoards is what the duel flow (bot/flows/duel: moves, draws, Resign,
// Abort) needs of the boards.
type duelBoards struct{ gameFlow }

// EndedBehind reports whether a click came from g's board while it still
// offers moves or an answer to a challenge though g has ended, and the
// bot could not show the end there (a timeout where it may only answer
// interactions: reach.go), so the click's answer should. A click that
// merely lost a race with the one that ended g is refused as before.
func (b duelBoards) EndedBehind(ix *mux.Interaction, g *storage.Game) bool {
	if g.Status.Open() || ix.Message == nil || g.MessageID == "" || ix.Message.ID != g.MessageID || !b.places.reach.isBehind(g.ID) {
		return false
	}
	_, open := render.ShownControl(ix.Message.Components, customid.Move, customid.Pick, customid.File, customid.Resign, customid.Accept, customid.Decline)
	return open
}

// CatchUp answers a click on a board that is itself behind its game —
// the bot could not edit it (lost permissions, a crash, a timeout where it
// may only answer interactions) — by bringing it up to date, and tells the
// clicker nothing was played.
func (b duelBoards) CatchUp(ctx context.Context, ix *mux.Interaction, g *storage.Game) error {
	msg, err := b.boards.gameMessage(g, "")
	if err != nil {
		return err
	}
	if err := b.boards.updateBoard(ctx, ix, g, msg); err != nil {
		return err
	}
	if !g.Status.Open() {
		return ix.Fail(ix.Lang().T("move.behind_ended"))
	}
	return ix.Fail(ix.Lang().T("move.behind"))
}

// OnBoard reports whether the click came from g's board (onBoard).
func (b duelBoards) OnBoard(ix *mux.Interaction, g *storage.Game) bool { return onBoard(ix, g) }

// Adopt records the clicked message as g's board when it has none
// (adoptBoard).
func (b duelBoards) Adopt(ctx context.Context, ix *mux.Interaction, g *storage.Game) error {
	return b.boards.adoptBoard(ctx, ix, g)
}

// View renders g's board (view).
func (b duelBoards) View(g *storage.Game, pos engine.Position, thinking *render.Thinking, changes []storage.RatingChange, notice string) render.Message {
	return b.boards.view(g, pos, thinking, changes, notice)
}

// Show answers the click by updating g's board to msg (updateBoard).
func (b duelBoards) Show(ctx context.Context, ix *mux.Interaction, g *storage.Game, msg render.Message) error {
	return b.boards.updateBoard(ctx, ix, g, msg)
}

// EditTo edits g's board to msg, through the channel or the latest token
// showing it (editBoard).
func (b duelBoards) EditTo(ctx context.Context, g *storage.Game, msg render.Message) error {
	return b.boards.editBoard(ctx, g, msg, webhookToken{})
}

// ShowNew shows msg as g's new board through ix (showNewBoard).
func (b duelBoards) ShowNew(ctx context.Context, ix *mux.Interaction, g *storage.Game, msg render.Message) error {
	return b.boards.showNewBoard(ctx, ix, g, msg)
}

// Lang is the language of g's board (boardLang).
func (b duelBoards) Lang(g *storage.Game) *i18n.Localizer { return b.boards.boardLang(g) }

// seamTurns is the game seam as the flows of games in play use it
// (bot/flows/duel, bot/flows/challenges).
type seamTurns struct{ *Bot }

// Commit plays and commits a move (commitMove).
func (b seamTurns) Commit(ctx context.Context, g *storage.Game, pos engine.Position, mv engine.Move) ([]storage.RatingChange, error) {
	return b.commitMove(ctx, g, pos, mv)
}

// Hold runs fn holding game id's lock for ix (holdGame).
func (b seamTurns) Hold(ctx context.Context, ix *mux.Interaction, id storage.GameID, fn func() error) error {
	return b.holdGame(ctx, ix, id, fn)
}

// QueueAI queues the AI's turn if it moves next (queueAI).
func (b seamTurns) QueueAI(ctx context.Context, ix *mux.Interaction, g *storage.Game) *render.Thinking {
	return b.queueAI(ctx, ix, g)
}

// OnGame runs h on game id under its lock (onGame).
func (b seamTurns) OnGame(ctx context.Context, ix *mux.Interaction, id string, h func(context.Context, *storage.Game) error) error {
	return b.onGame(ctx, ix, id, h)
}
