package render

import (
	"testing"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/internal/buildinfo"
)

// TestHelpFooterNamesTheVersion checks that the /help overview's footer
// says which Gambit answers, in every language.
func TestHelpFooterNamesTheVersion(t *testing.T) {
	v := buildinfo.Read().Short()
	for lang, want := range map[string]string{
		i18n.English:    "Gambit " + v,
		i18n.Indonesian: "Gambit versi " + v,
	} {
		m := Overview(i18n.For(lang), nil)
		if f := m.Embeds[0].Footer; f == nil || f.Text != want {
			t.Errorf("the %s /help footer is %+v, want %q", lang, f, want)
		}
	}
}
