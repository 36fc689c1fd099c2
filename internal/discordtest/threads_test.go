package discordtest_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/internal/discordtest"
)

// TestThreadFromAMessage starts a public thread from a message: the
// thread has the message's ID and its name, the state learns it from
// THREAD_CREATE, messages post into it and list apart from the channel's,
// and a second thread from the same message is refused.
func TestThreadFromAMessage(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	b := openBot(t, srv)
	created := make(chan *discordgo.ThreadCreate, 1)
	b.AddHandler(func(_ *discordgo.Session, e *discordgo.ThreadCreate) { created <- e })
	starter, err := b.ChannelMessageSend(srv.ChannelID(), "Round 1")
	if err != nil {
		t.Fatal(err)
	}
	th, err := b.MessageThreadStartComplex(srv.ChannelID(), starter.ID, &discordgo.ThreadStart{Name: "Cup — round 1", AutoArchiveDuration: 1440})
	if err != nil {
		t.Fatalf("start a thread: %v", err)
	}
	if th.ID != starter.ID || th.Type != discordgo.ChannelTypeGuildPublicThread || th.ParentID != srv.ChannelID() || th.Name != "Cup — round 1" || !th.IsThread() {
		t.Fatalf("thread = %+v", th)
	}
	if e := receive(t, created, "THREAD_CREATE"); e.ID != th.ID || !e.NewlyCreated || e.ParentID != srv.ChannelID() {
		t.Errorf("THREAD_CREATE = %+v", e.Channel)
	}
	if got, ok := srv.Channel(th.ID); !ok || !got.IsThread() || got.ParentID != srv.ChannelID() {
		t.Errorf("Channel(%s) = %+v, %v", th.ID, got, ok)
	}
	if list := srv.Threads(srv.ChannelID()); len(list) != 1 || list[0].ID != th.ID {
		t.Errorf("Threads = %+v", list)
	}
	board, err := b.ChannelMessageSend(th.ID, "a board")
	if err != nil {
		t.Fatalf("post in the thread: %v", err)
	}
	if board.ChannelID != th.ID || board.GuildID != srv.GuildID() {
		t.Errorf("the board's message: channel %s, guild %s", board.ChannelID, board.GuildID)
	}
	if msgs := srv.Messages(th.ID); len(msgs) != 1 || msgs[0].Content != "a board" {
		t.Errorf("the thread's messages: %+v", msgs)
	}
	if msgs := srv.Messages(srv.ChannelID()); len(msgs) != 1 || msgs[0].ID != starter.ID {
		t.Errorf("the channel's messages: %+v", msgs)
	}
	if all := srv.ChannelAndThreads(srv.ChannelID()); len(all) != 2 || all[0].ID != starter.ID || all[1].ID != board.ID {
		t.Errorf("the channel with its threads: %+v", all)
	}
	if _, err := b.ChannelMessageEdit(th.ID, board.ID, "a board, moved"); err != nil {
		t.Errorf("edit in the thread: %v", err)
	}
	_, err = b.MessageThreadStartComplex(srv.ChannelID(), starter.ID, &discordgo.ThreadStart{Name: "again"})
	restError(t, err, http.StatusBadRequest, discordtest.CodeThreadExists)
	srv.AssertNoViolations(t)
}

