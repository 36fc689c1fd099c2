package bot

import (
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/storage"
)

// TestUserErrorsInTheReadersLanguage checks that a user error is put into
// words when it is shown, with its placeholders in the same language: an
// option by the name the reader's Discord shows, an AI by its translated
// name, a list with the language's "or".
func TestUserErrorsInTheReadersLanguage(t *testing.T) {
	err := userErr("error.whole_number", "Option", optionIn("turn-timeout")).(*userError)
	if got := err.text(i18n.For(i18n.Indonesian)); !strings.Contains(got, "Opsi batas-giliran") {
		t.Errorf("Indonesian: %q", got)
	}
	if got := err.text(i18n.For(i18n.English)); !strings.Contains(got, "Option turn-timeout") {
		t.Errorf("English: %q", got)
	}
	err = userErr("move.not_your_turn", "Player", nameIn(storage.Player{ID: storage.AI("minimax")})).(*userError)
	if got := err.text(i18n.For(i18n.Indonesian)); !strings.Contains(got, "Pemikir mendalam (sulit)") {
		t.Errorf("Indonesian AI name: %q", got)
	}
	err = userErr("error.unknown_game", "Game", quote("chess"), "Choices", duelNames()).(*userError)
	if got := err.text(i18n.For(i18n.Indonesian)); !strings.Contains(got, `"chess"`) || !strings.Contains(got, " atau ") {
		t.Errorf("Indonesian list: %q", got)
	}
	if got := err.Error(); !strings.Contains(got, " or ") {
		t.Errorf("Error() is not English: %q", got)
	}
}
