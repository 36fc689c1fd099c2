// Package i18n is Gambit's message catalogue: every text the bot shows
// people, in English and Indonesian, and the choice of language for an
// interaction.
//
// The messages live in locales/<language>.toml, embedded in the binary,
// and a game's own texts (game.<name>.…) with its plug-in
// (games.Game.Texts), which this package loads for every game of the
// catalog; one message a line: an ID and its text, a text/template whose
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
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
)

//go:embed locales/*.toml
var own embed.FS

// Discord's locale codes of the languages Gambit speaks, English first.
const (
	English    = "en-US"
	Indonesian = "id"
)

// bundle holds every language's messages, languages their tags and files
// the message files they came from; loaded once, read-only after.
var bundle, languages, files = load()

// file is one parsed message file: the catalogue's own or a game's.
type file struct {
	// name names the file in errors: "locales/en.toml", "game
	// connect4's en.toml".
	name string
	// base is the file's name without its directory: "en.toml".
	base string
	*i18n.MessageFile
}

// unmarshal reads the message files' format.
var unmarshal = map[string]i18n.UnmarshalFunc{"toml": toml.Unmarshal}

// load reads the embedded message files and every catalog game's texts. A
// broken file is a build error of ours, so it panics: the tests load the
// bundle first thing.
func load() (*i18n.Bundle, []language.Tag, []file) {
	read, err := readFiles(catalog.All())
	if err != nil {
		panic(err.Error())
	}
	b := i18n.NewBundle(language.English)
	for _, f := range read {
		if err := b.AddMessages(f.Tag, f.Messages...); err != nil {
			panic(fmt.Sprintf("i18n: load %s: %v", f.name, err))
		}
	}
	return b, b.LanguageTags(), read
}

// readFiles parses the catalogue's own message files and the texts of
// each game (games.Game.Texts): one file for each of the catalogue's
// languages, holding only messages under game.<name>.. No message may be
// in two files of a language.
func readFiles(gs []*games.Game) ([]file, error) {
	names, err := fs.Glob(own, "locales/*.toml")
	if err != nil {
		return nil, fmt.Errorf("i18n: list message files: %w", err)
	}
	var out []file
	var langs []string
	for _, name := range names {
		f, err := parse(own, name, name)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
		langs = append(langs, f.base)
	}
	for _, g := range gs {
		texts, err := gameFiles(g.Name, g.Texts, langs)
		if err != nil {
			return nil, err
		}
		out = append(out, texts...)
	}
	seen := map[string]string{} // base and message ID: the file that has it
	for _, f := range out {
		for _, m := range f.Messages {
			key := f.base + " " + m.ID
			if other, ok := seen[key]; ok {
				return nil, fmt.Errorf("i18n: message %s is in both %s and %s", m.ID, other, f.name)
			}
			seen[key] = f.name
		}
	}
	return out, nil
}

// gameFiles parses game name's texts: a file for each of langs (file
// names such as "en.toml") and no other, each holding only messages under
// game.<name>..
func gameFiles(name string, texts fs.FS, langs []string) ([]file, error) {
	if texts == nil {
		return nil, fmt.Errorf("i18n: game %s has no texts (games.Game.Texts)", name)
	}
	prefix := "game." + name + "."
	var out []file
	for _, base := range langs {
		f, err := parse(texts, base, "game "+name+"'s "+base)
		if err != nil {
			return nil, err
		}
		for _, m := range f.Messages {
			if !strings.HasPrefix(m.ID, prefix) {
				return nil, fmt.Errorf("i18n: %s: message %s is not the game's: its texts are under %s", f.name, m.ID, prefix)
			}
		}
		out = append(out, f)
	}
	names, err := fs.Glob(texts, "*")
	if err != nil {
		return nil, fmt.Errorf("i18n: list game %s's texts: %w", name, err)
	}
	for _, n := range names {
		if !slices.Contains(langs, n) {
			return nil, fmt.Errorf("i18n: game %s's %s is no message file of a language the bot speaks (%s)", name, n, strings.Join(langs, ", "))
		}
	}
	return out, nil
}

// parse reads and parses the message file name of fsys, called label in
// errors.
func parse(fsys fs.FS, name, label string) (file, error) {
	raw, err := fs.ReadFile(fsys, name)
	if err != nil {
		return file{}, fmt.Errorf("i18n: read %s: %w", label, err)
	}
	f, err := i18n.ParseMessageFileBytes(raw, path.Base(name), unmarshal)
	if err != nil {
		return file{}, fmt.Errorf("i18n: parse %s: %w", label, err)
	}
	return file{name: label, base: path.Base(name), MessageFile: f}, nil
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

// Messages returns every message of a language by ID — the catalogue's
// own file and the games' texts —, each as its plural forms ("other", and
// "one" for a plural), for the catalogue's tests.
func Messages(locale string) (map[string]map[string]string, error) {
	base := strings.ToLower(strings.SplitN(locale, "-", 2)[0]) + ".toml"
	out := map[string]map[string]string{}
	for _, f := range files {
		if f.base != base {
			continue
		}
		for _, m := range f.Messages {
			forms := map[string]string{}
			for form, text := range map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other} {
				if text != "" {
					forms[form] = text
				}
			}
			out[m.ID] = forms
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("i18n: no messages in %s", base)
	}
	return out, nil
}
