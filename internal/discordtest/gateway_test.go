package discordtest_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/gambitbot/gambit/internal/discordtest"
)

func TestOpenReceivesReadyAndGuilds(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	guilds := make(chan *discordgo.GuildCreate, 4)
	s, err := discordgo.New("Bot " + srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	s.Client = &http.Client{Transport: srv.Transport()}
	s.AddHandler(func(_ *discordgo.Session, g *discordgo.GuildCreate) { guilds <- g })
	ready := make(chan *discordgo.Ready, 1)
	s.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) { ready <- r })
	if err := s.Open(); err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })

	r := receive(t, ready, "READY")
	if r.SessionID == "" || r.User.ID != srv.BotUser().ID || !r.User.Bot || r.Application.ID != srv.ApplicationID() {
		t.Fatalf("READY = %+v", r)
	}
	g := receive(t, guilds, "GUILD_CREATE")
	if g.ID != srv.GuildID() || len(g.Channels) != 1 || g.Channels[0].ID != srv.ChannelID() {
		t.Fatalf("GUILD_CREATE = %+v", g.Guild)
	}
	if err := srv.WaitReady(ctx(t)); err != nil {
		t.Fatal(err)
	}

	// Later changes are dispatched too.
	alice := srv.AddUser("alice")
	if err := srv.AddMember(srv.GuildID(), alice.ID); err != nil {
		t.Fatal(err)
	}
	added := srv.AddGuild("Second")
	if g := receive(t, guilds, "GUILD_CREATE of a new guild"); g.ID != added.ID {
		t.Fatalf("GUILD_CREATE for %s, want %s", g.ID, added.ID)
	}
	if _, err := srv.AddChannel(added.ID, "games"); err != nil {
		t.Fatal(err)
	}
	if chs := srv.Channels(added.ID); len(chs) != 1 || chs[0].Name != "games" {
		t.Fatalf("channels of the new guild = %+v", chs)
	}
	if users := srv.Users(); len(users) != 1 || users[0].ID != alice.ID {
		t.Fatalf("users = %+v, want alice", users)
	}
}

func TestResumableCloseReplaysMissedEvents(t *testing.T) {
	t.Parallel()
	srv, b, alice, bob := twoPlayers(t)
	first := receive(t, b.ready, "READY")

	if n := srv.CloseGateway(4000); n != 1 {
		t.Fatalf("closed %d connections, want 1", n)
	}
	// Sent while the bot is disconnected: it must arrive after RESUME.
	ix, in := challenge(t, srv, b, alice.ID, bob.ID)
	receive(t, b.resumed, "RESUMED")
	select {
	case r := <-b.ready:
		t.Fatalf("the bot identified again (session %s) instead of resuming %s", r.SessionID, first.SessionID)
	default:
	}
	reply(t, b, in, "still here")
	if _, err := ix.Reply(ctx(t)); err != nil {
		t.Fatal(err)
	}
}

func TestNonResumableCloseReidentifies(t *testing.T) {
	t.Parallel()
	srv, b, alice, bob := twoPlayers(t)
	first := receive(t, b.ready, "READY")

	srv.CloseGateway(4007) // invalid seq: the session is gone
	if _, err := srv.SendCommand(discordtest.SlashCommand{UserID: alice.ID, Name: "chess"}); !errors.Is(err, discordtest.ErrNoSession) {
		t.Fatalf("send with no session: %v, want ErrNoSession", err)
	}
	// discordgo tries to RESUME, gets INVALID SESSION and identifies anew.
	second := receive(t, b.ready, "second READY")
	if second.SessionID == first.SessionID {
		t.Fatal("the new session has the old session's ID")
	}
	challenge(t, srv, b, alice.ID, bob.ID)
}

func TestReconnectOpcodeResumes(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	b := openBot(t, srv)
	receive(t, b.ready, "READY")
	srv.RequestReconnect()
	receive(t, b.resumed, "RESUMED")
}

func TestDispatchDelayKeepsOrder(t *testing.T) {
	t.Parallel()
	srv, b, alice, bob := twoPlayers(t)

	const delay = 100 * time.Millisecond
	srv.SetDispatchDelay(delay)
	start := time.Now()
	var ids []string
	for range 2 {
		ix, err := srv.SendCommand(discordtest.SlashCommand{
			UserID: alice.ID, Name: "chess",
			Options: []discordtest.Option{{Name: "challenge", Options: []discordtest.Option{{Name: "opponent", Value: bob.ID}}}},
		})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, ix.ID)
	}
	for i, want := range ids {
		if got := receive(t, b.interactions, "delayed interaction"); got.ID != want {
			t.Fatalf("interaction %d is %s, want %s", i, got.ID, want)
		}
	}
	// A lower bound only: the events cannot have arrived before the delay.
	if elapsed := time.Since(start); elapsed < delay {
		t.Fatalf("events arrived after %v, before the %v delay", elapsed, delay)
	}
}

