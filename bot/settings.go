package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// cmdSettings handles /settings: without options it shows the server's
// settings, with options it changes them. Only members with Manage Server
// may use it.
func (b *Bot) cmdSettings(ctx context.Context, ix *interaction, opts options) error {
	if ix.interactionOnly() || ix.GuildID == "" {
		return userErrorf("/settings changes Gambit's settings for a server: use it in a server that added Gambit.")
	}
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

// durationOr shows a guild's duration setting, or the default it falls
// back to.
func durationOr(d, def time.Duration) string {
	if d > 0 {
		return render.Duration(d)
	}
	return render.Duration(def) + " (default)"
}

func allowedText(kinds []storage.Kind) string {
	if len(kinds) == 0 {
		return "all"
	}
	return kindList(kinds)
}
