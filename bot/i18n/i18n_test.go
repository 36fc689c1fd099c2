package i18n_test

import (
	"github.com/gambitbot/gambit/internal/playerwords"
	"maps"
	"regexp"
	"slices"
	"testing"

	"github.com/gambitbot/gambit/bot/i18n"
)

// placeholder finds the names a template reads: {{.Game}}, {{if .Captured}}.
var placeholder = regexp.MustCompile(`\.([A-Z][A-Za-z]*)`)

// placeholders returns the sorted placeholder names of a message's forms.
func placeholders(forms map[string]string) []string {
	set := map[string]bool{}
	for _, text := range forms {
		for _, action := range regexp.MustCompile(`\{\{.*?\}\}`).FindAllString(text, -1) {
			for _, m := range placeholder.FindAllStringSubmatch(action, -1) {
				set[m[1]] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// TestEveryMessageInEveryLanguage checks that every language has every
// message and no other, with the same placeholders, and that a plural
// message takes Count.
func TestEveryMessageInEveryLanguage(t *testing.T) {
	en, err := i18n.Messages(i18n.English)
	if err != nil {
		t.Fatal(err)
	}
	if len(en) < 100 {
		t.Fatalf("the English catalogue has %d messages; the files did not load", len(en))
	}
	for _, loc := range i18n.Locales()[1:] {
		other, err := i18n.Messages(loc)
		if err != nil {
			t.Fatal(err)
		}
		for id, forms := range en {
			tr, ok := other[id]
			if !ok {
				t.Errorf("%s: message %s has no translation", loc, id)
				continue
			}
			if a, b := placeholders(forms), placeholders(tr); !slices.Equal(a, b) {
				t.Errorf("%s: message %s has placeholders %v, English %v", loc, id, b, a)
			}
			if len(forms) > 1 && !slices.Contains(placeholders(forms), "Count") {
				t.Errorf("message %s has plural forms but no {{.Count}}", id)
			}
		}
		for id := range other {
			if _, ok := en[id]; !ok {
				t.Errorf("%s: message %s is not in English", loc, id)
			}
		}
	}
}

// TestEveryMessageRenders fills every message of every language with a
// value for each placeholder: a template that does not run shows as its
// ID.
func TestEveryMessageRenders(t *testing.T) {
	for _, loc := range i18n.Locales() {
		msgs, err := i18n.Messages(loc)
		if err != nil {
			t.Fatal(err)
		}
		l := i18n.For(loc)
		for id, forms := range msgs {
			// Texts first, then numbers (a template may compare them).
			var texts, numbers []any
			for _, p := range placeholders(forms) {
				texts = append(texts, p, "x")
				numbers = append(numbers, p, 2)
			}
			if got := l.T(id, texts...); got == id || got == "" {
				if got = l.T(id, numbers...); got == id || got == "" {
					t.Errorf("%s: message %s renders as %q", loc, id, got)
				}
			}
		}
	}
}

// TestFor checks the choice of language: Discord's "id" is Indonesian,
// English variants and any language Gambit does not speak are English,
// and the first locale given that Gambit speaks wins.
func TestFor(t *testing.T) {
	for _, c := range []struct {
		locales []string
		want    string
	}{
		{[]string{"id"}, i18n.Indonesian},
		{[]string{"en-US"}, i18n.English},
		{[]string{"en-GB"}, i18n.English},
		{[]string{"pt-BR"}, i18n.English},
		{nil, i18n.English},
		{[]string{"", "id"}, i18n.Indonesian},
		{[]string{"not a locale", "id"}, i18n.Indonesian},
		{[]string{"en-US", "id"}, i18n.English},
	} {
		if got := i18n.For(c.locales...).Locale(); got != c.want {
			t.Errorf("For(%q) speaks %s, want %s", c.locales, got, c.want)
		}
	}
	if got := i18n.For("id").T("board.accept"); got != "Terima" {
		t.Errorf("Indonesian Accept = %q", got)
	}
	if got, want := i18n.For("id").T("unit.move", "Count", 1), "1 langkah"; got != want {
		t.Errorf("Indonesian 1 move = %q, want %q", got, want)
	}
	if got, want := i18n.For("en-US").T("unit.move", "Count", 1), "1 move"; got != want {
		t.Errorf("English 1 move = %q, want %q", got, want)
	}
	if got, want := i18n.For("en-US").T("unit.move", "Count", 3), "3 moves"; got != want {
		t.Errorf("English 3 moves = %q, want %q", got, want)
	}
	if got := i18n.For("id").T("no.such.message"); got != "no.such.message" {
		t.Errorf("a missing message shows as %q, want its ID", got)
	}
	if got := i18n.Translations("cmd.play.name"); got[i18n.Indonesian] != "main" || len(got) != 1 {
		t.Errorf("Translations(cmd.play.name) = %v", got)
	}
}

// TestCountWithoutPluralForms checks that a message without plural forms
// may still show a count: "… and 1 more."
func TestCountWithoutPluralForms(t *testing.T) {
	if got, want := i18n.For(i18n.English).T("games.more", "Count", 1), "… and 1 more."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// BenchmarkT measures a message with placeholders, and For, which every
// interaction calls.
func BenchmarkT(b *testing.B) {
	for _, loc := range i18n.Locales() {
		l := i18n.For(loc)
		b.Run(loc, func(b *testing.B) {
			for b.Loop() {
				l.T("board.challenge", "Challenged", "<@1>", "Challenger", "<@2>", "Game", "Connect Four")
			}
		})
	}
	b.Run("For", func(b *testing.B) {
		for b.Loop() {
			i18n.For("id")
		}
	})
}

// TestNoInternalWordsForPlayers reads every message of every language —
// the catalogue's and the games', the AIs' names and descriptions among
// them — and fails on a word from the developers' history or code: the
// history belongs in the docs, and a player reads the game in their words.
func TestNoInternalWordsForPlayers(t *testing.T) {
	for _, loc := range i18n.Locales() {
		msgs, err := i18n.Messages(loc)
		if err != nil {
			t.Fatal(err)
		}
		for id, forms := range msgs {
			for _, text := range forms {
				if w := playerwords.Leaks(text); len(w) > 0 {
					t.Errorf("%s: %s says %q, words players should not see: %q", loc, id, w, text)
				}
			}
		}
	}
}

// commandRef finds a command a message names, with the word after it:
// "/settings tournament-boards".
var commandRef = regexp.MustCompile(`(?:^|[\s(“"'` + "`" + `])/([a-z][a-z-]*)(?: ([a-z][a-z-]*))?`)

// TestIndonesianNamesTheCommandsItsClientsShow: an Indonesian client
// lists Gambit's commands and their options by their Indonesian names
// (/pengaturan papan-turnamen), so a message in Indonesian that sends a
// member to a command must name it so — "/settings tournament-boards" is
// a command the member cannot find in their list.
func TestIndonesianNamesTheCommandsItsClientsShow(t *testing.T) {
	msgs, err := i18n.Messages(i18n.Indonesian)
	if err != nil {
		t.Fatal(err)
	}
	name := func(id string) string { return msgs[id]["other"] }
	english := map[string]string{} // a command's English and Indonesian names to its English name
	for id := range msgs {
		if m := regexp.MustCompile(`^cmd\.([a-z-]+)\.name$`).FindStringSubmatch(id); m != nil {
			english[m[1]], english[name(id)] = m[1], m[1]
		}
	}
	if len(english) < 10 {
		t.Fatalf("found the Indonesian names of %d commands only: %v", len(english), english)
	}
	for id, forms := range msgs {
		if len(id) > 4 && id[:4] == "cmd." {
			continue
		}
		for _, text := range forms {
			for _, m := range commandRef.FindAllStringSubmatch(text, -1) {
				cmd, ok := english[m[1]]
				if !ok {
					continue
				}
				if want := name("cmd." + cmd + ".name"); m[1] != want {
					t.Errorf("%s names /%s, which an Indonesian client lists as /%s: %q", id, m[1], want, text)
				}
				if want := name("cmd." + cmd + "." + m[2] + ".name"); m[2] != "" && want != "" && m[2] != want {
					t.Errorf("%s names the option %s of /%s, which an Indonesian client lists as %s: %q", id, m[2], m[1], want, text)
				}
			}
		}
	}
}
