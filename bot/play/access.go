// Package play is what the bot's flows share about games in play, below
// them: who may see a game, the routes of one game, the answers to a
// lost race and to a member at a cap, who a member is as a player.
package play

import (
	"context"
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/storage"
)

// Who may see a game's review (/review game:, the Review button): its
// players, wherever they ask, and anyone asking from the server channel
// the game was played in, whose board they can see there. A game of a DM
// or a group DM is its players' alone. From another channel, even of the
// same server, the bot cannot tell whether the member may see the game's
// channel, so it answers as it would for a game that does not exist:
// game IDs are a sequence, and a refusal that named the game would tell
// that it exists. /stats user: lists another member's recent games by the
// same rule.

// MayReview reports whether the member asking in ix may see g's review.
func MayReview(ix *mux.Interaction, g *storage.Game) bool {
	if g.Seat(storage.User(ix.Caller().ID)) >= 0 {
		return true
	}
	return g.GuildID != "" && g.GuildID == ix.GuildID && g.ChannelID == ix.ChannelID
}

// GameRoutes is the wrap of the routes of one game (mux.NewGroup): it
// takes the lock of the game the custom ID's {game} parameter names,
// loads it and runs the handler with it, which then holds the lock until
// its first call to Discord (the bot's game seam).
type GameRoutes func(func(ctx context.Context, ix *mux.Component, g *storage.Game) error) mux.ComponentHandler

// Conflict is the member's answer to a change of game id that lost a race
// with another (storage.ErrConflict, storage.ErrGameOver: the game
// changed or ended meanwhile), which the game seam may run again on the
// game as it now is (mux.RaceErr); any other error is ours, wrapped with
// what was being done.
func Conflict(err error, what string, id storage.GameID) error {
	if errors.Is(err, storage.ErrConflict) || errors.Is(err, storage.ErrGameOver) {
		return mux.RaceErr(err, "error.conflict")
	}
	return fmt.Errorf("play: %s %s: %w", what, id, err)
}

// LimitRefusal turns an error carrying a *storage.LimitError — a member
// at their cap of open games or waiting challenges — into the member's
// explanation, and returns any other error as it is.
func LimitRefusal(err error) error {
	var le *storage.LimitError
	if !errors.As(err, &le) {
		return err
	}
	if le.Limit == storage.LimitChallenges {
		return mux.Err("play.too_many_challenges", "Count", le.Count)
	}
	return mux.Err("play.too_many_games", "Count", le.Count)
}

// PlayerOf is the player u is in a game: their ID and the name they go
// by.
func PlayerOf(u *discordgo.User) storage.Player {
	name := u.GlobalName
	if name == "" {
		name = u.Username
	}
	return storage.Player{ID: storage.User(u.ID), Name: name}
}

// ErrUnreachable says a game's board is reachable only through
// interactions — in a channel the bot reaches only so, or a board its
// member alone sees (an attempt at the daily puzzle) — and no valid token
// shows it: it cannot be edited or posted now. The next click on it
// brings it up to date.
var ErrUnreachable = errors.New("the board is reachable only through an interaction, and none is valid")

// GameCreator stores new games: the store.
type GameCreator interface {
	CreateGame(ctx context.Context, g *storage.Game, limits storage.Limits) error
}

// CreateGame stores the new game g in store. The store checks the caps
// of the member who asked for it (Players[0]) in the same transaction, so
// concurrent commands cannot overshoot them; a member at a cap is told
// which (LimitRefusal).
func CreateGame(ctx context.Context, store GameCreator, g *storage.Game, limits storage.Limits) error {
	if err := store.CreateGame(ctx, g, limits); err != nil {
		return LimitRefusal(fmt.Errorf("play: create game: %w", err))
	}
	return nil
}
