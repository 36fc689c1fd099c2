package egress_test

import (
	"log/slog"
	"testing"

	"github.com/gambitbot/gambit/bot/egress"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/internal/discordtest"
)

// TestSendChannelMessageOnceCreatesOneMessage sends a message with a
// nonce twice, as JSON and, with a picture, as an upload (the nonce in
// payload_json): Discord — the stand-in — creates each once and answers
// the second send with the first message; the bodies pass the API's
// schema, and a nonce Discord would refuse is refused before sending.
func TestSendChannelMessageOnceCreatesOneMessage(t *testing.T) {
	srv := discordtest.New()
	t.Cleanup(srv.Close)
	c, err := egress.New(egress.Config{Token: srv.Token(), APIURL: srv.URL(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ch := srv.ChannelID()
	for _, msg := range []render.Message{
		{Content: "pairings"},
		{Content: "a board", Files: []render.File{{Name: "board.png", ContentType: "image/png", Data: []byte("png")}}},
	} {
		nonce := "n-" + msg.Content
		first, err := c.SendChannelMessageOnce(ch, nonce, msg)
		if err != nil {
			t.Fatal(err)
		}
		again, err := c.SendChannelMessageOnce(ch, nonce, msg)
		if err != nil || again.ID != first.ID {
			t.Errorf("%q sent again: message %v (%v), want the first, %s", msg.Content, again, err, first.ID)
		}
		if len(msg.Files) > 0 && (len(first.Attachments) != 1 || first.Attachments[0].Filename != "board.png") {
			t.Errorf("%q carries %+v, want board.png", msg.Content, first.Attachments)
		}
	}
	if n := len(srv.Messages(ch)); n != 2 {
		t.Errorf("%d messages in the channel, want 2", n)
	}
	if v := srv.Violations(); len(v) != 0 {
		t.Errorf("the bodies broke the API's schema: %+v", v)
	}
	if _, err := c.SendChannelMessageOnce(ch, "a nonce of more than 25 chars", render.Message{Content: "x"}); err == nil {
		t.Error("a nonce of 29 characters was sent")
	}
}
