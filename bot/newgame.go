package bot

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/storage"
)

// Starting games, below the flows that start them (bot/flows/challenges,
// the puzzles): the members' caps, a new game's record stored and its
// start.

// limits are the caps of one member's games, from the configuration.
func (b gameFlow) limits() storage.Limits {
	return storage.Limits{MaxOpen: b.cfg.Games.MaxPerUser, MaxChallenges: b.cfg.Games.MaxChallenges}
}

// createGame stores a new game, within the caps of the member who asked
// for it (play.CreateGame).
func (b gameFlow) createGame(ctx context.Context, g *storage.Game) error {
	return play.CreateGame(ctx, b.store, g, b.limits())
}

// checkLimits refuses a new game to a member who has too many open games,
// or too many challenges waiting, when the new game is a challenge. It is
// a look ahead, for a refusal before anything else changes (a Rematch
// removing its button); createGame makes the binding check.
func (b gameFlow) checkLimits(ctx context.Context, userID string, challenge bool) error {
	p := storage.User(userID)
	var open []*storage.Game
	for _, k := range storage.CappedKeys(p) { // their games and showcases
		games, err := b.store.ActiveGames(ctx, k)
		if err != nil {
			return fmt.Errorf("bot: games of %s: %w", userID, err)
		}
		open = append(open, games...)
	}
	return play.LimitRefusal(b.limits().Check(p, open, challenge))
}

// begin sets up the start position of g and makes it active with the
// first mover, resolved from the challenger's choice, to move.
func (b gameFlow) begin(ctx context.Context, g *storage.Game) error {
	gm, err := gameOf(g)
	if err != nil {
		return fmt.Errorf("bot: start game: %w", err)
	}
	pos, err := gm.Start(games.Options{Rounds: g.Settings.Rounds})
	if err != nil {
		return fmt.Errorf("bot: start game: %w", err)
	}
	switch g.Settings.First {
	case "opponent":
		g.Turn = 1
	case "random":
		g.Turn = rand.IntN(2)
	default:
		g.Turn = 0
	}
	g.Status, g.Position = storage.StatusActive, pos.String()
	b.setTurnDeadline(ctx, g)
	return nil
}
