// Package i18n is Gambit's message catalogue: every text the bot shows
// people, in English and Indonesian, and the choice of language for an
// interaction.
//
// The messages live in locales/<language>.toml, embedded in the binary,
// one message a line: an ID and its text, a text/template whose
// placeholders are named ({{.Game}}). A message that depends on a number
// has a plural table (one/other) and takes the number as Count. Adding a
// message is a line in each file; TestEveryMessageInEveryLanguage fails
// until both have it with the same placeholders.
//
// The bot asks for a Localizer by Discord locale (For) and calls T:
//
//	l := i18n.For(ix.Locale)
//	l.T("move.not_your_turn", "Player", name)
//
// English is the fallback for any locale Gambit does not speak.
package i18n

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

//go:embed locales/*.toml
var files embed.FS

// Discord's locale codes of the languages Gambit speaks, English first.
const (
	English    = "en-US"
	Indonesian = "id"
)

// bundle holds every language's messages; loaded once, read-only after.
var bundle, languages = load()

// load reads the embedded message files. A broken file is a build error
// of ours, so it panics: the tests load the bundle first thing.
func load() (*i18n.Bundle, []language.Tag) {
	b := i18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	names, err := fs.Glob(files, "locales/*.toml")
	if err != nil {
		panic(fmt.Sprintf("i18n: list message files: %v", err))
	}
	for _, name := range names {
		if _, err := b.LoadMessageFileFS(files, name); err != nil {
			panic(fmt.Sprintf("i18n: load %s: %v", path.Base(name), err))
		}
	}
	return b, b.LanguageTags()
}

// Localizer gives the messages of one language.
type Localizer struct {
	loc  *i18n.Localizer
	lang language.Tag
}

// For returns the localizer of the first of the Discord locales (such as
// "id", "en-US") that Gambit speaks, skipping empty ones; English if none.
func For(locales ...string) *Localizer {
	var tags []language.Tag
	for _, l := range locales {
		if t, err := language.Parse(l); err == nil && l != "" {
			tags = append(tags, t)
		}
	}
	if _, i, conf := matcher.Match(tags...); conf != language.No {
		return localizers[i]
	}
	return localizers[0] // English, the bundle's first language
}

// matcher matches Discord's locales to the catalogue's languages, and
// localizers are the languages' localizers, in the same order.
var matcher, localizers = func() (language.Matcher, []*Localizer) {
	var ls []*Localizer
	for _, t := range languages {
		ls = append(ls, &Localizer{loc: i18n.NewLocalizer(bundle, t.String()), lang: t})
	}
	return language.NewMatcher(languages), ls
}()

// Default is the English localizer, for texts addressed to nobody in
// particular (logs aside, which are never translated).
var Default = For(English)

// Locale returns the Discord locale code of the localizer's language:
// "en-US" or "id".
func (l *Localizer) Locale() string {
	base, _ := l.lang.Base()
	if base.String() == "en" {
		return English
	}
	return base.String()
}

// T returns the message id filled with its placeholders, given as name,
// value pairs ("Game", "Connect Four"). A Count pair also picks the
// plural form. A message missing in the language falls back to English;
// one missing altogether (a bug the tests catch) shows as its ID.
func (l *Localizer) T(id string, pairs ...any) string {
	data := make(map[string]any, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		data[fmt.Sprint(pairs[i])] = pairs[i+1]
	}
	cfg := &i18n.LocalizeConfig{MessageID: id, TemplateData: data}
	if n, ok := data["Count"]; ok {
		cfg.PluralCount = n
	}
	s, err := l.loc.Localize(cfg)
	if err != nil && cfg.PluralCount != nil {
		// Count is only a placeholder of a message without plural forms.
		cfg.PluralCount = nil
		s, err = l.loc.Localize(cfg)
	}
	if err != nil && s == "" {
		return id
	}
	return s
}

// Has reports whether the catalogue has the message id, in any language:
// for IDs made from a name (a game's, a strategy's) that a newer plug-in
// may lack.
func Has(id string) bool {
	_, err := Default.loc.Localize(&i18n.LocalizeConfig{MessageID: id, PluralCount: 2})
	return err == nil
}

// Translations returns the message id in every language other than
// English, by Discord locale: the name_localizations and
// description_localizations of a command.
func Translations(id string) map[string]string {
	out := map[string]string{}
	for _, t := range languages {
		l := For(t.String())
		if l.Locale() == English {
			continue
		}
		out[l.Locale()] = l.T(id)
	}
	return out
}

// Locales returns the Discord locale codes of the languages Gambit speaks,
// English first.
func Locales() []string {
	out := []string{English}
	for _, t := range languages {
		if l := For(t.String()).Locale(); l != English {
			out = append(out, l)
		}
	}
	sort.Strings(out[1:])
	return out
}

// Messages returns every message of a language's file by ID, each as its
// plural forms ("other", and "one" for a plural), for the catalogue's
// tests.
func Messages(locale string) (map[string]map[string]string, error) {
	name := "locales/" + strings.ToLower(strings.SplitN(locale, "-", 2)[0]) + ".toml"
	raw, err := files.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("i18n: read %s: %w", name, err)
	}
	f, err := i18n.ParseMessageFileBytes(raw, name, map[string]i18n.UnmarshalFunc{"toml": toml.Unmarshal})
	if err != nil {
		return nil, fmt.Errorf("i18n: parse %s: %w", name, err)
	}
	out := map[string]map[string]string{}
	for _, m := range f.Messages {
		forms := map[string]string{}
		for form, text := range map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other} {
			if text != "" {
				forms[form] = text
			}
		}
		out[m.ID] = forms
	}
	return out, nil
}
