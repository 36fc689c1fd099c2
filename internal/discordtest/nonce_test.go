package discordtest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/internal/discordtest"
)

// createMessage posts body as a new message of channel ch of srv and
// returns the answer's status, message ID and nonce.
func createMessage(t *testing.T, srv *discordtest.Server, ch, body string) (int, string, json.RawMessage) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, "https://discord.com/api/v10/channels/"+ch+"/messages", strings.NewReader(body))
	req.Header.Set("Authorization", "Bot "+srv.Token())
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Transport: srv.Transport()}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var m struct {
		ID    string          `json:"id"`
		Nonce json.RawMessage `json:"nonce"`
	}
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("answer %s: %v", data, err)
		}
	}
	return resp.StatusCode, m.ID, m.Nonce
}

// TestEnforcedNonceCreatesOneMessage: a message sent again with the same
// nonce and enforce_nonce, within NonceWindow on the server's clock, in
// the same channel or another, is answered with the first message and
// not created; after the window, or without enforce_nonce, it is a new
// message, and the nonce is only echoed. The bodies pass the API's
// schema.
func TestEnforcedNonceCreatesOneMessage(t *testing.T) {
	t.Parallel()
	clock := discordtest.NewManualClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	srv := newServer(t, discordtest.WithClock(clock))
	ch := srv.Identity().ChannelID
	o, err := srv.AddChannel(srv.Identity().GuildID, "other")
	if err != nil {
		t.Fatal(err)
	}
	other := o.ID

	status, first, nonce := createMessage(t, srv, ch, `{"content":"round 1","nonce":"t1.p1","enforce_nonce":true}`)
	if status != http.StatusOK || string(nonce) != `"t1.p1"` {
		t.Fatalf("the first send: %d, nonce %s; want 200 echoing \"t1.p1\"", status, nonce)
	}
	clock.Advance(discordtest.NonceWindow - time.Second)
	for _, c := range []string{ch, other} {
		if status, again, _ := createMessage(t, srv, c, `{"content":"round 1 again","nonce":"t1.p1","enforce_nonce":true}`); status != http.StatusOK || again != first {
			t.Errorf("sent again in channel %s within the window: %d, message %s; want 200 with the first, %s", c, status, again, first)
		}
	}
	if n := len(srv.Messages(ch)) + len(srv.Messages(other)); n != 1 {
		t.Errorf("%d messages after the nonce was sent three times, want 1", n)
	}
	if status, id, _ := createMessage(t, srv, ch, `{"content":"another","nonce":"t1.p2","enforce_nonce":true}`); status != http.StatusOK || id == first {
		t.Errorf("another nonce: %d, message %s; want a new message", status, id)
	}
	if status, id, _ := createMessage(t, srv, ch, `{"content":"unenforced","nonce":"t1.p1"}`); status != http.StatusOK || id == first {
		t.Errorf("the nonce without enforce_nonce: %d, message %s; want a new message", status, id)
	}
	status, seven, _ := createMessage(t, srv, ch, `{"content":"a number","nonce":7,"enforce_nonce":true}`)
	if status != http.StatusOK || seven == first {
		t.Errorf("an integer nonce: %d, message %s; want a new message", status, seven)
	}
	if _, id, _ := createMessage(t, srv, ch, `{"content":"a string","nonce":"7","enforce_nonce":true}`); id != seven {
		t.Errorf("the nonce \"7\" after 7 answered message %s, want %s: the stand-in takes them for one nonce", id, seven)
	}
	clock.Advance(time.Second)
	if status, late, _ := createMessage(t, srv, ch, `{"content":"round 1 late","nonce":"t1.p1","enforce_nonce":true}`); status != http.StatusOK || late == first {
		t.Errorf("sent again at the window's end: %d, message %s; want a new message", status, late)
	}
	if n := len(srv.Messages(ch)); n != 5 {
		t.Errorf("%d messages in the channel, want 5: round 1, another, unenforced, a number, round 1 late", n)
	}
	if v := srv.Violations(); len(v) != 0 {
		t.Errorf("the bodies broke the API's schema: %+v", v)
	}
}
