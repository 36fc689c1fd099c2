package discordtest_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/internal/discordtest"
)

// v2Board is a components-v2 message showing the picture name, uploaded
// with it, in a media gallery inside a container.
func v2Board(name, data string) *discordgo.MessageSend {
	return &discordgo.MessageSend{
		Flags: discordgo.MessageFlagsIsComponentsV2,
		Components: []discordgo.MessageComponent{discordgo.Container{Components: []discordgo.MessageComponent{
			discordgo.TextDisplay{Content: "### Board"},
			discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{{Media: discordgo.UnfurledMediaItem{URL: "attachment://" + name}}}},
		}}, row(button("move"))},
		Files: []*discordgo.File{{Name: name, ContentType: "image/png", Reader: strings.NewReader(data)}},
	}
}

// edit turns a message send into an edit of id that replaces the
// attachments with the uploaded files.
func edit(channelID, id string, m *discordgo.MessageSend) *discordgo.MessageEdit {
	keep := []*discordgo.MessageAttachment{}
	for i, f := range m.Files {
		keep = append(keep, &discordgo.MessageAttachment{ID: string(rune('0' + i)), Filename: f.Name})
	}
	return &discordgo.MessageEdit{
		ID: id, Channel: channelID, Components: &m.Components, Files: m.Files, Attachments: &keep,
	}
}

// TestComponentsV2MessagesKeepTheirPictures sends a components-v2 message
// with a picture as multipart/form-data, edits it with a new picture that
// replaces the old one, and reads both from the stand-in's attachment URLs.
func TestComponentsV2MessagesKeepTheirPictures(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	b := openBot(t, srv)
	ch := srv.ChannelID()

	sent, err := b.ChannelMessageSendComplex(ch, v2Board("board-0.png", "first"))
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	m, _ := srv.Message(sent.ID)
	if m.Flags&discordgo.MessageFlagsIsComponentsV2 == 0 || len(m.Attachments) != 1 || string(m.Attachments[0].Data) != "first" ||
		m.Attachments[0].ContentType != "image/png" || len(sent.Attachments) != 1 {
		t.Fatalf("stored %+v (flags %v), answered %+v", m.Attachments, m.Flags, sent.Attachments)
	}
	if _, err := b.ChannelMessageEditComplex(edit(ch, sent.ID, v2Board("board-1.png", "second"))); err != nil {
		t.Fatalf("edit without the flag, as the flag stays: %v", err)
	}
	m, _ = srv.Message(sent.ID)
	a, ok := m.Attachment("board-1.png")
	if len(m.Attachments) != 1 || !ok || string(a.Data) != "second" {
		t.Fatalf("after the edit the message has %+v, want board-1.png only", m.Attachments)
	}
	resp, err := http.Get(a.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(body, []byte("second")) || resp.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("%s served %q as %s", a.URL, body, resp.Header.Get("Content-Type"))
	}
	srv.AssertNoViolations(t)
}

