package playground_test

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/i18n"
)

// localeState is GET /api/state's languages: the locales offered, the
// server's and each member's.
type localeState struct {
	Locales []string
	Guild   struct{ ID, Locale string }
	Members []struct{ ID, Name, Locale string }
}

// locales returns the state's locale of each member by name, and the
// server's under "server".
func (s localeState) locales() map[string]string {
	out := map[string]string{"server": s.Guild.Locale}
	for _, m := range s.Members {
		out[m.Name] = m.Locale
	}
	return out
}

// lastText runs a slash command as a member and returns the text of the
// last message the member then sees: the bot's answer, which the
// playground waits for before it answers.
func lastText(t *testing.T, url, member, name string, options ...map[string]any) string {
	t.Helper()
	slash(t, url, member, name, options...)
	var seen []message
	api(t, "GET", url+"api/messages?member="+member, nil, &seen)
	if len(seen) == 0 {
		t.Fatalf("/%s: the member sees no message", name)
	}
	return seen[len(seen)-1].text()
}

// overview is the title of /help in a locale, from the bot's catalogue.
func overview(locale string) string { return i18n.For(locale).T("help.overview_title") }

// aroundPlayer is the longest part of a catalogue message given a
// Player, in a locale, that is not the player's name: "**Challenger** "
// of board.challenger.
func aroundPlayer(locale, id string) string {
	before, after, _ := strings.Cut(i18n.For(locale).T(id, "Player", "\x00"), "\x00")
	if len(after) > len(before) {
		return after
	}
	return before
}

// TestChoosingALanguage sets a member's and the server's locale through
// the API: the member's own answers follow theirs, the challenge posted in
// the channel the server's, and the other member keeps English.
func TestChoosingALanguage(t *testing.T) {
	t.Parallel()
	url := startPlayground(t)
	var st localeState
	api(t, "GET", url+"api/state", nil, &st)
	if !slices.Equal(st.Locales, i18n.Locales()) {
		t.Errorf("locales offered: %v, want the catalogue's %v", st.Locales, i18n.Locales())
	}
	if got := st.locales(); got["alice"] != i18n.English || got["bob"] != i18n.English || got["server"] != i18n.English {
		t.Errorf("locales of a new playground: %v, want en-US everywhere", got)
	}
	alice, bob := st.Members[0], st.Members[1]

	var after localeState
	if code := api(t, "POST", url+"api/locale", map[string]string{"member": alice.ID, "locale": i18n.Indonesian}, &after); code != 200 {
		t.Fatalf("alice's locale: %d %+v", code, after)
	}
	if got := after.locales(); got["alice"] != i18n.Indonesian || got["bob"] != i18n.English || got["server"] != i18n.English {
		t.Errorf("locales after alice chose Indonesian: %v", got)
	}
	if help := lastText(t, url, alice.ID, "help"); !strings.Contains(help, overview(i18n.Indonesian)) {
		t.Errorf("alice's /help:\n%s\nwant %q", help, overview(i18n.Indonesian))
	}
	if help := lastText(t, url, bob.ID, "help"); !strings.Contains(help, overview(i18n.English)) {
		t.Errorf("bob's /help:\n%s\nwant %q", help, overview(i18n.English))
	}

	if code := api(t, "POST", url+"api/locale", map[string]string{"guild": st.Guild.ID, "locale": i18n.Indonesian}, &after); code != 200 {
		t.Fatalf("the server's locale: %d %+v", code, after)
	}
	if got := after.locales(); got["server"] != i18n.Indonesian || got["bob"] != i18n.English {
		t.Errorf("locales after the server chose Indonesian: %v", got)
	}
	challenge := lastText(t, url, bob.ID, "play", map[string]any{"name": "game", "value": "tictactoe"}, map[string]any{"name": "opponent", "value": alice.ID})
	if !strings.Contains(challenge, aroundPlayer(i18n.Indonesian, "board.challenger")) {
		t.Errorf("bob's challenge in an Indonesian server:\n%s\nwant %q", challenge, aroundPlayer(i18n.Indonesian, "board.challenger"))
	}
}

// TestRefusedLocaleChangesChangeNothing: an unknown member, server or
// locale, or a request naming neither or both, is refused with 400 and an
// error saying why, and leaves every locale as it was.
func TestRefusedLocaleChangesChangeNothing(t *testing.T) {
	t.Parallel()
	url := startPlayground(t)
	var st localeState
	api(t, "GET", url+"api/state", nil, &st)
	alice := st.Members[0]
	headers := map[string]string{"Content-Type": "application/json"}
	for _, tc := range []struct {
		name string
		body map[string]string
		says string
	}{
		{"unknown member", map[string]string{"member": "123", "locale": i18n.Indonesian}, "unknown member 123"},
		{"the server as a member", map[string]string{"member": st.Guild.ID, "locale": i18n.Indonesian}, "unknown member"},
		{"unknown server", map[string]string{"guild": "123", "locale": i18n.Indonesian}, "unknown server 123"},
		{"unknown locale", map[string]string{"member": alice.ID, "locale": "fr"}, `"fr"`},
		{"a locale without a catalogue", map[string]string{"guild": st.Guild.ID, "locale": "pt-BR"}, "en-US, id"},
		{"no locale", map[string]string{"member": alice.ID}, `""`},
		{"nobody", map[string]string{"locale": i18n.Indonesian}, "either"},
		{"both", map[string]string{"member": alice.ID, "guild": st.Guild.ID, "locale": i18n.Indonesian}, "either"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, text := send(t, "POST", url+"api/locale", tc.body, headers); code != 400 || !strings.Contains(text, tc.says) {
				t.Errorf("%d %q; want 400 and an error naming %q", code, text, tc.says)
			}
		})
	}
	var after localeState
	api(t, "GET", url+"api/state", nil, &after)
	if got, want := after.locales(), st.locales(); !maps.Equal(got, want) {
		t.Errorf("locales after the refused requests: %v, want %v", got, want)
	}
	if help := lastText(t, url, alice.ID, "help"); !strings.Contains(help, overview(i18n.English)) {
		t.Errorf("alice's /help after the refused requests:\n%s\nwant English", help)
	}
}

