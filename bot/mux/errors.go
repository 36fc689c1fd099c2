package mux

import (
	"slices"
	"strconv"

	"github.com/gambitbot/gambit/bot/i18n"
)

// UserError is an error the user caused and can fix: its text is shown to
// them as it is, ephemerally. Its cause, if any, is what happened in our
// terms (storage.ErrConflict for a lost race), for the code between the
// handler and the reply.
type UserError struct {
	id    string // the message's ID in the catalogue
	pairs []any  // its placeholders, as for i18n.Localizer.T
	cause error
}

// Error returns the message in English, for logs and tests.
func (e *UserError) Error() string { return e.Text(i18n.Default) }

// Text returns the message in l's language. A placeholder's value of type
// Localized (a player's name, a game's title) is written in l's language
// too.
func (e *UserError) Text(l *i18n.Localizer) string {
	pairs := slices.Clone(e.pairs)
	for i, v := range pairs {
		if f, ok := v.(Localized); ok {
			pairs[i] = f(l)
		}
	}
	return l.T(e.id, pairs...)
}

// ID returns the message's ID in the catalogue.
func (e *UserError) ID() string { return e.id }

// Unwrap returns the cause of the user's error, if any.
func (e *UserError) Unwrap() error {
	return e.cause
}

// Localized is a text that depends on the language it is written in.
type Localized func(*i18n.Localizer) string

// Err returns the user's mistake: the catalogue's message id with its
// placeholders as name, value pairs, shown to the user in their language.
func Err(id string, pairs ...any) error {
	return &UserError{id: id, pairs: pairs}
}

// RaceErr is the user's answer (the catalogue's message id with its
// placeholders) to a change that lost a race with another (err:
// storage.ErrConflict or storage.ErrGameOver). It keeps err as its cause,
// so that the game seam can run the handler again on the game as it now
// is instead.
func RaceErr(err error, id string, pairs ...any) error {
	return &UserError{id: id, pairs: pairs, cause: err}
}

// maxEcho is the most characters of a user's text that an answer quotes.
const maxEcho = 40

// Echo returns text a user typed (an option, a custom ID) as an answer may
// quote it: at most maxEcho characters, cut with "…". Every user error
// that quotes input quotes Echo(input): options have a max_length, but
// only Discord's client enforces it, and a forged interaction can carry
// thousands of characters, which would push the answer past Discord's
// 2,000 and leave the user with none.
func Echo(text string) string {
	r := []rune(text)
	if len(r) <= maxEcho {
		return text
	}
	return string(r[:maxEcho-1]) + "…"
}

// Quote is Echo in double quotes, as %q writes it: typed text in a reply.
func Quote(text string) string { return strconv.Quote(Echo(text)) }
