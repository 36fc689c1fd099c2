package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
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
func (b *Bot) cmdLeaderboard(ctx context.Context, ix *interaction, opts options) error {
	kind, err := opts.kind("game")
	if err != nil {
		return err
	}
	scope := opts.str("scope")
	ladder := storage.Ladder{Kind: kind, Guild: ix.GuildID}
	switch scope {
	case "", "server":
		scope = "server"
	case "global":
		ladder = storage.Global(kind)
	default:
		return userErrorf("Option scope must be server or global.")
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
	return ix.reply(render.Leaderboard(kind, scope, top, me), false)
}

// cmdStats handles /stats [user].
func (b *Bot) cmdStats(ctx context.Context, ix *interaction, opts options) error {
	userID := ix.user().ID
	if id, _ := opts.user("user", ix.ApplicationCommandData().Resolved); id != "" {
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
			if g.Kind == k && len(ks.Recent) < recentGames {
				ks.Recent = append(ks.Recent, g)
			}
		}
		stats = append(stats, ks)
	}
	return ix.reply(render.Stats(player, stats), true)
}

// cmdGames handles /games: the user's open games with links, and buttons
// to post a board again.
func (b *Bot) cmdGames(ctx context.Context, ix *interaction, _ options) error {
	open, err := b.store.ActiveGames(ctx, storage.User(ix.user().ID))
	if err != nil {
		return fmt.Errorf("bot: games of %s: %w", ix.user().ID, err)
	}
	if len(open) == 0 {
		return ix.say("You have no games in progress. Start one with /play.")
	}
	var lines []string
	var buttons []discordgo.MessageComponent
	for i, g := range open {
		if i == maxListedGames {
			lines = append(lines, fmt.Sprintf("… and %d more.", len(open)-i))
			break
		}
		seat := seatOf(g, ix.user().ID)
		state := "waiting for an answer"
		switch {
		case g.Status == storage.StatusActive && g.Turn == seat:
			state = "**your move**"
		case g.Status == storage.StatusActive:
			state = "their move"
		}
		link := "no board"
		if g.MessageID != "" {
			link = fmt.Sprintf("[board](https://discord.com/channels/%s/%s/%s)", g.GuildID, g.ChannelID, g.MessageID)
		}
		lines = append(lines, fmt.Sprintf("`%s` %s vs %s — %s — %s", g.ID, g.Kind, render.PlayerName(g.Players[1-seat]), state, link))
		if g.Status == storage.StatusActive {
			buttons = append(buttons, discordgo.Button{
				Label: "Re-post " + string(g.ID), Style: discordgo.SecondaryButton, CustomID: customid.Repost.Build(string(g.ID)),
			})
		}
	}
	return ix.reply(render.Message{
		Embeds:     []*discordgo.MessageEmbed{{Title: "Your games", Description: strings.Join(lines, "\n")}},
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
func (b *Bot) clickRepost(ctx context.Context, ix *interaction, p customid.Params) error {
	defer b.locks.lock(storage.GameID(p["game"]))()
	g, err := b.loadGame(ctx, p["game"])
	if err != nil {
		return err
	}
	if seatOf(g, ix.user().ID) < 0 {
		return userErrorf("Only the players can re-post this board.")
	}
	if g.Status != storage.StatusActive {
		return userErrorf("This game is over.")
	}
	msg, err := gameMessage(g, "")
	if err != nil {
		return err
	}
	// Answer before calling Discord: a rate-limited post can take longer
	// than the 3 seconds Discord waits for the answer.
	if err := ix.deferUpdate(); err != nil {
		return err
	}
	old := *g
	if err := b.postBoard(ctx, g, msg); err != nil {
		return err
	}
	if old.MessageID != "" {
		link := fmt.Sprintf("https://discord.com/channels/%s/%s/%s", g.GuildID, g.ChannelID, g.MessageID)
		moved := render.Message{Content: "This board moved: " + link}
		content, embeds, comps := moved.Content, []*discordgo.MessageEmbed{}, []discordgo.MessageComponent{}
		_, err := b.session.ChannelMessageEditComplex(&discordgo.MessageEdit{
			ID: old.MessageID, Channel: old.ChannelID, Content: &content, Embeds: &embeds, Components: &comps,
			AllowedMentions: allowedMentions(moved),
		})
		b.observeREST(err)
		if err != nil && restCode(err) != 10008 {
			b.log.Warn("retire old board", "game", g.ID, "err", err)
		}
	}
	return ix.edit(render.Message{Content: "Board of " + string(g.ID) + " posted again."})
}

// cmdHelp handles /help [game].
func (b *Bot) cmdHelp(_ context.Context, ix *interaction, opts options) error {
	msg, err := render.Rules(opts.str("game"))
	if err != nil {
		return userErrorf("Unknown game %q: choose adjacency, connect4 or tictactoe.", echo(opts.str("game")))
	}
	return ix.reply(msg, true)
}

// cmdPrivacy handles /privacy delete: it asks to confirm first.
func (b *Bot) cmdPrivacy(_ context.Context, ix *interaction, opts options) error {
	if opts.sub != "delete" {
		return userErrorf("Use /privacy delete to erase your data.")
	}
	return ix.reply(render.Message{
		Content: "This erases your ratings and cancels your open games and challenges. " +
			"Your finished games stay, with your name replaced by \"deleted user\". It cannot be undone.",
		Components: buttonRows([]discordgo.MessageComponent{discordgo.Button{
			Label: "Erase my data", Style: discordgo.DangerButton, CustomID: customid.PrivacyDelete.Build(ix.user().ID),
		}}),
	}, true)
}

// clickPrivacyDelete erases the clicking user's data, answers, and only
// then retires the boards of the games it cancelled: editing them may be
// rate limited past the 3 seconds Discord waits for the answer.
func (b *Bot) clickPrivacyDelete(ctx context.Context, ix *interaction, p customid.Params) error {
	if p["user"] != ix.user().ID {
		return userErrorf("This button erases someone else's data; use /privacy delete for yours.")
	}
	rep, err := b.store.DeleteUser(ctx, ix.user().ID)
	if err != nil {
		return fmt.Errorf("bot: delete user data: %w", err)
	}
	answered := ix.update(render.Message{Content: fmt.Sprintf(
		"Your data was erased: %d open game(s) cancelled, %d rating(s) removed, %d finished game(s) anonymised.",
		len(rep.Removed), rep.Ratings, rep.Anonymised)})
	for _, g := range rep.Removed {
		if g.MessageID == "" {
			continue
		}
		notice := render.Message{Content: fmt.Sprintf("Game %s was cancelled: a player deleted their data.", g.ID)}
		content, embeds, comps := notice.Content, []*discordgo.MessageEmbed{}, []discordgo.MessageComponent{}
		_, err := b.session.ChannelMessageEditComplex(&discordgo.MessageEdit{
			ID: g.MessageID, Channel: g.ChannelID, Content: &content, Embeds: &embeds, Components: &comps,
			AllowedMentions: allowedMentions(notice),
		})
		b.observeREST(err)
		if err != nil {
			b.log.Warn("update board of a cancelled game", "game", g.ID, "err", err)
		}
	}
	return answered
}

// cmdSettings handles /settings: without options it shows the server's
// settings, with options it changes them. Only members with Manage Server
// may use it.
func (b *Bot) cmdSettings(ctx context.Context, ix *interaction, opts options) error {
	if ix.Member == nil || ix.Member.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) == 0 {
		return userErrorf("Only members with the Manage Server permission can change Gambit's settings.")
	}
	s, err := b.store.GuildSettings(ctx, ix.GuildID)
	if err != nil {
		return fmt.Errorf("bot: settings of guild %s: %w", ix.GuildID, err)
	}
	changed := false
	if d, given, err := opts.seconds("movetime", 100*time.Millisecond, MaxMoveTime); err != nil {
		return err
	} else if given {
		s.MoveTime, changed = d, true
	}
	if h, given, err := opts.integer("turn-timeout"); err != nil {
		return err
	} else if given {
		if h < 1 || h > 24*14 {
			return userErrorf("Option turn-timeout must be between 1 and 336 hours.")
		}
		s.TurnTimeout, changed = time.Duration(h)*time.Hour, true
	}
	if opts.has("games") {
		kinds, err := parseKinds(opts.str("games"))
		if err != nil {
			return err
		}
		s.AllowedGames, changed = kinds, true
	}
	if changed {
		if err := b.store.PutGuildSettings(ctx, ix.GuildID, s); err != nil {
			return fmt.Errorf("bot: save settings of guild %s: %w", ix.GuildID, err)
		}
	}
	title := "Gambit's settings here"
	if changed {
		title = "Settings saved"
	}
	return ix.reply(render.Message{Embeds: []*discordgo.MessageEmbed{{
		Title: title,
		Fields: []*discordgo.MessageEmbedField{
			{Name: "AI move time", Value: durationOr(s.MoveTime, b.cfg.MoveTime), Inline: true},
			{Name: "Turn timeout", Value: durationOr(s.TurnTimeout, b.cfg.TurnTimeout), Inline: true},
			{Name: "Allowed games", Value: allowedText(s.AllowedGames), Inline: true},
		},
	}}}, true)
}

// parseKinds reads "all" or a comma-separated list of game names.
func parseKinds(text string) ([]storage.Kind, error) {
	if strings.EqualFold(strings.TrimSpace(text), "all") || strings.TrimSpace(text) == "" {
		return nil, nil
	}
	var kinds []storage.Kind
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' }) {
		k := storage.Kind(strings.ToLower(f))
		if !isDuel(k) {
			return nil, userErrorf("Unknown game %q in games: use all, or names from %s.", echo(f), duelNames())
		}
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	return kinds, nil
}

func durationOr(d, def time.Duration) string {
	if d > 0 {
		return d.String()
	}
	return def.String() + " (default)"
}

func allowedText(kinds []storage.Kind) string {
	if len(kinds) == 0 {
		return "all"
	}
	return kindList(kinds)
}
