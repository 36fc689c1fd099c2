package bot

import (
	"context"

	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/storage"
)

// challengeGames is what the challenges flow (bot/flows/challenges) needs
// of the code that starts games.
type challengeGames struct{ gameFlow }

// Begin sets g up to start (begin).
func (b challengeGames) Begin(ctx context.Context, g *storage.Game) error { return b.begin(ctx, g) }

// CheckLimits refuses a member at their cap of open games (checkLimits).
func (b challengeGames) CheckLimits(ctx context.Context, userID string) error {
	return b.checkLimits(ctx, userID, false)
}

// Limits are the caps of one member's games (limits).
func (b challengeGames) Limits() storage.Limits { return b.limits() }

// challengeBoards is what the challenges flow needs of the boards.
type challengeBoards struct{ duelBoards }

// Update answers the click by updating g's message: the board of a game
// begun, the challenge as answered otherwise (updateBoard).
func (b challengeBoards) Update(ctx context.Context, ix *mux.Interaction, g *storage.Game) error {
	var pos engine.Position
	if g.Status == storage.StatusActive {
		p, err := position(g)
		if err != nil {
			return err
		}
		pos = p
	}
	return b.boards.updateBoard(ctx, ix, g, b.boards.view(g, pos, nil, nil, ""))
}
