package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// Sizes of the lists the information commands show.
const (
	leaderboardSize = 10
	neighbours      = 2
	recentGames     = 5
	historyScan     = 100
	maxListedGames  = 20
)

// cmdLeaderboard handles /leaderboard game:<…> [scope:server|global].
func (b infoFlow) cmdLeaderboard(ctx context.Context, ix *command) error {
	opts := ix.opts
	kind, err := opts.kind("game")
	if err != nil {
		return err
	}
	scope := opts.str("scope")
	ladder := storage.Ladder{Kind: kind, Guild: ix.GuildID}
	switch {
	case ix.GuildID == "" && scope == "server":
		return userErr("ladder.no_server")
	case ix.GuildID == "":
		scope, ladder = "global", storage.Global(kind)
	}
	switch scope {
	case "", "server":
		scope = "server"
	case "global":
		ladder = storage.Global(kind)
	default:
		return userErr("error.scope")
	}
	top, err := b.store.Leaderboard(ctx, ladder, leaderboardSize)
	if err != nil {
		return fmt.Errorf("bot: leaderboard %s: %w", ladder, err)
	}
	var me *storage.RankView
	rv, err := b.store.Rank(ctx, ladder, storage.User(ix.user().ID), neighbours)
	switch {
	case err == nil:
		me = &rv
	case !errors.Is(err, storage.ErrNotFound):
		return fmt.Errorf("bot: rank in %s: %w", ladder, err)
	}
	return ix.reply(render.Leaderboard(ix.shared(), kind, scope, top, me), false)
}

// cmdStats handles /stats [user].
func (b infoFlow) cmdStats(ctx context.Context, ix *command) error {
	opts := ix.opts
	userID := ix.user().ID
	if id := opts.user("user"); id != "" {
		userID = id
	}
	player := storage.User(userID)
	history, err := b.store.History(ctx, player, historyScan)
	if err != nil {
		return fmt.Errorf("bot: history of %s: %w", player, err)
	}
	var stats []render.KindStats
	for _, gm := range duels() {
		k := storage.Kind(gm.Name)
		ks := render.KindStats{Kind: k}
		rv, err := b.store.Rank(ctx, storage.Global(k), player, 0)
		switch {
		case err == nil:
			r := rv.Player.Rating
			ks.Rating, ks.Rank = &r, rv.Player.Rank
		case !errors.Is(err, storage.ErrNotFound):
			return fmt.Errorf("bot: rating of %s in %s: %w", player, k, err)
		}
		for _, g := range history {
			// Another member's games by the rule of reviews: those the
			// asker played, or played in this channel.
			if userID != ix.user().ID && !mayReview(ix.interaction, g) {
				continue
			}
			if g.Kind == k && len(ks.Recent) < recentGames {
				ks.Recent = append(ks.Recent, g)
			}
		}
		stats = append(stats, ks)
	}
	return ix.reply(render.Stats(ix.lang(), player, stats), true)
}
