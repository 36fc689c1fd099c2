package bot

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// formTTL is how long a process trusts a board form it read from the
// store: another process sharing the store may change it, and its boards
// follow within this time. The process that saves a form uses it at once.
const formTTL = time.Minute

// formLookup bounds the store reads of a board's form; a board whose form
// cannot be read in time is drawn in the default form.
const formLookup = 2 * time.Second

// boardForms remembers the board forms of guilds ("g:" and the id) and
// users ("u:" and the id) that the store gave, with when it gave them.
type boardForms struct {
	mu sync.Mutex
	m  map[string]cachedForm
}

type cachedForm struct {
	form storage.BoardForm
	at   time.Time
}

// set remembers a form just read or saved.
func (f *boardForms) set(key string, form storage.BoardForm, now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.m == nil {
		f.m = map[string]cachedForm{}
	}
	f.m[key] = cachedForm{form, now}
}

// get returns a remembered form younger than formTTL.
func (f *boardForms) get(key string, now time.Time) (storage.BoardForm, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.m[key]
	if !ok || now.Sub(c.at) >= formTTL {
		return "", false
	}
	return c.form, true
}

// formOf returns the form under key, read through read when it is not
// remembered; a failed read is logged and gives the default.
func (b boardFlow) formOf(key string, read func() (storage.BoardForm, error)) storage.BoardForm {
	now := b.now()
	if f, ok := b.forms.get(key, now); ok {
		return f
	}
	f, err := read()
	if err != nil {
		b.log.Warn("read a board form; the board is drawn in the default form", "key", key, "err", err)
		return storage.BoardDefault
	}
	b.forms.set(key, f, now)
	return f
}

// boardForm returns the form of g's board: the one its human players
// chose for themselves (/board) where they agree, both picture and grid
// where they differ, else its guild's (/settings board:), else the
// picture.
func (b boardFlow) boardForm(g *storage.Game) storage.BoardForm {
	ctx, cancel := context.WithTimeout(context.Background(), formLookup)
	defer cancel()
	chosen := storage.BoardDefault
	for _, p := range g.Players {
		id, ok := p.ID.UserID()
		if !ok || p.ID == storage.Anonymous {
			continue
		}
		f := b.formOf("u:"+id, func() (storage.BoardForm, error) {
			s, err := b.store.UserSettings(ctx, id)
			return s.Board, err
		})
		switch {
		case f == storage.BoardDefault:
		case chosen == storage.BoardDefault:
			chosen = f
		case chosen != f:
			chosen = storage.BoardBoth
		}
	}
	if chosen == storage.BoardDefault && g.GuildID != "" {
		chosen = b.formOf("g:"+g.GuildID, func() (storage.BoardForm, error) {
			s, err := b.store.GuildSettings(ctx, g.GuildID)
			return s.Board, err
		})
	}
	return chosen.Or(storage.BoardPicture)
}

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
func (b settingsFlow) cmdBoard(ctx context.Context, ix *command) error {
	user := ix.Caller().ID
	s, err := b.store.UserSettings(ctx, user)
	if err != nil {
		return fmt.Errorf("bot: settings of user %s: %w", user, err)
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
		if err := b.store.PutUserSettings(ctx, user, s); err != nil {
			return fmt.Errorf("bot: save settings of user %s: %w", user, err)
		}
		b.forms.set("u:"+user, s.Board, b.now())
		text = l.T("board_form.saved") + "\n"
	}
	if s.Board == storage.BoardDefault {
		text += l.T("board_form.server")
	} else {
		text += l.T("board_form.yours", "Form", formName(l, s.Board))
	}
	return ix.Reply(render.Message{Content: text + "\n" + l.T("board_form.how")}, true)
}
