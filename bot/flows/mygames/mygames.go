// Package mygames is the flow of /games, a member's games in progress
// with links to their boards, and its Re-post button, which posts a
// game's board again at the bottom of its channel.
package mygames

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// Store is what the flow reads of the store: a member's open games.
type Store interface {
	ActiveGames(ctx context.Context, p storage.PlayerID) ([]*storage.Game, error)
}

// Boards shows games' boards: the bot's board code, which knows where
// and how a board can be reached.
type Boards interface {
	// Message renders g's board as it stands.
	Message(g *storage.Game) (render.Message, error)
	// ShowNew shows msg as g's new board through ix, where the bot reaches
	// the channel only through interactions or the board is its player's
	// alone (ephemeral, then), and saves its message ID.
	ShowNew(ctx context.Context, ix *mux.Interaction, g *storage.Game, msg render.Message) error
	// Post posts msg as g's new board in its channel and saves its ID.
	Post(ctx context.Context, g *storage.Game, msg render.Message) error
	// Moved turns old, g's board before it was posted again, into a note
	// that links to the new one. A failure is logged, not returned: the
	// new board is up.
	Moved(ctx context.Context, old, g *storage.Game, link string)
}

// maxListed is the most games /games lists.
const maxListed = 20

// Flow answers /games and Re-post.
type Flow struct {
	store  Store
	boards Boards
	games  play.GameRoutes
}

// New returns the flow over store and boards, its Re-post running in
// games.
func New(store Store, boards Boards, games play.GameRoutes) *Flow {
	return &Flow{store: store, boards: boards, games: games}
}

// Routes declares /games and its Re-post button, a route of one game.
func (f *Flow) Routes(m *mux.Mux) {
	m.Command(&discordgo.ApplicationCommand{Name: "games", Description: "Your games in progress"}, f.cmdGames, nil)
	mux.NewGroup(m, f.games).Component(customid.Repost, f.clickRepost)
}

// cmdGames handles /games: the member's open games with links, and
// buttons to post a board again.
func (f *Flow) cmdGames(ctx context.Context, ix *mux.Command) error {
	me := ix.Caller().ID
	open, err := f.store.ActiveGames(ctx, storage.User(me))
	if err != nil {
		return fmt.Errorf("mygames: games of %s: %w", me, err)
	}
	if len(open) == 0 {
		return ix.Say("games.none")
	}
	l := ix.Lang()
	var lines []string
	for i, g := range open {
		if i == maxListed {
			lines = append(lines, l.T("games.more", "Count", len(open)-i))
			break
		}
		seat := g.Seat(storage.User(me))
		state := l.T("games.waiting")
		switch {
		case g.Status == storage.StatusActive && g.Turn == seat:
			state = l.T("games.your_move")
		case g.Status == storage.StatusActive:
			state = l.T("games.their_move")
		}
		link := l.T("games.no_board")
		if g.MessageID != "" {
			link = "[" + l.T("games.board") + "](" + boardLink(g) + ")"
		}
		lines = append(lines, fmt.Sprintf("`%s` %s %s — %s — %s", g.ID, render.Title(l, g.Kind), render.Against(l, g, seat), state, link))
	}
	return ix.Reply(render.Message{
		Embeds:     []*discordgo.MessageEmbed{{Title: l.T("games.title"), Description: strings.Join(lines, "\n")}},
		Components: render.RepostButtons(l, open[:min(len(open), maxListed)]),
	}, true)
}

// clickRepost posts a fresh board of a game in its channel and retires
// the old one.
func (f *Flow) clickRepost(ctx context.Context, ix *mux.Component, g *storage.Game) error {
	if g.Seat(storage.User(ix.Caller().ID)) < 0 {
		return mux.Err("games.players_only")
	}
	if g.Status != storage.StatusActive {
		return mux.Err("error.game_over")
	}
	msg, err := f.boards.Message(g)
	if err != nil {
		return err
	}
	// Answer before calling Discord: a rate-limited post can take longer
	// than the 3 seconds Discord waits for the answer.
	if err := ix.DeferUpdate(); err != nil {
		return err
	}
	old := *g
	if ix.InteractionOnly() || g.Settings.Daily != "" {
		// Where the bot cannot post, and for a board only its player may
		// see (an attempt at the daily puzzle), the board follows up this
		// click; the old one cannot be reached, and a click on it is
		// refused as out of date.
		if err := f.boards.ShowNew(ctx, ix.Interaction, g, msg); err != nil {
			return err
		}
		return ix.Edit(render.Message{Content: ix.Lang().T("games.posted", "ID", g.ID)})
	}
	if err := f.boards.Post(ctx, g, msg); err != nil {
		return err
	}
	if old.MessageID != "" {
		f.boards.Moved(ctx, &old, g, boardLink(g))
	}
	return ix.Edit(render.Message{Content: ix.Lang().T("games.posted", "ID", g.ID)})
}

// boardLink is the address of a game's board message; a private channel
// (a DM, a group DM) is under @me.
func boardLink(g *storage.Game) string {
	return fmt.Sprintf("https://discord.com/channels/%s/%s/%s", cmp.Or(g.GuildID, "@me"), g.ChannelID, g.MessageID)
}