// rawGateway dials the gateway URL the REST API hands out, as discordgo
// does, and reads HELLO.
func rawGateway(t *testing.T, srv *discordtest.Server) *websocket.Conn {
	t.Helper()
	resp, err := http.Get(srv.URL() + "/api/v10/gateway")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var g struct {
		URL string `json:"url"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&g); err != nil {
		t.Fatal(err)
	}
	ws, _, err := websocket.DefaultDialer.Dial(g.URL+"/?v=10&encoding=json", nil)
	if err != nil {
		t.Fatalf("dial %s: %v", g.URL, err)
	}
	t.Cleanup(func() { _ = ws.Close() })
	if hello := readFrame(t, ws); hello.Op != 10 || !strings.Contains(string(hello.D), "heartbeat_interval") {
		t.Fatalf("first frame = %+v, want HELLO", hello)
	}
	return ws
}

type gatewayFrame struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  int64           `json:"s"`
	T  string          `json:"t"`
}

func readFrame(t *testing.T, ws *websocket.Conn) gatewayFrame {
	t.Helper()
	_ = ws.SetReadDeadline(time.Now().Add(waitTimeout(t)))
	var f gatewayFrame
	if err := ws.ReadJSON(&f); err != nil {
		t.Fatalf("read frame: %v", err)
	}
	return f
}

// closeCode reads until the server closes the connection and returns the
// close code.
func closeCode(t *testing.T, ws *websocket.Conn) int {
	t.Helper()
	_ = ws.SetReadDeadline(time.Now().Add(waitTimeout(t)))
	for {
		_, _, err := ws.ReadMessage()
		var ce *websocket.CloseError
		if errors.As(err, &ce) {
			return ce.Code
		}
		if err != nil {
			t.Fatalf("read: %v, want a close frame", err)
		}
	}
}

func TestGatewayProtocol(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	send := func(ws *websocket.Conn, op int, d any) {
		t.Helper()
		if err := ws.WriteJSON(map[string]any{"op": op, "d": d}); err != nil {
			t.Fatal(err)
		}
	}
	identify := map[string]any{"token": "Bot " + srv.Token(), "intents": 513, "properties": map[string]string{}}

	t.Run("heartbeat is acknowledged", func(t *testing.T) {
		ws := rawGateway(t, srv)
		send(ws, 1, nil)
		if f := readFrame(t, ws); f.Op != 11 {
			t.Fatalf("got op %d, want 11", f.Op)
		}
	})
	t.Run("identify gets READY then GUILD_CREATE with sequence numbers", func(t *testing.T) {
		ws := rawGateway(t, srv)
		send(ws, 2, identify)
		if f := readFrame(t, ws); f.T != "READY" || f.S != 1 {
			t.Fatalf("got %s seq %d, want READY seq 1", f.T, f.S)
		}
		if f := readFrame(t, ws); f.T != "GUILD_CREATE" || f.S != 2 {
			t.Fatalf("got %s seq %d, want GUILD_CREATE seq 2", f.T, f.S)
		}
		send(ws, 2, identify)
		if code := closeCode(t, ws); code != 4005 {
			t.Fatalf("second IDENTIFY closed with %d, want 4005", code)
		}
	})
	t.Run("bad token fails authentication", func(t *testing.T) {
		ws := rawGateway(t, srv)
		send(ws, 2, map[string]any{"token": "Bot wrong", "intents": 0})
		if code := closeCode(t, ws); code != 4004 {
			t.Fatalf("closed with %d, want 4004", code)
		}
	})
	t.Run("payload before identify", func(t *testing.T) {
		ws := rawGateway(t, srv)
		send(ws, 3, map[string]any{"status": "online"})
		if code := closeCode(t, ws); code != 4003 {
			t.Fatalf("closed with %d, want 4003", code)
		}
	})
	t.Run("unknown opcode", func(t *testing.T) {
		ws := rawGateway(t, srv)
		send(ws, 42, nil)
		if code := closeCode(t, ws); code != 4001 {
			t.Fatalf("closed with %d, want 4001", code)
		}
	})
	t.Run("resume of an unknown session", func(t *testing.T) {
		ws := rawGateway(t, srv)
		send(ws, 6, map[string]any{"token": srv.Token(), "session_id": "nope", "seq": 3})
		if f := readFrame(t, ws); f.Op != 9 || string(f.D) != "false" {
			t.Fatalf("got %+v, want INVALID SESSION false", f)
		}
	})
}
