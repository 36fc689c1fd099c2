package settings

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// formChoices are the choices of a board form option: the forms, and
// serverChoice, which gives the choice back to the server, if server.
func formChoices(server bool) []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, f := range storage.BoardForms {
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: string(f), Value: string(f)})
	}
	if server {
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: serverChoice, Value: serverChoice})
	}
	return out
}

// serverChoice is /board's choice that drops a player's own form.
const serverChoice = "server"

// formName names a form in l's language, "" the default one.
func formName(l *i18n.Localizer, f storage.BoardForm) string {
	return l.T("form." + string(f.Or(storage.BoardPicture)))
}

// cmdBoard handles /board: a player's own form of the boards of their
// games, anywhere, which wins over their servers'. Without an option it
// says which form they have.
func (f *Flow) cmdBoard(ctx context.Context, ix *mux.Command) error {
	user := ix.Caller().ID
	s, err := f.store.UserSettings(ctx, user)
	if err != nil {
		return fmt.Errorf("settings: settings of user %s: %w", user, err)
	}
	l := ix.Lang()
	text := ""
	if ix.Opts.Has("form") {
		s.Board = storage.BoardForm(ix.Opts.Str("form"))
		if s.Board == serverChoice {
			s.Board = storage.BoardDefault
		}
		if !s.Board.Valid() {
			return mux.Err("board_form.unknown", "Form", mux.Quote(ix.Opts.Str("form")))
		}
		if err := f.store.PutUserSettings(ctx, user, s); err != nil {
			return fmt.Errorf("settings: save settings of user %s: %w", user, err)
		}
		f.forms.UserChose(user, s.Board)
		text = l.T("board_form.saved") + "\n"
	}
	if s.Board == storage.BoardDefault {
		text += l.T("board_form.server")
	} else {
		text += l.T("board_form.yours", "Form", formName(l, s.Board))
	}
	return ix.Reply(render.Message{Content: text + "\n" + l.T("board_form.how")}, true)
}
