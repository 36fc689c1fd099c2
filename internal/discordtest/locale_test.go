package discordtest_test

import (
	"encoding/json"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestGuildLocaleChangeIsAnnounced: setting a guild's locale sends
// GUILD_UPDATE with the new preferred_locale, and without the fields only
// GUILD_CREATE carries, so discordgo's state keeps the guild's channels;
// clearing it announces the default again.
func TestGuildLocaleChangeIsAnnounced(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	b := openBot(t, srv)
	updates := make(chan *discordgo.GuildUpdate, 4)
	b.AddHandler(func(_ *discordgo.Session, e *discordgo.GuildUpdate) { updates <- e })
	raw := make(chan map[string]json.RawMessage, 4)
	b.AddHandler(func(_ *discordgo.Session, e *discordgo.Event) {
		if e.Type == "GUILD_UPDATE" {
			var d map[string]json.RawMessage
			_ = json.Unmarshal(e.RawData, &d)
			raw <- d
		}
	})
	receive(t, b.ready, "READY")
	if err := srv.WaitReady(ctx(t)); err != nil {
		t.Fatal(err)
	}

	srv.SetLocale(srv.GuildID(), "id")
	u := receive(t, updates, "GUILD_UPDATE")
	if u.ID != srv.GuildID() || u.PreferredLocale != "id" {
		t.Fatalf("GUILD_UPDATE = %s locale %q, want %s locale id", u.ID, u.PreferredLocale, srv.GuildID())
	}
	d := receive(t, raw, "GUILD_UPDATE's payload")
	for _, k := range []string{"channels", "members", "joined_at"} {
		if _, ok := d[k]; ok {
			t.Errorf("GUILD_UPDATE carries GUILD_CREATE's %s", k)
		}
	}
	if g, err := b.State.Guild(srv.GuildID()); err != nil || len(g.Channels) != 1 {
		t.Errorf("state's guild after the update: %+v, %v; want its channel kept", g, err)
	}

	srv.SetLocale(srv.GuildID(), "")
	if u := receive(t, updates, "GUILD_UPDATE back to the default"); u.PreferredLocale != "en-US" {
		t.Errorf("GUILD_UPDATE after clearing the locale: %q, want en-US", u.PreferredLocale)
	}
}
