package render

import (
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/storage"
)

// maxThreadName is the longest name Discord takes for a thread.
const maxThreadName = 100

// TournamentThreadName is the name of the thread of round r of t: its
// title and the round's number, or for an Arena, whose waves share one
// thread, its title and "games". A long title is clipped so that the
// round's number stays.
func TournamentThreadName(l *i18n.Localizer, t *storage.Tournament, r storage.Round) string {
	key := "tournament.thread.name"
	if t.Format == storage.FormatArena {
		key = "tournament.thread.arena"
	}
	rest := textLen(l.T(key, "Name", "", "Number", r.Number))
	return l.T(key, "Name", clip(TournamentTitle(l, t), maxThreadName-rest), "Number", r.Number)
}
