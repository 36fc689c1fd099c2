package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// cmdSettings handles /settings: without options it shows the server's
// settings, with options it changes them. Only members with Manage Server
// may use it.
func (b infoFlow) cmdSettings(ctx context.Context, ix *command) error {
	opts := ix.opts
	if ix.interactionOnly() || ix.GuildID == "" {
		return userErr("settings.server_only")
	}
	if ix.Member == nil || ix.Member.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) == 0 {
		return userErr("settings.manage_only")
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
			return userErr("settings.timeout_range")
		}
		s.TurnTimeout, changed = time.Duration(h)*time.Hour, true
	}
	if opts.has("board") {
		s.Board = storage.BoardForm(opts.str("board"))
		if !s.Board.Valid() {
			return userErr("board_form.unknown", "Form", quote(opts.str("board")))
		}
		changed = true
	}
	if opts.has("games") {
		kinds, err := parseKinds(opts.str("games"))
		if err != nil {
			return err
		}
		s.AllowedGames, changed = kinds, true
	}
	if rated, given, err := opts.flag("rated"); err != nil {
		return err
	} else if given {
		s.Casual, changed = !rated, true
	}
	if ch := opts.str("daily-channel"); ch != "" {
		s.DailyChannel, changed = ch, true
	}
	if on, given, err := opts.flag("daily"); err != nil {
		return err
	} else if given && !on {
		s.DailyChannel, changed = "", true
	}
	if changed {
		if err := b.store.PutGuildSettings(ctx, ix.GuildID, s); err != nil {
			return fmt.Errorf("bot: save settings of guild %s: %w", ix.GuildID, err)
		}
		b.forms.set("g:"+ix.GuildID, s.Board, b.now())
	}
	l := ix.lang()
	title := l.T("settings.title")
	if changed {
		title = l.T("settings.saved")
	}
	return ix.reply(render.Message{Embeds: []*discordgo.MessageEmbed{{
		Title: title,
		Fields: []*discordgo.MessageEmbedField{
			{Name: l.T("settings.move_time"), Value: durationOr(l, s.MoveTime, b.cfg.MoveTime), Inline: true},
			{Name: l.T("settings.turn_timeout"), Value: durationOr(l, s.TurnTimeout, b.cfg.TurnTimeout), Inline: true},
			{Name: l.T("settings.allowed"), Value: allowedText(l, s.AllowedGames), Inline: true},
			{Name: l.T("settings.new_games"), Value: ratedText(l, s.Casual), Inline: true},
			{Name: l.T("settings.board"), Value: formOr(l, s.Board), Inline: true},
			{Name: l.T("settings.daily"), Value: dailyText(l, s.DailyChannel), Inline: true},
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
			return nil, userErr("settings.unknown_game", "Game", quote(f), "Choices", duelNames())
		}
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	return kinds, nil
}

// durationOr shows a guild's duration setting, or the default it falls
// back to.
func durationOr(l *i18n.Localizer, d, def time.Duration) string {
	if d > 0 {
		return render.Duration(l, d)
	}
	return l.T("settings.default", "Value", render.Duration(l, def))
}

// ratedText shows whether a guild's new games are rated by default.
func ratedText(l *i18n.Localizer, casual bool) string {
	if casual {
		return l.T("settings.casual")
	}
	return l.T("settings.rated")
}

// formOr shows a guild's board form, or the default it falls back to.
func formOr(l *i18n.Localizer, f storage.BoardForm) string {
	if f == storage.BoardDefault {
		return l.T("settings.default", "Value", formName(l, f))
	}
	return formName(l, f)
}

// dailyText shows where a guild's daily puzzle is posted.
func dailyText(l *i18n.Localizer, channel string) string {
	if channel == "" {
		return l.T("settings.daily_off")
	}
	return l.T("settings.daily_in", "Channel", "<#"+channel+">")
}

// allowedText shows the games a guild allows.
func allowedText(l *i18n.Localizer, kinds []storage.Kind) string {
	if len(kinds) == 0 {
		return l.T("play.all_games")
	}
	return kindList(kinds)(l)
}
