package render

import (
	"regexp"
	"testing"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/internal/buildinfo"
)

// TestHelpFooterNamesTheVersion checks that the /help overview's footer
// says which Gambit answers, in every language, in a player's words: a
// build without a release version reads "development build" with its
// commit, never the toolchain's "devel"; a release reads its version.
func TestHelpFooterNamesTheVersion(t *testing.T) {
	for _, lang := range []string{i18n.English, i18n.Indonesian} {
		l := i18n.For(lang)
		m := Overview(l, nil)
		if f := m.Embeds[0].Footer; f == nil || f.Text != versionLine(l, buildinfo.Read()) || regexp.MustCompile(`\bdevel\b`).MatchString(f.Text) {
			t.Errorf("the %s /help footer is %+v, want %q", lang, f, versionLine(l, buildinfo.Read()))
		}
	}
	for _, tc := range []struct {
		info   buildinfo.Info
		en, id string
	}{
		{buildinfo.Info{Version: buildinfo.Unreleased, Commit: "e64b12e71c0c"}, "Gambit, development build e64b12e", "Gambit, versi pengembangan e64b12e"},
		{buildinfo.Info{Version: buildinfo.Unreleased}, "Gambit, development build", "Gambit, versi pengembangan"},
		{buildinfo.Info{Version: "v0.3.0", Commit: "e64b12e71c0c"}, "Gambit v0.3.0 (e64b12e)", "Gambit versi v0.3.0 (e64b12e)"},
	} {
		if got := versionLine(i18n.For(i18n.English), tc.info); got != tc.en {
			t.Errorf("versionLine(en, %+v) = %q, want %q", tc.info, got, tc.en)
		}
		if got := versionLine(i18n.For(i18n.Indonesian), tc.info); got != tc.id {
			t.Errorf("versionLine(id, %+v) = %q, want %q", tc.info, got, tc.id)
		}
	}
}