// TestComponentsV2RulesAreEnforced sends messages Discord refuses for the
// components-v2 rules and checks each is answered 400/50035 and recorded.
func TestComponentsV2RulesAreEnforced(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	b := openBot(t, srv)
	ch := srv.ChannelID()
	board, err := b.ChannelMessageSendComplex(ch, v2Board("board-0.png", "png"))
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	many := make([]discordgo.MessageComponent, 40) // in a container: 41 in all
	for i := range many {
		many[i] = discordgo.TextDisplay{Content: "x"}
	}
	cases := []struct {
		name string
		send func() error
		code string
	}{
		{"content with the flag", func() error {
			m := v2Board("a.png", "png")
			m.Content = "hello"
			_, err := b.ChannelMessageSendComplex(ch, m)
			return err
		}, "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"},
		{"an embed with the flag", func() error {
			m := v2Board("a.png", "png")
			m.Embeds = []*discordgo.MessageEmbed{{Title: "board"}}
			_, err := b.ChannelMessageSendComplex(ch, m)
			return err
		}, "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"},
		{"content in an edit of a components-v2 message", func() error {
			text := "moved"
			_, err := b.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: board.ID, Channel: ch, Content: &text})
			return err
		}, "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"},
		{"a gallery naming a file not uploaded", func() error {
			m := v2Board("a.png", "png")
			m.Files[0].Name = "b.png"
			_, err := b.ChannelMessageSendComplex(ch, m)
			return err
		}, "UNFURLED_MEDIA_ATTACHMENT_NOT_FOUND"},
		{"an edit dropping the picture its gallery shows", func() error {
			m := v2Board("board-0.png", "png")
			m.Files = nil
			_, err := b.ChannelMessageEditComplex(edit(ch, board.ID, m))
			return err
		}, "UNFURLED_MEDIA_ATTACHMENT_NOT_FOUND"},
		{"41 components", func() error {
			_, err := b.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Flags: discordgo.MessageFlagsIsComponentsV2,
				Components: []discordgo.MessageComponent{discordgo.Container{Components: many}}})
			return err
		}, "BASE_TYPE_BAD_LENGTH"},
		{"4,001 characters of text", func() error {
			_, err := b.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Flags: discordgo.MessageFlagsIsComponentsV2, Components: []discordgo.MessageComponent{
				discordgo.TextDisplay{Content: strings.Repeat("x", 2001)}, discordgo.TextDisplay{Content: strings.Repeat("y", 2000)},
			}})
			return err
		}, "BASE_TYPE_BAD_LENGTH"},
		{"removing the flag", func() error {
			_, err := b.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: board.ID, Channel: ch, Flags: discordgo.MessageFlagsSuppressEmbeds})
			return err
		}, "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG"},
	}
	for _, tc := range cases {
		before := len(srv.Violations())
		err := tc.send()
		restError(t, err, 400, discordtest.CodeInvalidFormBody)
		vs := srv.Violations()[before:]
		if len(vs) == 0 || vs[0].Code != tc.code {
			t.Errorf("%s: violations %v, want %s", tc.name, vs, tc.code)
		}
	}
	if m, _ := srv.Message(board.ID); m.Version != 0 || len(m.Attachments) != 1 {
		t.Errorf("refused edits changed the board: version %d, attachments %+v", m.Version, m.Attachments)
	}
}

// TestEditsKeepAttachmentsByID edits a message with two pictures: an edit
// listing one by its ID keeps it without an upload and drops the other, an
// edit naming an ID the message does not carry is refused 400/50035 and
// changes nothing, and the request log counts each request's uploads.
func TestEditsKeepAttachmentsByID(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	b := openBot(t, srv)
	ch := srv.ChannelID()
	send := v2Board("board-0.png", "first")
	send.Files = append(send.Files, &discordgo.File{Name: "extra.png", ContentType: "image/png", Reader: strings.NewReader("extra")})
	sent, err := b.ChannelMessageSendComplex(ch, send)
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	m, _ := srv.Message(sent.ID)
	picture, _ := m.Attachment("board-0.png")
	uploads := func() int { r := srv.Requests(); return len(r[len(r)-1].Files) }
	if n := uploads(); n != 2 {
		t.Errorf("the send uploaded %d files, want 2", n)
	}

	keep := v2Board("board-0.png", "")
	keepEdit := func(id string) *discordgo.MessageEdit {
		return &discordgo.MessageEdit{ID: sent.ID, Channel: ch, Components: &keep.Components,
			Attachments: &[]*discordgo.MessageAttachment{{ID: id, Filename: "board-0.png"}}}
	}
	if _, err := b.ChannelMessageEditComplex(keepEdit(picture.ID)); err != nil {
		t.Fatalf("an edit keeping the picture by its ID: %v", err)
	}
	if n := uploads(); n != 0 {
		t.Errorf("the edit keeping the picture uploaded %d files", n)
	}
	m, _ = srv.Message(sent.ID)
	if len(m.Attachments) != 1 || m.Attachments[0].ID != picture.ID || string(m.Attachments[0].Data) != "first" {
		t.Fatalf("after keeping the picture the message carries %+v, want %s only", m.Attachments, picture.ID)
	}

	_, err = b.ChannelMessageEditComplex(keepEdit("1234567890123"))
	restError(t, err, 400, discordtest.CodeInvalidFormBody)
	if !strings.Contains(err.Error(), "ATTACHMENT_NOT_FOUND") {
		t.Errorf("the refusal %v does not say ATTACHMENT_NOT_FOUND", err)
	}
	if after, _ := srv.Message(sent.ID); after.Version != m.Version || len(after.Attachments) != 1 || after.Attachments[0].ID != picture.ID {
		t.Errorf("the refused edit changed the message: version %d → %d, attachments %+v", m.Version, after.Version, after.Attachments)
	}
	srv.AssertNoViolations(t)
}
