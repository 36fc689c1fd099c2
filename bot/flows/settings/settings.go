// Package settings is the flow of /settings, a server's settings (how
// long an AI thinks and a player may take, the games allowed, rated or
// casual, the board's form, the daily puzzle's channel, where
// tournaments post their boards), and /board, a player's own form of
// their boards.
package settings

import (
	"context"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/gamenames"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// Store is what the flow reads and changes in the store: the settings of
// servers and players.
type Store interface {
	GuildSettings(ctx context.Context, guildID string) (storage.GuildSettings, error)
	UpdateGuildSettings(ctx context.Context, guildID string, change func(*storage.GuildSettings) error) (storage.GuildSettings, error)
	UserSettings(ctx context.Context, userID string) (storage.UserSettings, error)
	PutUserSettings(ctx context.Context, userID string, s storage.UserSettings) error
}

// Forms is the bot's memory of board forms, told at once of a form saved
// here, so that this process's boards follow it without reading it again.
type Forms interface {
	UserChose(userID string, f storage.BoardForm)
	GuildChose(guildID string, f storage.BoardForm)
}

// Config is what the flow needs of the bot's settings and of its games
// option, which /settings shares with the code that reads it.
type Config struct {
	// MoveTime and TurnTimeout are the defaults a server's settings fall
	// back to; MaxMoveTime bounds the movetime option.
	MoveTime, TurnTimeout, MaxMoveTime time.Duration
	// ParseGames reads the games option: nil for all of them, or the
	// games it names; CompleteGames completes it as it is typed; MaxGames
	// is its max_length.
	ParseGames    func(text string) ([]storage.Kind, error)
	CompleteGames mux.AutocompleteHandler
	MaxGames      int
}

// Flow answers /settings and /board.
type Flow struct {
	store Store
	forms Forms
	cfg   Config
}

// New returns the flow over store, telling forms of the forms saved.
func New(store Store, forms Forms, cfg Config) *Flow {
	return &Flow{store: store, forms: forms, cfg: cfg}
}

// cmdSettings handles /settings: without options it shows the server's
// settings, with options it changes them. Only members with Manage Server
// may use it.
func (f *Flow) cmdSettings(ctx context.Context, ix *mux.Command) error {
	if ix.InteractionOnly() || ix.GuildID == "" {
		return mux.Err("settings.server_only")
	}
	if ix.Member == nil || ix.Member.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) == 0 {
		return mux.Err("settings.manage_only")
	}
	edits, err := f.edits(ix.Opts)
	if err != nil {
		return err
	}
	var s storage.GuildSettings
	if len(edits) == 0 {
		if s, err = f.store.GuildSettings(ctx, ix.GuildID); err != nil {
			return fmt.Errorf("settings: settings of guild %s: %w", ix.GuildID, err)
		}
	} else {
		// Only the fields the command names change, in one transaction:
		// another admin's change at the same moment holds too.
		s, err = f.store.UpdateGuildSettings(ctx, ix.GuildID, func(s *storage.GuildSettings) error {
			for _, edit := range edits {
				edit(s)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("settings: save settings of guild %s: %w", ix.GuildID, err)
		}
		f.forms.GuildChose(ix.GuildID, s.Board)
	}
	l := ix.Lang()
	title := l.T("settings.title")
	if len(edits) > 0 {
		title = l.T("settings.saved")
	}
	return ix.Reply(render.Message{Embeds: []*discordgo.MessageEmbed{{
		Title: title,
		Fields: []*discordgo.MessageEmbedField{
			{Name: l.T("settings.move_time"), Value: durationOr(l, s.MoveTime, f.cfg.MoveTime), Inline: true},
			{Name: l.T("settings.turn_timeout"), Value: durationOr(l, s.TurnTimeout, f.cfg.TurnTimeout), Inline: true},
			{Name: l.T("settings.allowed"), Value: allowedText(l, s.AllowedGames), Inline: true},
			{Name: l.T("settings.new_games"), Value: ratedText(l, s.Casual), Inline: true},
			{Name: l.T("settings.board"), Value: formOr(l, s.Board), Inline: true},
			{Name: l.T("settings.daily"), Value: dailyText(l, s.DailyChannel), Inline: true},
			{Name: l.T("tournament.thread.setting"), Value: tournamentBoardsText(l, s.TournamentBoards), Inline: true},
		},
	}}}, true)
}

// edits reads /settings' options, refusing a bad value before
// anything is saved, into the edits of the fields they name.
func (f *Flow) edits(opts mux.Options) ([]func(*storage.GuildSettings), error) {
	var edits []func(*storage.GuildSettings)
	if d, given, err := opts.Seconds("movetime", 100*time.Millisecond, f.cfg.MaxMoveTime); err != nil {
		return nil, err
	} else if given {
		edits = append(edits, func(s *storage.GuildSettings) { s.MoveTime = d })
	}
	if h, given, err := opts.Integer("turn-timeout"); err != nil {
		return nil, err
	} else if given {
		if h < 1 || h > 24*14 {
			return nil, mux.Err("settings.timeout_range")
		}
		edits = append(edits, func(s *storage.GuildSettings) { s.TurnTimeout = time.Duration(h) * time.Hour })
	}
	if opts.Has("board") {
		form := storage.BoardForm(opts.Str("board"))
		if !form.Valid() {
			return nil, mux.Err("board_form.unknown", "Form", mux.Quote(opts.Str("board")))
		}
		edits = append(edits, func(s *storage.GuildSettings) { s.Board = form })
	}
	if opts.Has("games") {
		kinds, err := f.cfg.ParseGames(opts.Str("games"))
		if err != nil {
			return nil, err
		}
		edits = append(edits, func(s *storage.GuildSettings) { s.AllowedGames = kinds })
	}
	if rated, given, err := opts.Flag("rated"); err != nil {
		return nil, err
	} else if given {
		edits = append(edits, func(s *storage.GuildSettings) { s.Casual = !rated })
	}
	if ch := opts.Str("daily-channel"); ch != "" {
		edits = append(edits, func(s *storage.GuildSettings) { s.DailyChannel = ch })
	}
	if on, given, err := opts.Flag("daily"); err != nil {
		return nil, err
	} else if given && !on {
		edits = append(edits, func(s *storage.GuildSettings) { s.DailyChannel = "" })
	}
	if opts.Has("tournament-boards") {
		b, err := tournamentBoards(opts.Str("tournament-boards"))
		if err != nil {
			return nil, err
		}
		edits = append(edits, func(s *storage.GuildSettings) { s.TournamentBoards = b })
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
	return gamenames.List(kinds)(l)
}

// Routes declares /board, a player's own board form, and /settings, a
// server's: only where Gambit is installed to the server, for members who
// may manage it.
func (f *Flow) Routes(m *mux.Mux) {
	m.Command(&discordgo.ApplicationCommand{
		Name: "board", Description: "How the boards of your games look: picture, emoji grid or both",
		Options: []*discordgo.ApplicationCommandOption{
			mux.ChoiceOption("form", "Your choice, over the server's (server: as the server says)", false, formChoices(true)),
		},
	}, f.cmdBoard, nil)
	m.Command(&discordgo.ApplicationCommand{
		Name: "settings", Description: "Gambit's settings for this server",
		Contexts:                 &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild},
		IntegrationTypes:         &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall},
		DefaultMemberPermissions: mux.Ptr(int64(discordgo.PermissionManageGuild)),
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionNumber, Name: "movetime", Description: "Default AI seconds per move",
				MinValue: mux.Ptr(0.1), MaxValue: f.cfg.MaxMoveTime.Seconds()},
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "turn-timeout", Description: "Hours a player may take per move before forfeiting",
				MinValue: mux.Ptr(1.0), MaxValue: 24 * 14},
			{Type: discordgo.ApplicationCommandOptionString, Name: "games", Description: "The games allowed: all, or a list like Connect Four, Othello",
				Autocomplete: true, MaxLength: f.cfg.MaxGames},
			{Type: discordgo.ApplicationCommandOptionBoolean, Name: "rated", Description: "Whether new games are rated unless their players choose"},
			mux.ChoiceOption("board", "How boards look, unless a player chose for themselves with /board", false, formChoices(false)),
			{Type: discordgo.ApplicationCommandOptionChannel, Name: "daily-channel", Description: "Post a daily puzzle in this channel, every day at 00:00 UTC",
				ChannelTypes: []discordgo.ChannelType{discordgo.ChannelTypeGuildText}},
			{Type: discordgo.ApplicationCommandOptionBoolean, Name: "daily", Description: "False stops the daily puzzle's posts"},
			mux.ChoiceOption("tournament-boards", "Where tournaments post each round's boards (default: a thread per round)", false, tournamentBoardsChoices()),
		},
	}, f.cmdSettings, f.cfg.CompleteGames)
}