// TestThreadRules refuses threads as Discord does: without Create Public
// Threads, in a thread, from an unknown message, with a name beyond 100
// characters (the schema); and posting in a thread needs Send Messages in
// Threads, not Send Messages.
func TestThreadRules(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	b := openBot(t, srv)
	starter, err := b.ChannelMessageSend(srv.ChannelID(), "Round 1")
	if err != nil {
		t.Fatal(err)
	}
	all := int64(1<<50 - 1)
	if err := srv.SetBotPermissions(srv.ChannelID(), all&^discordgo.PermissionAdministrator&^discordgo.PermissionCreatePublicThreads); err != nil {
		t.Fatal(err)
	}
	_, err = b.MessageThreadStartComplex(srv.ChannelID(), starter.ID, &discordgo.ThreadStart{Name: "round 1"})
	restError(t, err, http.StatusForbidden, discordtest.CodeMissingPermissions)
	_, err = b.ThreadStart(srv.ChannelID(), "round 1", discordgo.ChannelTypeGuildPublicThread, 60)
	restError(t, err, http.StatusForbidden, discordtest.CodeMissingPermissions)

	// Without Send Messages in Threads (the channel's permissions hold
	// in its threads), a thread starts but takes no message.
	if err := srv.SetBotPermissions(srv.ChannelID(), all&^discordgo.PermissionAdministrator&^discordgo.PermissionSendMessagesInThreads); err != nil {
		t.Fatal(err)
	}
	th, err := b.MessageThreadStartComplex(srv.ChannelID(), starter.ID, &discordgo.ThreadStart{Name: "round 1"})
	if err != nil {
		t.Fatalf("start a thread: %v", err)
	}
	_, err = b.ChannelMessageSend(th.ID, "a board")
	restError(t, err, http.StatusForbidden, discordtest.CodeMissingPermissions)
	if _, err := b.ChannelMessageSend(srv.ChannelID(), "in the channel"); err != nil {
		t.Errorf("post in the channel: %v", err)
	}

	in, err := b.ChannelMessageSend(srv.ChannelID(), "another")
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.MessageThreadStartComplex(th.ID, in.ID, &discordgo.ThreadStart{Name: "nested"})
	restError(t, err, http.StatusBadRequest, discordtest.CodeInvalidChannelType)
	_, err = b.ThreadStart(th.ID, "nested", discordgo.ChannelTypeGuildPublicThread, 60)
	restError(t, err, http.StatusBadRequest, discordtest.CodeInvalidChannelType)
	_, err = b.MessageThreadStartComplex(srv.ChannelID(), "123", &discordgo.ThreadStart{Name: "round 1"})
	restError(t, err, http.StatusNotFound, discordtest.CodeUnknownMessage)
	if len(srv.Violations()) != 0 {
		t.Fatalf("violations before the long name: %v", srv.Violations())
	}
	long := make([]byte, 101)
	for i := range long {
		long[i] = 'x'
	}
	_, err = b.MessageThreadStartComplex(srv.ChannelID(), in.ID, &discordgo.ThreadStart{Name: string(long)})
	restError(t, err, http.StatusBadRequest, discordtest.CodeInvalidFormBody)
	if len(srv.Violations()) != 1 {
		t.Errorf("the long name: violations %v, want one", srv.Violations())
	}
}

// TestThreadWithoutAMessage starts public and private threads without a
// starter message, each with an ID of its own, listed in the guild's
// GUILD_CREATE when a session identifies after them.
func TestThreadWithoutAMessage(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	b := openBot(t, srv)
	pub, err := b.ThreadStart(srv.ChannelID(), "public", discordgo.ChannelTypeGuildPublicThread, 60)
	if err != nil {
		t.Fatalf("a public thread: %v", err)
	}
	priv, err := b.ThreadStartComplex(srv.ChannelID(), &discordgo.ThreadStart{Name: "private", Type: discordgo.ChannelTypeGuildPrivateThread})
	if err != nil {
		t.Fatalf("a private thread: %v", err)
	}
	if pub.ID == priv.ID || pub.Type != discordgo.ChannelTypeGuildPublicThread || priv.Type != discordgo.ChannelTypeGuildPrivateThread {
		t.Fatalf("threads %+v and %+v", pub, priv)
	}
	if _, err := b.ChannelMessageSend(priv.ID, "hello"); err != nil {
		t.Errorf("post in the private thread: %v", err)
	}
	late := openBot(t, srv)
	deadline := time.Now().Add(waitTimeout(t))
	for {
		var threads []string
		if g, err := late.State.Guild(srv.GuildID()); err == nil { // once its GUILD_CREATE came
			late.State.RLock() // the session's handlers write the guild under it
			for _, th := range g.Threads {
				threads = append(threads, th.ID)
			}
			late.State.RUnlock()
		}
		if slices.Equal(threads, []string{pub.ID, priv.ID}) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the guild's threads at IDENTIFY: %v, want %s and %s", threads, pub.ID, priv.ID)
		}
		time.Sleep(5 * time.Millisecond)
	}
	srv.AssertNoViolations(t)
}
