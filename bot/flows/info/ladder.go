package info

import (
	"context"
	"errors"
	"fmt"

	"github.com/gambitbot/gambit/bot/gamenames"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// Sizes of the lists the information commands show.
const (
	leaderboardSize = 10
	neighbours      = 2
	recentGames     = 5
	historyScan     = 100
)

// cmdLeaderboard handles /leaderboard game:<…> [scope:server|global].
func (f *Flow) cmdLeaderboard(ctx context.Context, ix *mux.Command) error {
	opts := ix.Opts
	kind, err := gamenames.Kind(opts, "game")
	if err != nil {
		return err
	}
	scope := opts.Str("scope")
	ladder := storage.Ladder{Kind: kind, Guild: ix.GuildID}
	switch {
	case ix.GuildID == "" && scope == "server":
		return mux.Err("ladder.no_server")
	case ix.GuildID == "":
		scope, ladder = "global", storage.Global(kind)
	}
	switch scope {
	case "", "server":
		scope = "server"
	case "global":
		ladder = storage.Global(kind)
	default:
		return mux.Err("error.scope")
	}
	top, err := f.store.Leaderboard(ctx, ladder, leaderboardSize)
	if err != nil {
		return fmt.Errorf("info: leaderboard %s: %w", ladder, err)
	}
	var me *storage.RankView
	rv, err := f.store.Rank(ctx, ladder, storage.User(ix.Caller().ID), neighbours)
	switch {
	case err == nil:
		me = &rv
	case !errors.Is(err, storage.ErrNotFound):
		return fmt.Errorf("info: rank in %s: %w", ladder, err)
	}
	return ix.Reply(render.Leaderboard(f.locales.Shared(ix.Interaction), kind, scope, top, me), false)
}

// cmdStats handles /stats [user].
func (f *Flow) cmdStats(ctx context.Context, ix *mux.Command) error {
	opts := ix.Opts
	userID := ix.Caller().ID
	if id := opts.User("user"); id != "" {
		userID = id
	}
	player := storage.User(userID)
	history, err := f.store.History(ctx, player, historyScan)
	if err != nil {
		return fmt.Errorf("info: history of %s: %w", player, err)
	}
	var stats []render.KindStats
	for _, gm := range gamenames.Duels() {
		k := storage.Kind(gm.Name)
		ks := render.KindStats{Kind: k}
		rv, err := f.store.Rank(ctx, storage.Global(k), player, 0)
		switch {
		case err == nil:
			r := rv.Player.Rating
			ks.Rating, ks.Rank = &r, rv.Player.Rank
		case !errors.Is(err, storage.ErrNotFound):
			return fmt.Errorf("info: rating of %s in %s: %w", player, k, err)
		}
		for _, g := range history {
			// Another member's games by the rule of reviews: those the
			// asker played, or played in this channel.
			if userID != ix.Caller().ID && !play.MayReview(ix.Interaction, g) {
				continue
			}
			if g.Kind == k && len(ks.Recent) < recentGames {
				ks.Recent = append(ks.Recent, g)
			}
		}
		stats = append(stats, ks)
	}
	tournaments, err := f.store.PlayerTournaments(ctx, player, recentTournaments)
	if err != nil {
		return fmt.Errorf("info: tournaments of %s: %w", player, err)
	}
	return ix.Reply(render.WithTournaments(ix.Lang(), render.Stats(ix.Lang(), player, stats), tournaments), true)
}

// recentTournaments is how many of a player's finished tournaments
// /stats lists.
const recentTournaments = 5
