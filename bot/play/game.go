package play

import (
	"fmt"

	"github.com/gambitbot/gambit/bot/gamenames"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
)

// Game returns the plug-in of the game g is a record of.
func Game(g *storage.Game) (*games.Game, error) {
	gm, err := catalog.Lookup(string(g.Kind))
	if err != nil {
		return nil, fmt.Errorf("play: game %s: %w", g.ID, err)
	}
	return gm, nil
}

// Position returns the engine position of g as it stands.
func Position(g *storage.Game) (engine.Position, error) {
	gm, err := Game(g)
	if err != nil {
		return nil, err
	}
	pos, err := gm.Position(g.Position, games.Options{})
	if err != nil {
		return nil, fmt.Errorf("play: game %s: %w", g.ID, err)
	}
	return pos, nil
}

// CheckMover refuses anyone but the player to move of an active game,
// saying why: not a player of it, not started, over, or the other
// player's turn, or its tournament is paused.
func CheckMover(g *storage.Game, userID string) error {
	seat := g.Seat(storage.User(userID))
	switch {
	case seat < 0 && g.Solo():
		return mux.Err("move.puzzle_of", "Player", gamenames.Player(g.Kind, g.Players[0]))
	case seat < 0:
		return mux.Err("move.between", "A", gamenames.Player(g.Kind, g.Players[0]), "B", gamenames.Player(g.Kind, g.Players[1]))
	case g.Status == storage.StatusPending:
		return mux.Err("move.not_started")
	case g.Status != storage.StatusActive:
		return mux.Err("error.game_over")
	case g.Turn != seat:
		return mux.Err("move.not_your_turn", "Player", gamenames.Player(g.Kind, g.Players[g.Turn]))
	case g.Paused:
		return mux.Err("tournament.pause.move")
	}
	return nil
}
