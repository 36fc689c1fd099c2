package bot

import (
	"context"
	"sync"
	"time"

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
	if f, ok := b.places.forms.get(key, now); ok {
		return f
	}
	f, err := read()
	if err != nil {
		b.log.Warn("read a board form; the board is drawn in the default form", "key", key, "err", err)
		return storage.BoardDefault
	}
	b.places.forms.set(key, f, now)
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

// chosenForms tells the memory of board forms of a form a player (/board)
// or a server (/settings) saved, for the settings flow.
type chosenForms struct {
	forms *boardForms
	now   func() time.Time
}

// UserChose remembers a player's own form.
func (c chosenForms) UserChose(userID string, f storage.BoardForm) {
	c.forms.set("u:"+userID, f, c.now())
}

// GuildChose remembers a server's form.
func (c chosenForms) GuildChose(guildID string, f storage.BoardForm) {
	c.forms.set("g:"+guildID, f, c.now())
}
