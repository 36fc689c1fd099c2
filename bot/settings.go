package bot

import (
	"context"
	"fmt"
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
	if ix.interactionOnly() || ix.GuildID == "" {
		return userErr("settings.server_only")
	}
	if ix.Member == nil || ix.Member.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) == 0 {
		return userErr("settings.manage_only")
	}
	edits, err := settingsEdits(ix.opts)
	if err != nil {
		return err
	}
	var s storage.GuildSettings
	if len(edits) == 0 {
		if s, err = b.store.GuildSettings(ctx, ix.GuildID); err != nil {
			return fmt.Errorf("bot: settings of guild %s: %w", ix.GuildID, err)
		}
	} else {
		// Only the fields the command names change, in one transaction:
		// another admin's change at the same moment holds too.
		s, err = b.store.UpdateGuildSettings(ctx, ix.GuildID, func(s *storage.GuildSettings) error {
			for _, edit := range edits {
				edit(s)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("bot: save settings of guild %s: %w", ix.GuildID, err)
		}
		b.forms.set("g:"+ix.GuildID, s.Board, b.now())
	}
	l := ix.lang()
	title := l.T("settings.title")
	if len(edits) > 0 {
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

// settingsEdits reads /settings' options, refusing a bad value before
// anything is saved, into the edits of the fields they name.
func settingsEdits(opts options) ([]func(*storage.GuildSettings), error) {
	var edits []func(*storage.GuildSettings)
	if d, given, err := opts.seconds("movetime", 100*time.Millisecond, MaxMoveTime); err != nil {
		return nil, err
	} else if given {
		edits = append(edits, func(s *storage.GuildSettings) { s.MoveTime = d })
	}
	if h, given, err := opts.integer("turn-timeout"); err != nil {
		return nil, err
	} else if given {
		if h < 1 || h > 24*14 {
			return nil, userErr("settings.timeout_range")
		}
		edits = append(edits, func(s *storage.GuildSettings) { s.TurnTimeout = time.Duration(h) * time.Hour })
	}
	if opts.has("board") {
		form := storage.BoardForm(opts.str("board"))
		if !form.Valid() {
			return nil, userErr("board_form.unknown", "Form", quote(opts.str("board")))
		}
		edits = append(edits, func(s *storage.GuildSettings) { s.Board = form })
	}
	if opts.has("games") {
		kinds, err := parseKinds(opts.str("games"))
		if err != nil {
			return nil, err
		}
		edits = append(edits, func(s *storage.GuildSettings) { s.AllowedGames = kinds })
	}
	if rated, given, err := opts.flag("rated"); err != nil {
		return nil, err
	} else if given {
		edits = append(edits, func(s *storage.GuildSettings) { s.Casual = !rated })
	}
	if ch := opts.str("daily-channel"); ch != "" {
		edits = append(edits, func(s *storage.GuildSettings) { s.DailyChannel = ch })
	}
	if on, given, err := opts.flag("daily"); err != nil {
		return nil, err
	} else if given && !on {
		edits = append(edits, func(s *storage.GuildSettings) { s.DailyChannel = "" })
	}
	return edits, nil
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
