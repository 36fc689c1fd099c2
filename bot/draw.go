package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/storage"
)

// duelBoards is what the duel flow (bot/flows/duel: draws, Resign, Abort)
// needs of the boards.
type duelBoards struct{ gameFlow }

// EndedBehind reports whether the click came from g's board while it is
// behind g, which ended meanwhile (moveFlow.endedBehind).
func (b duelBoards) EndedBehind(ix *mux.Interaction, g *storage.Game) bool {
	return b.moves.endedBehind(ix, g)
}

// CatchUp brings g's board up to date and tells the clicker nothing was
// done (moveFlow.catchUp).
func (b duelBoards) CatchUp(ctx context.Context, ix *mux.Interaction, g *storage.Game) error {
	return b.moves.catchUp(ctx, ix, g)
}

// OnBoard reports whether the click came from g's board (onBoard).
func (b duelBoards) OnBoard(ix *mux.Interaction, g *storage.Game) bool { return onBoard(ix, g) }

// Adopt records the clicked message as g's board when it has none
// (adoptBoard).
func (b duelBoards) Adopt(ctx context.Context, ix *mux.Interaction, g *storage.Game) error {
	return b.boards.adoptBoard(ctx, ix, g)
}

// Update answers the click by updating g's board (updateBoard).
func (b duelBoards) Update(ctx context.Context, ix *mux.Interaction, g *storage.Game, changes []storage.RatingChange, notice string) error {
	pos, err := position(g)
	if err != nil {
		return fmt.Errorf("bot: show game %s: %w", g.ID, err)
	}
	return b.boards.updateBoard(ctx, ix, g, b.boards.view(g, pos, nil, changes, notice))
}

// Edit shows g, just ended with changes, on its board (editBoard). A
// board no valid token reaches (errUnreachable) is noted behind, and the
// next click on it shows the end: the player, told the end already, is
// not told of a failure.
func (b duelBoards) Edit(ctx context.Context, g *storage.Game, changes []storage.RatingChange) error {
	pos, err := position(g)
	if err != nil {
		return fmt.Errorf("bot: show game %s: %w", g.ID, err)
	}
	err = b.boards.editBoard(ctx, g, b.boards.view(g, pos, nil, changes, ""), webhookToken{})
	if errors.Is(err, errUnreachable) {
		return nil
	}
	return err
}

// Lang is the language of g's board (boardLang).
func (b duelBoards) Lang(g *storage.Game) *i18n.Localizer { return b.boards.boardLang(g) }
