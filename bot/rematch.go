package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// clickRematch starts a new game between the players of an ended game,
// the other player moving first. The rematch is claimed in the store
// before anything is shown, so that of any number of clicks on the old
// board — racing, or after a restart — one starts a game; the answer is
// deferred before the first call to Discord, which may be rate limited
// past Discord's 3 seconds. The new board follows up, and the old board
// loses its Rematch button.
func (b *Bot) clickRematch(ctx context.Context, ix *interaction, p customid.Params) error {
	id := storage.GameID(p["game"])
	req, old, err := b.takeRematch(ctx, ix, id)
	if err != nil {
		return err
	}
	if err := ix.deferUpdate(); err != nil {
		b.releaseRematch(ctx, id)
		return err
	}
	// The old game's lock is released by now: the new game takes its own,
	// which may share the old one's stripe.
	var g *storage.Game
	if req.opponent.ID.IsAI() {
		g, err = b.startAIGame(ctx, ix, req)
	} else {
		g, err = b.challenge(ctx, ix, req)
	}
	if g == nil {
		b.releaseRematch(ctx, id) // nothing started: the players may ask again
		return err
	}
	if eerr := ix.edit(endedMessage(old, "A rematch was started below.")); eerr != nil {
		b.log.Warn("remove the rematch button", "game", old.ID, "err", eerr)
	}
	return err
}

// takeRematch checks that the clicking player may have a rematch of an
// ended game, claims it in the store and returns the new game to start
// and the old game. It does not call Discord.
func (b *Bot) takeRematch(ctx context.Context, ix *interaction, id storage.GameID) (gameRequest, *storage.Game, error) {
	defer b.locks.lock(id)()
	old, err := b.loadGame(ctx, string(id))
	if err != nil {
		return gameRequest{}, nil, err
	}
	seat := seatOf(old, ix.user().ID)
	if seat < 0 {
		return gameRequest{}, nil, userErrorf("Only the players of this game can ask for a rematch. Start your own with /play.")
	}
	if !old.Status.Ended() {
		return gameRequest{}, nil, userErrorf("This game is not over yet.")
	}
	if old.Rematched {
		return gameRequest{}, nil, errRematchTaken
	}
	if !b.guildSettings(ctx, ix.GuildID).Allows(old.Kind) {
		return gameRequest{}, nil, userErrorf("%s is no longer allowed on this server.", old.Kind)
	}
	if old.Solo() {
		return gameRequest{}, nil, userErrorf("A puzzle has no rematch.")
	}
	if old.Players[1-seat].ID == storage.Anonymous {
		return gameRequest{}, nil, userErrorf("Your opponent deleted their data; start a new game with /play.")
	}
	if err := b.checkLimits(ctx, ix.user().ID, !old.Players[1-seat].ID.IsAI()); err != nil {
		return gameRequest{}, nil, err
	}
	if err := b.store.ClaimRematch(ctx, old.ID); errors.Is(err, storage.ErrRematchTaken) {
		return gameRequest{}, nil, errRematchTaken
	} else if err != nil {
		return gameRequest{}, nil, fmt.Errorf("bot: claim the rematch of %s: %w", old.ID, err)
	}
	first := "me"
	if firstSeat(old) == seat {
		first = "opponent"
	}
	return gameRequest{
		kind: old.Kind, me: playerOf(ix.user()), opponent: old.Players[1-seat], first: first,
		rounds: old.Settings.Rounds, moveTime: old.Settings.MoveTime,
	}, old, nil
}

// errRematchTaken refuses a second rematch of a game.
var errRematchTaken = userErrorf("A rematch of this game was already started.")

// releaseRematch gives a claimed rematch back after its game could not be
// started; if that fails too, the players start a new game with /play.
func (b *Bot) releaseRematch(ctx context.Context, id storage.GameID) {
	if err := b.store.ReleaseRematch(ctx, id); err != nil {
		b.log.Error("release the rematch of a game that did not start", "game", id, "err", err)
	}
}

// firstSeat returns the seat of the player who moved first in g.
func firstSeat(g *storage.Game) int {
	if len(g.Moves)%2 == 0 {
		return g.Turn
	}
	return 1 - g.Turn
}

// endedMessage renders an ended game whose rematch was taken: the board
// with the notice and no Rematch button, or the notice alone if the record
// cannot be drawn.
func endedMessage(g *storage.Game, notice string) render.Message {
	pos, err := position(g)
	if err != nil {
		return render.Message{Content: notice, Components: []discordgo.MessageComponent{}}
	}
	return render.Game(render.View{Game: g, Pos: pos, Notice: notice, Rematched: true})
}
