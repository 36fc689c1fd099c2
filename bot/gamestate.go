package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/storage"
)

// gameOf and position are the plug-in and the position of a game
// (bot/play, which the flows share).
var gameOf, position = play.Game, play.Position

// loadGame loads a game by the ID a user or a custom ID gave.
func (b *Bot) loadGame(ctx context.Context, id string) (*storage.Game, error) {
	g, err := b.store.Game(ctx, storage.GameID(id))
	if errors.Is(err, storage.ErrNotFound) {
		return nil, mux.Err("error.no_game", "ID", mux.Echo(id))
	}
	if err != nil {
		return nil, fmt.Errorf("bot: load game %s: %w", id, err)
	}
	return g, nil
}

// guildSettings returns a guild's settings, the zero value on error (with
// the error logged): settings tune a game but must not stop one.
func (b *Bot) guildSettings(ctx context.Context, guildID string) storage.GuildSettings {
	if guildID == "" {
		return storage.GuildSettings{}
	}
	s, err := b.store.GuildSettings(ctx, guildID)
	if err != nil {
		b.log.Error("load guild settings", "guild", guildID, "err", err)
		return storage.GuildSettings{}
	}
	return s
}

// turnTimeout is the time a player of the guild has per move.
func (b *Bot) turnTimeout(ctx context.Context, guildID string) time.Duration {
	if t := b.guildSettings(ctx, guildID).TurnTimeout; t > 0 {
		return t
	}
	return b.cfg.Games.TurnTimeout
}

// setTurnDeadline sets the deadline of the player to move: none for an
// AI or a solo puzzle (nobody waits for its player), the turn timeout for
// a person in a duel (the game's own TurnTime, a tournament's, if set).
func (b *Bot) setTurnDeadline(ctx context.Context, g *storage.Game) {
	if g.Players[g.Turn].ID.IsAI() || g.Solo() {
		g.Deadline = time.Time{}
		return
	}
	if t := g.Settings.TurnTime; t > 0 { // a tournament's time per move
		g.Deadline = b.now().Add(t)
		return
	}
	g.Deadline = b.now().Add(b.turnTimeout(ctx, g.GuildID))
}

// moveTime is the AI's time per move in a game.
func (b *Bot) moveTime(g *storage.Game) time.Duration {
	if g.Settings.MoveTime > 0 {
		return g.Settings.MoveTime
	}
	return b.cfg.AI.MoveTime
}

// commitMove plays mv for the player to move in g (whose position is pos),
// and commits the result: the game goes on with the other player to move,
// or it is finished with ratings updated. g and pos are changed; on error
// the caller must reload them. The rating changes are returned when the
// game ended. Turn passes to the other player even at the end, so that
// Turn always names who would move next.
func (b *Bot) commitMove(ctx context.Context, g *storage.Game, pos engine.Position, mv engine.Move) ([]storage.RatingChange, error) {
	gm, err := gameOf(g)
	if err != nil {
		return nil, err
	}
	mover, side := g.Turn, pos.SideToMove()
	change := gm.Play(pos, mv)
	g.Moves = append(g.Moves, change.Move)
	g.DrawOffer = nil // a move ends a draw offer
	g.Last = &storage.LastMove{Move: change.Move, Changed: change.Changed}
	g.Position = pos.String()
	g.Turn = g.Next(mover)
	if pos.Terminal() {
		score := 0.5
		switch pos.Result(side) {
		case engine.Win:
			score = 1
		case engine.Loss:
			score = 0
		}
		var res storage.Result
		g.Status, res = g.Outcome(mover, score)
		if g.Solved() {
			if res.Optimal, err = play.Optimum(ctx, g); err != nil {
				b.log.Warn("optimum of a puzzle unknown", "game", g.ID, "err", err)
			}
		}
		changes, err := b.store.FinishGame(ctx, g, res)
		if err != nil {
			return nil, fmt.Errorf("bot: finish game %s: %w", g.ID, err)
		}
		return changes, nil
	}
	b.setTurnDeadline(ctx, g)
	if err := b.store.UpdateGame(ctx, g); err != nil {
		return nil, fmt.Errorf("bot: save move %d of game %s: %w", len(g.Moves), g.ID, err)
	}
	return nil, nil
}
