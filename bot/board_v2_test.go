package bot_test

import (
	"bytes"
	"context"
	"image/png"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// message returns a message as a user reads it (readable).
func (h *harness) message(id string) (discordtest.Message, bool) {
	m, ok := h.srv.Message(id)
	return readable(m), ok
}

// messages returns a channel's messages as a user reads them.
func (h *harness) messages(channelID string) []discordtest.Message {
	ms := h.srv.Messages(channelID)
	for i := range ms {
		ms[i] = readable(ms[i])
	}
	return ms
}

// waitMessage waits for a message that satisfies cond as a user reads it.
func (h *harness) waitMessage(ctx context.Context, cond func(discordtest.Message) bool) (discordtest.Message, error) {
	m, err := h.srv.WaitMessage(ctx, func(m discordtest.Message) bool { return cond(readable(m)) })
	return readable(m), err
}

// readable returns a message as a user reads it (see
// discordtest.Message.Readable).
func readable(m discordtest.Message) discordtest.Message { return m.Readable() }

// controls lists the components of a message a user can click or choose
// in: those with a custom ID.
func controls(m discordtest.Message) []discordtest.Component {
	var out []discordtest.Component
	for _, c := range components(m) {
		if c.CustomID != "" {
			out = append(out, c)
		}
	}
	return out
}

// boardPicture checks that a board message has exactly one attachment, a
// PNG that decodes, shown by the message's media gallery, and returns it.
func boardPicture(t testing.TB, m discordtest.Message) discordtest.Attachment {
	t.Helper()
	if m.Flags&discordgo.MessageFlagsIsComponentsV2 == 0 {
		t.Fatalf("board %s is not a components-v2 message (flags %v)", m.ID, m.Flags)
	}
	if len(m.Attachments) != 1 {
		var names []string
		for _, a := range m.Attachments {
			names = append(names, a.Filename)
		}
		t.Fatalf("board %s has %d attachments %v, want its picture only", m.ID, len(m.Attachments), names)
	}
	a := m.Attachments[0]
	if a.ContentType != "image/png" || !strings.HasPrefix(a.Filename, "board-") {
		t.Fatalf("board %s attaches %s (%s), want board-<ply>.png", m.ID, a.Filename, a.ContentType)
	}
	if _, err := png.Decode(bytes.NewReader(a.Data)); err != nil {
		t.Fatalf("board %s: %s does not decode: %v", m.ID, a.Filename, err)
	}
	shown := false
	for _, c := range components(m) {
		for _, it := range c.Items {
			shown = shown || it.Media.URL == "attachment://"+a.Filename
		}
	}
	if !shown {
		t.Fatalf("board %s: no media gallery shows %s", m.ID, a.Filename)
	}
	return a
}

// TestBoardsCarryTheirPicture plays a game through its board and checks
// that every version of the board carries one PNG of the position, that a
// move's edit replaces the picture (a new name, the old one gone) and that
// the emoji grid is still in the text.
func TestBoardsCarryTheirPicture(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("connect4"))
	before := boardPicture(t, h.board(g.ID))
	if before.Filename != "board-0.png" {
		t.Errorf("first picture %s, want board-0.png", before.Filename)
	}
	mover := alice
	if h.game(g.ID).Turn == 1 {
		mover = bob
	}
	h.move(mover, g.ID, "4")
	after := h.waitBoard(g.ID, "the move", func(m discordtest.Message) bool { return strings.Contains(m.Embeds[0].Description, "Last move") })
	pic := boardPicture(t, after)
	if pic.Filename != "board-1.png" || pic.ID == before.ID || bytes.Equal(pic.Data, before.Data) {
		t.Errorf("after a move the board shows %s (id %s), want a new board-1.png replacing %s (id %s)", pic.Filename, pic.ID, before.Filename, before.ID)
	}
	if !strings.Contains(after.Embeds[0].Description, "🔴") && !strings.Contains(after.Embeds[0].Description, "🟡") {
		t.Errorf("the emoji grid is missing from the board's text:\n%s", after.Embeds[0].Description)
	}
}
