package render

import (
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/render/picture"
	"github.com/gambitbot/gambit/games"
)

// File is a file sent with a message, referenced by its components as
// attachment://Name.
type File struct {
	Name        string
	ContentType string
	Data        []byte
	// Alt describes the picture for screen readers; not uploaded.
	Alt string
}

// Discord's limits on a components-v2 message (flag IS_COMPONENTS_V2).
const (
	// MaxV2Components is the most components, counted recursively, a
	// components-v2 message may have.
	MaxV2Components = 40
	// MaxV2Text is the most characters the text displays of a
	// components-v2 message may hold together.
	MaxV2Text = 4000
)

// maxAlt is the most characters of a media gallery item's description.
const maxAlt = 1024

// drawPNG draws a board's picture: picture.PNG, which MemoizePictures
// and the package's tests replace to draw each board once, under -race,
// where a picture costs a tenth of a second.
var drawPNG = picture.PNG

// boardPicture draws a board as a PNG named after the game's ply, so that
// every move gets a new name and no client shows a cached older board,
// described for screen readers by a line that says what is on it
// (boardSummary). It returns nil if the board cannot be drawn: the emoji
// grid shows it instead.
func boardPicture(l *i18n.Localizer, gm *games.Game, board games.Board, ply string) *File {
	data, err := drawPNG(gm.Look, board)
	if err != nil {
		return nil
	}
	alt := clip(l.T("board.picture_alt", "Game", gameText(l, gm, "title", gm.Title), "Summary", boardSummary(l, gm, board)), maxAlt)
	return &File{Name: "board-" + ply + ".png", ContentType: "image/png", Data: data, Alt: alt}
}

// layout turns a message drawn as content and one embed into a
// components-v2 message: the content (the ping and notice) as a text
// display on top, then a container in the embed's colour holding the
// title as a heading, the picture (if any) in a media gallery, the
// description, the fields and the footer as small print, and the action
// rows after the container. The text is fitted to MaxV2Text, the
// description giving way first, line by line.
func layout(msg Message, pic *File) Message {
	out := Message{
		Flags:           discordgo.MessageFlagsIsComponentsV2,
		AllowedMentions: msg.AllowedMentions,
		Components:      []discordgo.MessageComponent{},
	}
	var e discordgo.MessageEmbed
	if len(msg.Embeds) > 0 {
		e = *msg.Embeds[0]
	}
	var head, tail []string
	if e.Title != "" {
		head = append(head, "### "+e.Title)
	}
	for _, f := range e.Fields {
		tail = append(tail, "**"+f.Name+"**\n"+f.Value)
	}
	if e.Footer != nil && e.Footer.Text != "" {
		tail = append(tail, "-# "+e.Footer.Text)
	}
	used := textLen(msg.Content)
	for _, s := range append(head, tail...) {
		used += textLen(s)
	}
	var inside []discordgo.MessageComponent
	for _, s := range head {
		inside = append(inside, discordgo.TextDisplay{Content: s})
	}
	if pic != nil {
		alt := pic.Alt
		inside = append(inside, discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{{
			Media: discordgo.UnfurledMediaItem{URL: "attachment://" + pic.Name}, Description: &alt,
		}}})
		out.Files = []File{*pic}
	}
	if d := fitLines(strings.Split(e.Description, "\n"), MaxV2Text-used); strings.TrimSpace(d) != "" {
		inside = append(inside, discordgo.TextDisplay{Content: d})
	}
	for _, s := range tail {
		inside = append(inside, discordgo.TextDisplay{Content: s})
	}
	if msg.Content != "" {
		out.Components = append(out.Components, discordgo.TextDisplay{Content: msg.Content})
	}
	if len(inside) > 0 {
		colour := e.Color
		out.Components = append(out.Components, discordgo.Container{AccentColor: &colour, Components: inside})
	}
	out.Components = append(out.Components, msg.Components...)
	return out
}

// Note renders a short text as a components-v2 message without
// components, for a board message that is retired (moved, or its game
// cancelled): an edit cannot take a components-v2 message back to
// content.
func Note(text string) Message {
	return Message{
		Flags:           discordgo.MessageFlagsIsComponentsV2,
		Components:      []discordgo.MessageComponent{discordgo.TextDisplay{Content: clip(text, MaxV2Text)}},
		AllowedMentions: noPings(),
	}
}
