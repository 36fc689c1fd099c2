package playground_test

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/internal/playground"
)

// threadMessage is what GET /api/messages says of a message's thread.
type threadMessage struct {
	ID     string `json:"id"`
	Thread *struct {
		ID, Name string
	} `json:"thread"`
	StartsThread *struct {
		ID, Name string
	} `json:"starts_thread"`
}

// TestThreadsShowInlineUnderTheirStarter: the page shows a thread of its
// channel (a tournament round's) inline, in order, each of its messages
// naming it and its starter message naming the thread started from it;
// a message of another channel's thread is not shown.
func TestThreadsShowInlineUnderTheirStarter(t *testing.T) {
	t.Parallel()
	srv := discordtest.New()
	t.Cleanup(srv.Close)
	page, err := playground.NewPage(srv, playground.State{Members: []playground.Member{{ID: "1001", Name: "alice"}}}, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	web := httptest.NewUnstartedServer(nil)
	_, portText, _ := net.SplitHostPort(web.Listener.Addr().String())
	port, _ := strconv.Atoi(portText)
	web.Config.Handler = page.Handler(port)
	web.Start()
	t.Cleanup(web.Close)

	s, err := discordgo.New("Bot " + srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	s.Client = &http.Client{Transport: srv.Transport()}
	pairings, err := s.ChannelMessageSend(srv.ChannelID(), "Round 1")
	if err != nil {
		t.Fatal(err)
	}
	th, err := s.MessageThreadStart(srv.ChannelID(), pairings.ID, "Cup — round 1", 1440)
	if err != nil {
		t.Fatal(err)
	}
	board, err := s.ChannelMessageSend(th.ID, "a board")
	if err != nil {
		t.Fatal(err)
	}
	after, err := s.ChannelMessageSend(srv.ChannelID(), "standings")
	if err != nil {
		t.Fatal(err)
	}
	other, err := srv.AddChannel(srv.GuildID(), "elsewhere")
	if err != nil {
		t.Fatal(err)
	}
	start, err := s.ChannelMessageSend(other.ID, "elsewhere")
	if err != nil {
		t.Fatal(err)
	}
	away, err := s.MessageThreadStart(other.ID, start.ID, "away", 60)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ChannelMessageSend(away.ID, "not here"); err != nil {
		t.Fatal(err)
	}

	var got []threadMessage
	if code := api(t, "GET", web.URL+"/api/messages?member=1001", nil, &got); code != 200 {
		t.Fatalf("messages: %d", code)
	}
	if len(got) != 3 || got[0].ID != pairings.ID || got[1].ID != board.ID || got[2].ID != after.ID {
		t.Fatalf("messages %+v, want the pairings, the board in its thread, the standings", got)
	}
	if got[0].StartsThread == nil || got[0].StartsThread.ID != th.ID || got[0].StartsThread.Name != "Cup — round 1" || got[0].Thread != nil {
		t.Errorf("the starter: %+v", got[0])
	}
	if got[1].Thread == nil || got[1].Thread.ID != th.ID || got[1].Thread.Name != "Cup — round 1" {
		t.Errorf("the board in the thread: %+v", got[1])
	}
	if got[2].Thread != nil || got[2].StartsThread != nil {
		t.Errorf("a message of the channel: %+v", got[2])
	}
}
