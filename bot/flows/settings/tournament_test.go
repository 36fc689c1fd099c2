package settings_test

import (
	"context"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux/muxtest"
	"github.com/gambitbot/gambit/storage"
)

// fieldOf is the value of the answer's field named name, in the last
// answer rec recorded.
func fieldOf(t *testing.T, rec *muxtest.Recorder, name string) string {
	t.Helper()
	resps := rec.Responses()
	for _, f := range resps[len(resps)-1].Data.Embeds[0].Fields {
		if f.Name == name {
			return f.Value
		}
	}
	t.Fatalf("no field %q in the answer", name)
	return ""
}

func TestTournamentBoardsSettingIsSavedAndShown(t *testing.T) {
	store := newStore(t)
	if err := store.PutGuildSettings(context.Background(), "guild", storage.GuildSettings{Casual: true}); err != nil {
		t.Fatal(err)
	}
	var told forms
	m, rec := newFlow(store, &told)
	admin := muxtest.Member("ann", discordgo.PermissionManageGuild)
	if err := muxtest.Run(m, rec, muxtest.Command(admin, discordgo.EnglishUS, "settings")); err != nil {
		t.Fatal(err)
	}
	if got := fieldOf(t, rec, "Tournament boards"); got != "a thread per round (default)" {
		t.Errorf("the default shown as %q", got)
	}
	for _, c := range []struct {
		value string
		want  storage.TournamentBoards
		shown string
	}{
		{"channel", storage.TournamentBoardsChannel, "in the tournament's channel"},
		{"threads", storage.TournamentBoardsThreads, "a thread per round"},
	} {
		err := muxtest.Run(m, rec, muxtest.Command(admin, discordgo.EnglishUS, "settings",
			option("tournament-boards", discordgo.ApplicationCommandOptionString, c.value)))
		if err != nil {
			t.Fatal(err)
		}
		if got := store.guild(t, "guild"); got.TournamentBoards != c.want || !got.Casual {
			t.Errorf("tournament-boards %s saved %+v", c.value, got)
		}
		if got := fieldOf(t, rec, "Tournament boards"); got != c.shown {
			t.Errorf("tournament-boards %s shown as %q, want %q", c.value, got, c.shown)
		}
	}

	updates := store.updates
	err := muxtest.Run(m, rec, muxtest.Command(admin, discordgo.EnglishUS, "settings",
		option("tournament-boards", discordgo.ApplicationCommandOptionString, "forum")))
	if text := muxtest.UserError(t, err, i18n.English); text == "" || store.updates != updates {
		t.Errorf("an unknown place: %q, %d saves; want a refusal and nothing saved", text, store.updates-updates)
	}
	member := muxtest.Member("bo", 0)
	err = muxtest.Run(m, rec, muxtest.Command(member, discordgo.EnglishUS, "settings",
		option("tournament-boards", discordgo.ApplicationCommandOptionString, "channel")))
	if text := muxtest.UserError(t, err, i18n.English); text == "" || store.updates != updates {
		t.Errorf("a member without Manage Server: %q, %d saves; want a refusal", text, store.updates-updates)
	}
}
