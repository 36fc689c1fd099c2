package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gambitbot/gambit/storage"
)

// leaveTimeout bounds the cancelling of a guild's games when the bot is
// removed from it.
const leaveTimeout = time.Minute

// guildEvents is what the gateway tells the bot of its guilds
// (ingress.Guilds).
type guildEvents struct{ b *Bot }

// GuildLocale learns a guild's locale: every guild at connect and its
// changes, so that the boards edited after a restart, before any
// interaction, speak it.
func (e guildEvents) GuildLocale(guildID, locale string) {
	e.b.places.left.Delete(guildID) // back in it
	e.b.places.locales.m.Store(guildID, locale)
}

// GuildRemoved handles the bot's removal from a guild (kicked, or the
// guild deleted): it can no longer show, post or edit a board there, and
// nobody there can click one, so every open game of the guild is
// cancelled — pending challenges and games in progress alike, human or
// AI — and so is every tournament of the guild not ended (announced,
// running or paused), first, so that none pairs a round there again;
// nothing is posted: its channel is gone. The timers' tournament sweep
// skips the guild from then on (a tournament whose cancel failed).
// A cancelled game is final, unrated and out of history; an AI search
// still running for one finds, when it commits, that the game no longer
// awaits it and drops its move. The boards in the guild are left as they
// are: the bot cannot reach them. An outage (the guild unavailable) is no
// removal: its games wait.
func (e guildEvents) GuildRemoved(guildID string) {
	b := e.b
	if !b.life.work.begin() {
		b.log.Warn("removed from guild while shutting down; its games stay open", "guild", guildID)
		return
	}
	defer b.life.work.end()
	b.places.left.Store(guildID, true)
	b.timers.leaveGuild(guildID)
}

// leaveGuild cancels the tournaments not ended and then the open games
// of a guild the bot was removed from, and logs what it did.
func (b timerFlow) leaveGuild(guildID string) {
	ctx, cancel := context.WithTimeout(context.Background(), leaveTimeout)
	defer cancel()
	b.leaveTournaments(ctx, guildID)
	open, err := b.store.OpenGames(ctx, storage.Shards{}, func(g *storage.Game) bool { return g.GuildID == guildID })
	if err = b.corrupt.listed("removed from guild; cancel its games", err); err != nil {
		b.log.Error("removed from guild; cannot list its open games, which stay open", "guild", guildID, "err", err)
		return
	}
	cancelled, failed := 0, 0
	for _, g := range open {
		ok, err := b.cancelGame(ctx, g.ID)
		switch {
		case err != nil:
			failed++
			b.log.Error("removed from guild; cancel game", "guild", guildID, "game", g.ID, "err", err)
		case ok:
			cancelled++
		}
	}
	if failed > 0 {
		b.log.Error("removed from guild; some games could not be cancelled", "guild", guildID, "cancelled", cancelled, "failed", failed)
		return
	}
	b.log.Info(fmt.Sprintf("removed from guild %s; %d games cancelled", guildID, cancelled), "guild", guildID, "cancelled", cancelled)
}

// cancelGame cancels one open game under its lock and reports whether it
// did; a game that ended meanwhile is left as it is.
func (b timerFlow) cancelGame(ctx context.Context, id storage.GameID) (bool, error) {
	ctx, unlock := b.locks.hold(ctx, id)
	defer unlock()
	var was storage.Status
	g, cancelled, err := settleGame(ctx, b.store, id, "cancel", func(g *storage.Game) (bool, error) {
		if !g.Status.Open() {
			return false, nil
		}
		was, g.Status = g.Status, storage.StatusCancelled
		err := b.store.UpdateGame(ctx, g)
		return err == nil, err
	})
	if cancelled {
		b.log.Info("game cancelled: the bot was removed from its guild", "game", id, "guild", g.GuildID, "was", was, "moves", len(g.Moves))
	}
	return cancelled, err
}

// leaveTournaments cancels the tournaments not ended of a guild the bot
// was removed from, before its games: a running one would otherwise pair
// its next round there as the cancelled games are recorded. One that
// ended meanwhile is left as it is.
func (b timerFlow) leaveTournaments(ctx context.Context, guildID string) {
	list, err := b.store.GuildTournaments(ctx, guildID, 0)
	if err != nil && !errors.Is(err, storage.ErrCorrupt) {
		b.log.Error("removed from guild; cannot list its tournaments, which stay open", "guild", guildID, "err", err)
		return
	}
	cancelled := 0
	for _, t := range list {
		if t.Status.Ended() {
			continue
		}
		_, err := b.store.SetTournamentStatus(ctx, t.ID, storage.TournamentCancelled)
		switch {
		case err == nil:
			cancelled++
			b.log.Info("tournament cancelled: the bot was removed from its guild", "tournament", t.ID, "guild", guildID, "was", t.Status)
		case errors.Is(err, storage.ErrGameOver):
		default:
			b.log.Error("removed from guild; cancel tournament", "guild", guildID, "tournament", t.ID, "err", err)
		}
	}
	if cancelled > 0 {
		b.log.Info(fmt.Sprintf("removed from guild %s; %d tournaments cancelled", guildID, cancelled), "guild", guildID, "tournaments", cancelled)
	}
}
