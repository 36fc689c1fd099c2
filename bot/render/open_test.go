package render

import (
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/storage"
)

// TestOpenChallenge: an open challenge names no opponent and pings
// nobody, says anyone but the challenger may accept, and offers Accept
// (a take) and Withdraw, in English and Indonesian.
func TestOpenChallenge(t *testing.T) {
	for _, tc := range []struct {
		lang *i18n.Localizer
		want []string
	}{
		{i18n.Default, []string{"<@1> challenges anyone here to **Tic-Tac-Toe**", "**Opponent** whoever accepts first", "the first to press Accept plays", "Accept", "Withdraw"}},
		{i18n.For(i18n.Indonesian), []string{"<@1> menantang siapa saja di sini bermain **Tic-Tac-Toe**", "**Lawan** siapa pun yang pertama menerima", "yang pertama menekan Terima yang bermain", "Terima", "Tarik kembali"}},
	} {
		g := newGame(storage.Kind("tictactoe"), storage.StatusPending, storage.Player{ID: storage.User("1")}, storage.Player{ID: storage.Anyone})
		g.Deadline = time.Now().Add(time.Minute)
		m := Game(View{Game: g, Lang: tc.lang})
		checkDiscord(t, m)
		ids := checkIDs(t, g, m)
		if len(ids[customid.Take]) != 1 || len(ids[customid.Decline]) != 1 || len(ids[customid.Accept]) != 0 {
			t.Errorf("%s: components %v, want one take and one withdraw", tc.lang.Locale(), ids)
		}
		if len(m.AllowedMentions.Users) != 0 {
			t.Errorf("%s: an open challenge pings %v", tc.lang.Locale(), m.AllowedMentions.Users)
		}
		text := content(m) + description(t, m)
		buttons, _, _ := flatten(t, m)
		for _, b := range buttons {
			text += " " + b.Label
		}
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: %q missing from %q", tc.lang.Locale(), w, text)
			}
		}
	}
}