// TestLocalesSurviveARestart: the chosen locales are kept in
// playground.json and given to the stand-in again at the next start, so
// the member's answers and the server's boards stay in their language.
func TestLocalesSurviveARestart(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "playground.db")
	url, stop := runPlayground(t, db)
	var st localeState
	api(t, "GET", url+"api/state", nil, &st)
	alice, bob := st.Members[0], st.Members[1]
	for _, body := range []map[string]string{
		{"member": alice.ID, "locale": i18n.Indonesian},
		{"guild": st.Guild.ID, "locale": i18n.Indonesian},
	} {
		if code := api(t, "POST", url+"api/locale", body, nil); code != 200 {
			t.Fatalf("%v: %d", body, code)
		}
	}
	stop()

	raw, err := os.ReadFile(strings.TrimSuffix(db, ".db") + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var saved struct {
		GuildLocale string `json:"guild_locale"`
		Members     []struct{ ID, Locale string }
	}
	if err := json.Unmarshal(raw, &saved); err != nil {
		t.Fatal(err)
	}
	if saved.GuildLocale != i18n.Indonesian || saved.Members[0].Locale != i18n.Indonesian || saved.Members[1].Locale != "" {
		t.Errorf("playground.json keeps %s; want alice's and the server's locale id, bob's unset", raw)
	}

	url, _ = runPlayground(t, db)
	var after localeState
	api(t, "GET", url+"api/state", nil, &after)
	if got := after.locales(); got["alice"] != i18n.Indonesian || got["bob"] != i18n.English || got["server"] != i18n.Indonesian {
		t.Errorf("locales after the restart: %v", got)
	}
	if help := lastText(t, url, alice.ID, "help"); !strings.Contains(help, overview(i18n.Indonesian)) {
		t.Errorf("alice's /help after the restart:\n%s\nwant Indonesian", help)
	}
	challenge := lastText(t, url, bob.ID, "play", map[string]any{"name": "game", "value": "tictactoe"}, map[string]any{"name": "opponent", "value": alice.ID})
	if !strings.Contains(challenge, aroundPlayer(i18n.Indonesian, "board.challenger")) {
		t.Errorf("bob's challenge after the restart:\n%s\nwant Indonesian", challenge)
	}
}

// TestAPostedBoardFollowsTheServerAtItsNextEdit: a challenge posted while
// the server spoke English is written in Indonesian once the server
// speaks it and the challenge is accepted, the next edit of its message.
func TestAPostedBoardFollowsTheServerAtItsNextEdit(t *testing.T) {
	t.Parallel()
	url := startPlayground(t)
	var st localeState
	api(t, "GET", url+"api/state", nil, &st)
	alice, bob := st.Members[0], st.Members[1]
	slash(t, url, bob.ID, "play", map[string]any{"name": "game", "value": "tictactoe"}, map[string]any{"name": "opponent", "value": alice.ID})
	var seen []message
	api(t, "GET", url+"api/messages?member="+alice.ID, nil, &seen)
	challenge := seen[len(seen)-1]
	if !strings.Contains(challenge.text(), aroundPlayer(i18n.English, "board.challenger")) {
		t.Fatalf("the challenge in an English server:\n%s", challenge.text())
	}
	if code := api(t, "POST", url+"api/locale", map[string]string{"guild": st.Guild.ID, "locale": i18n.Indonesian}, nil); code != 200 {
		t.Fatalf("the server's locale: %d", code)
	}
	accept := ""
	for _, c := range challenge.all() {
		if strings.HasPrefix(c.CustomID, "v1/accept/") {
			accept = c.CustomID
		}
	}
	var res map[string]any
	if code := api(t, "POST", url+"api/click", map[string]any{"member": alice.ID, "message": challenge.ID, "custom_id": accept}, &res); code != 200 {
		t.Fatalf("alice accepts: %d %v", code, res)
	}
	api(t, "GET", url+"api/messages?member="+alice.ID, nil, &seen)
	i := slices.IndexFunc(seen, func(m message) bool { return m.ID == challenge.ID })
	if i < 0 {
		t.Fatalf("alice no longer sees the challenge's message: %+v", seen)
	}
	if board := seen[i].text(); !strings.Contains(board, aroundPlayer(i18n.Indonesian, "board.your_move")) {
		t.Errorf("the accepted challenge's board:\n%s\nwant %q", board, aroundPlayer(i18n.Indonesian, "board.your_move"))
	}
}
