package bot

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/egress"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// cmdGames handles /games: the user's open games with links, and buttons
// to post a board again.
func (b infoFlow) cmdGames(ctx context.Context, ix *command) error {
	open, err := b.store.ActiveGames(ctx, storage.User(ix.Caller().ID))
	if err != nil {
		return fmt.Errorf("bot: games of %s: %w", ix.Caller().ID, err)
	}
	if len(open) == 0 {
		return ix.Say("games.none")
	}
	l := ix.Lang()
	var lines []string
	var buttons []discordgo.MessageComponent
	for i, g := range open {
		if i == maxListedGames {
			lines = append(lines, l.T("games.more", "Count", len(open)-i))
			break
		}
		seat := seatOf(g, ix.Caller().ID)
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
		if g.Status == storage.StatusActive {
			buttons = append(buttons, discordgo.Button{
				Label: l.T("games.repost", "ID", g.ID), Style: discordgo.SecondaryButton, CustomID: customid.Repost.Build(string(g.ID)),
			})
		}
	}
	return ix.Reply(render.Message{
		Embeds:     []*discordgo.MessageEmbed{{Title: l.T("games.title"), Description: strings.Join(lines, "\n")}},
		Components: buttonRows(buttons),
	}, true)
}

// buttonRows lays buttons out five to a row.
func buttonRows(buttons []discordgo.MessageComponent) []discordgo.MessageComponent {
	var rows []discordgo.MessageComponent
	for len(buttons) > 0 {
		n := min(len(buttons), 5)
		rows = append(rows, discordgo.ActionsRow{Components: buttons[:n]})
		buttons = buttons[n:]
	}
	return rows
}

// clickRepost posts a fresh board of a game in its channel and retires
// the old one.
func (b infoFlow) clickRepost(ctx context.Context, ix *component, g *storage.Game) error {
	if seatOf(g, ix.Caller().ID) < 0 {
		return mux.Err("games.players_only")
	}
	if g.Status != storage.StatusActive {
		return mux.Err("error.game_over")
	}
	msg, err := b.boards.gameMessage(g, "")
	if err != nil {
		return err
	}
	// Answer before calling Discord: a rate-limited post can take longer
	// than the 3 seconds Discord waits for the answer.
	if err := ix.DeferUpdate(); err != nil {
		return err
	}
	old := *g
	if ix.InteractionOnly() {
		// Where the bot cannot post, the board follows up this click; the
		// old one cannot be reached, and a click on it is refused as out
		// of date.
		if err := b.boards.showNewBoard(ctx, ix.Interaction, g, msg); err != nil {
			return err
		}
		return ix.Edit(render.Message{Content: ix.Lang().T("games.posted", "ID", g.ID)})
	}
	if err := b.boards.postBoard(ctx, g, msg); err != nil {
		return err
	}
	if old.MessageID != "" {
		err := b.egress.EditChannelMessage(old.ChannelID, old.MessageID, render.Note(b.boards.boardLang(g).T("games.moved", "Link", boardLink(g))))
		if err != nil && egress.Code(err) != discordgo.ErrCodeUnknownMessage {
			b.log.Warn("retire old board", "game", g.ID, "err", err)
		}
	}
	return ix.Edit(render.Message{Content: ix.Lang().T("games.posted", "ID", g.ID)})
}

// boardLink is the address of a game's board message; a private channel
// (a DM, a group DM) is under @me.
func boardLink(g *storage.Game) string {
	return fmt.Sprintf("https://discord.com/channels/%s/%s/%s", cmp.Or(g.GuildID, "@me"), g.ChannelID, g.MessageID)
}

// maxListedGames is the most games /games lists.
const maxListedGames = 20

// routes declares /games and /privacy, and their components: Re-post, the
// confirmation of /privacy delete.
func (b infoFlow) routes(m *mux.Mux) {
	m.Command(&discordgo.ApplicationCommand{Name: "games", Description: "Your games in progress"}, b.cmdGames, nil)
	m.Command(&discordgo.ApplicationCommand{
		Name: "privacy", Description: "Your data in Gambit",
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "delete", Description: "Erase your data (asks to confirm)"},
		},
	}, b.cmdPrivacy, nil)
	mux.NewGroup(m, b.withGame).Component(customid.Repost, b.clickRepost)
	m.Component(customid.PrivacyDelete, b.clickPrivacyDelete)
}
