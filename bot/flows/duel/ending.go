package duel

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// Resign and Abort end a game for the player who clicks, after a
// confirmation only they see: resigning loses it (a solo puzzle is given
// up), aborting — before each side has moved twice — closes it without a
// result or rating change.

// clickResign asks the player to confirm resigning.
func (f *Flow) clickResign(_ context.Context, ix *mux.Component, g *storage.Game) error {
	if _, err := checkEnding(ix, g, false, false); err != nil {
		return err
	}
	return ix.Reply(render.ResignConfirm(ix.Lang(), g), true)
}

// clickAbort asks the player to confirm aborting.
func (f *Flow) clickAbort(_ context.Context, ix *mux.Component, g *storage.Game) error {
	if _, err := checkEnding(ix, g, true, false); err != nil {
		return err
	}
	return ix.Reply(render.AbortConfirm(ix.Lang(), g), true)
}

// checkEnding refuses a click that would resign or abort g unless the
// clicker plays g, g is active and, for an abort, still abortable; a confirmation must be for
// the game's board as drawn now or earlier (the opponent may have moved
// meanwhile: the decision stands), never for one not drawn yet. It
// returns the clicker's seat.
func checkEnding(ix *mux.Component, g *storage.Game, abort, confirming bool) (int, error) {
	playersOnly, wrongBoard := "resign.players_only", "resign.wrong_board"
	if abort {
		playersOnly, wrongBoard = "abort.players_only", "abort.wrong_board"
	}
	seat := g.Seat(storage.User(ix.Caller().ID))
	if seat < 0 {
		return seat, mux.Err(playersOnly)
	}
	if g.Status != storage.StatusActive {
		return seat, mux.Err("error.game_over")
	}
	if abort && !g.Abortable() {
		return seat, mux.Err("abort.too_late")
	}
	if p := ix.Params["ply"]; confirming {
		if n, err := strconv.Atoi(p); err != nil || n < 0 || n > len(g.Moves) || p != strconv.Itoa(n) {
			return seat, mux.Err(wrongBoard)
		}
	}
	return seat, nil
}

// clickResignConfirm resigns for the player who clicked.
func (f *Flow) clickResignConfirm(ctx context.Context, ix *mux.Component, g *storage.Game) error {
	seat, err := checkEnding(ix, g, false, true)
	if err != nil {
		return err
	}
	var res storage.Result
	g.Status, res = g.GiveUp(seat)
	changes, err := f.store.FinishGame(ctx, g, res)
	if errors.Is(err, storage.ErrConflict) || errors.Is(err, storage.ErrGameOver) {
		return mux.RaceErr(err, "error.conflict_board")
	}
	if err != nil {
		return fmt.Errorf("duel: resign game %s: %w", g.ID, err)
	}
	done := ix.Lang().T("resign.done")
	if g.Solo() {
		done = ix.Lang().T("resign.done_puzzle")
	}
	return f.showEnded(ctx, ix, g, done, changes)
}

// clickAbortConfirm aborts the game for the player who clicked: it
// closes without a result, and nobody's rating moves.
func (f *Flow) clickAbortConfirm(ctx context.Context, ix *mux.Component, g *storage.Game) error {
	if _, err := checkEnding(ix, g, true, true); err != nil {
		return err
	}
	g.Status = storage.StatusAborted
	err := f.store.UpdateGame(ctx, g)
	if errors.Is(err, storage.ErrConflict) || errors.Is(err, storage.ErrGameOver) {
		return mux.RaceErr(err, "error.conflict_board")
	}
	if err != nil {
		return fmt.Errorf("duel: abort game %s: %w", g.ID, err)
	}
	return f.showEnded(ctx, ix, g, ix.Lang().T("abort.done"), nil)
}

// showEnded answers the confirmation of an ended game with done and
// shows the game's end on its board, with its rating changes.
func (f *Flow) showEnded(ctx context.Context, ix *mux.Component, g *storage.Game, done string, changes []storage.RatingChange) error {
	if err := ix.Update(render.Message{Content: done}); err != nil {
		return err
	}
	return f.edit(ctx, g, changes)
}
