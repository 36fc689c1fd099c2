package discordtest_test

import (
	"net/http"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/internal/discordtest"
)

// guildEvents opens a discordgo session with the given intents that
// reports guild and member events on channels.
func guildEvents(t *testing.T, srv *discordtest.Server, intents discordgo.Intent) (*discordgo.Session, chan *discordgo.GuildDelete, chan *discordgo.GuildCreate, chan *discordgo.GuildMemberRemove) {
	t.Helper()
	s, err := discordgo.New("Bot " + srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	s.Client = &http.Client{Transport: srv.Transport(), Timeout: waitTimeout(t)}
	s.Identify.Intents = intents
	deleted := make(chan *discordgo.GuildDelete, 4)
	created := make(chan *discordgo.GuildCreate, 8)
	left := make(chan *discordgo.GuildMemberRemove, 4)
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.GuildDelete) { deleted <- e })
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.GuildCreate) { created <- e })
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.GuildMemberRemove) { left <- e })
	if err := s.Open(); err != nil {
		t.Fatalf("open session: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, deleted, created, left
}

func TestRemovingTheBotFromAGuild(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	alice := srv.AddUser("alice")
	g := srv.AddGuild("Other")
	ch, err := srv.AddChannel(g.ID, "games")
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.AddMember(g.ID, alice.ID); err != nil {
		t.Fatal(err)
	}
	s, deleted, created, _ := guildEvents(t, srv, discordgo.IntentsGuilds)
	registerCommands(t, &bot{Session: s}, srv)
	for range 2 { // the default guild and g
		receive(t, created, "GUILD_CREATE")
	}
	m, err := s.ChannelMessageSend(ch.ID, "board")
	if err != nil {
		t.Fatal(err)
	}

	if err := srv.RemoveBotFromGuild(srv.GuildID()); err == nil {
		t.Fatal("the default guild was removed")
	}
	if err := srv.RemoveBotFromGuild(g.ID); err != nil {
		t.Fatal(err)
	}
	if err := srv.RemoveBotFromGuild(g.ID); err == nil {
		t.Fatal("the bot was removed twice from one guild")
	}
	e := receive(t, deleted, "GUILD_DELETE")
	if e.ID != g.ID || e.Unavailable {
		t.Fatalf("GUILD_DELETE = %+v, want guild %s with unavailable false", e.Guild, g.ID)
	}

	_, err = s.ChannelMessageEdit(ch.ID, m.ID, "edited")
	restError(t, err, http.StatusForbidden, discordtest.CodeMissingAccess)
	_, err = s.ChannelMessageSend(ch.ID, "again")
	restError(t, err, http.StatusForbidden, discordtest.CodeMissingAccess)
	_, err = s.ChannelMessages(ch.ID, 10, "", "", "")
	restError(t, err, http.StatusForbidden, discordtest.CodeMissingAccess)
	_, err = s.ApplicationCommands(srv.ApplicationID(), g.ID)
	restError(t, err, http.StatusForbidden, discordtest.CodeMissingAccess)
	_, err = s.ChannelMessageSend("1", "nowhere")
	restError(t, err, http.StatusNotFound, discordtest.CodeUnknownChannel)

	if _, err := srv.SendCommand(discordtest.SlashCommand{
		UserID: alice.ID, ChannelID: ch.ID, Name: "chess",
		Options: []discordtest.Option{{Name: "resign"}},
	}); err == nil {
		t.Error("a command reached the bot from a guild it was removed from")
	}
	if len(srv.Channels(g.ID)) != 0 {
		t.Error("the removed guild still lists channels")
	}
	if got, ok := srv.Message(m.ID); !ok || got.Content != "board" {
		t.Errorf("the test can no longer read the old message: %+v", got)
	}

	// A new session is not told about the guild: READY (handled before
	// Open returns) lists the default guild only.
	s2, _, _, _ := guildEvents(t, srv, discordgo.IntentsGuilds)
	s2.State.RLock()
	var ids []string
	for _, g := range s2.State.Guilds {
		ids = append(ids, g.ID)
	}
	s2.State.RUnlock()
	if len(ids) != 1 || ids[0] != srv.GuildID() {
		t.Errorf("a new session is told about guilds %v, want the default guild only", ids)
	}
}

func TestAGuildOutageIsNotARemoval(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	_, deleted, created, _ := guildEvents(t, srv, discordgo.IntentsGuilds)
	receive(t, created, "GUILD_CREATE")
	if err := srv.SetGuildUnavailable(srv.GuildID(), true); err != nil {
		t.Fatal(err)
	}
	if e := receive(t, deleted, "GUILD_DELETE"); e.ID != srv.GuildID() || !e.Unavailable {
		t.Fatalf("GUILD_DELETE = %+v, want the default guild with unavailable true", e.Guild)
	}
	if err := srv.SetGuildUnavailable(srv.GuildID(), false); err != nil {
		t.Fatal(err)
	}
	if e := receive(t, created, "GUILD_CREATE"); e.ID != srv.GuildID() || len(e.Channels) != 1 {
		t.Fatalf("GUILD_CREATE after the outage = %+v", e.Guild)
	}
	if err := srv.SetGuildUnavailable("1", true); err == nil {
		t.Fatal("an unknown guild went unavailable")
	}
}

func TestAMemberWhoLeftCannotInteract(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	alice, bob := srv.AddUser("alice"), srv.AddUser("bob")
	s, _, _, left := guildEvents(t, srv, discordgo.IntentsGuilds|discordgo.IntentsGuildMembers)
	registerCommands(t, &bot{Session: s}, srv)
	if err := srv.RemoveMember(srv.GuildID(), alice.ID); err != nil {
		t.Fatal(err)
	}
	if e := receive(t, left, "GUILD_MEMBER_REMOVE"); e.GuildID != srv.GuildID() || e.User == nil || e.User.ID != alice.ID {
		t.Fatalf("GUILD_MEMBER_REMOVE = %+v", e)
	}
	resign := []discordtest.Option{{Name: "resign"}}
	if _, err := srv.SendCommand(discordtest.SlashCommand{UserID: alice.ID, Name: "chess", Options: resign}); err == nil {
		t.Error("a member who left used a command")
	}
	if _, err := srv.SendCommand(discordtest.SlashCommand{UserID: bob.ID, Name: "chess", Options: resign}); err != nil {
		t.Errorf("a member who stayed: %v", err)
	}
	if err := srv.RemoveMember(srv.GuildID(), alice.ID); err == nil {
		t.Error("alice left twice")
	}
	if err := srv.RemoveMember(srv.GuildID(), srv.BotUser().ID); err == nil {
		t.Error("the bot left through RemoveMember")
	}
	if err := srv.AddMember(srv.GuildID(), alice.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.SendCommand(discordtest.SlashCommand{UserID: alice.ID, Name: "chess", Options: resign}); err != nil {
		t.Errorf("alice, back in the guild: %v", err)
	}
}
