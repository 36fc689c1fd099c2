package render

import (
	"github.com/gambitbot/gambit/bot/i18n"

	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
)

// unlayout reads a components-v2 message back into content, one embed and
// the action rows — the inverse of layout — so that tests read a board's
// text by its part; a classic message is returned as it is.
func unlayout(m Message) Message {
	if !m.V2() {
		return m
	}
	out := Message{Components: []discordgo.MessageComponent{}, AllowedMentions: m.AllowedMentions}
	e := &discordgo.MessageEmbed{}
	for _, c := range m.Components {
		switch c := c.(type) {
		case discordgo.TextDisplay:
			out.Content = strings.Join(nonEmpty(out.Content, c.Content), "\n")
		case discordgo.Container:
			if c.AccentColor != nil {
				e.Color = *c.AccentColor
			}
			described := false
			for _, cc := range c.Components {
				td, ok := cc.(discordgo.TextDisplay)
				switch {
				case !ok:
				case strings.HasPrefix(td.Content, "### ") && e.Title == "":
					e.Title = strings.TrimPrefix(td.Content, "### ")
				case strings.HasPrefix(td.Content, "-# "):
					e.Footer = &discordgo.MessageEmbedFooter{Text: strings.TrimPrefix(td.Content, "-# ")}
				case !described:
					e.Description, described = td.Content, true
				default:
					name, value, _ := strings.Cut(td.Content, "\n")
					e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: strings.Trim(name, "*"), Value: value})
				}
			}
		default:
			out.Components = append(out.Components, c)
		}
	}
	out.Embeds = []*discordgo.MessageEmbed{e}
	return out
}

// nonEmpty returns its non-empty arguments.
func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// rows returns a message's action rows.
func rows(m Message) []discordgo.MessageComponent { return unlayout(m).Components }

// content returns what a message says above its board: its content, or
// the text displays above a components-v2 message's container.
func content(m Message) string { return unlayout(m).Content }

// embed returns a message's embed, or the embed a components-v2 message's
// container stands for.
func embed(m Message) *discordgo.MessageEmbed { return unlayout(m).Embeds[0] }

// v2Problems lists what Discord would refuse in a components-v2 message:
// content or embeds, more than 40 components or 4,000 characters of text,
// an empty text display, an attachment:// reference to no file of the
// message, a file no component shows.
func v2Problems(m Message) []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if m.Content != "" || len(m.Embeds) > 0 {
		bad("a components-v2 message has content %q or %d embeds", m.Content, len(m.Embeds))
	}
	files := map[string]bool{}
	for _, f := range m.Files {
		files[f.Name] = false
		if err := decodePNG(f.Data); err != nil || f.ContentType != "image/png" {
			bad("file %s (%s) is not a PNG: %v", f.Name, f.ContentType, err)
		}
	}
	count, text := 0, 0
	var walk func(cs []discordgo.MessageComponent)
	walk = func(cs []discordgo.MessageComponent) {
		for _, c := range cs {
			count++
			switch c := c.(type) {
			case discordgo.TextDisplay:
				if strings.TrimSpace(c.Content) == "" {
					bad("an empty text display")
				}
				text += units(c.Content)
			case discordgo.Container:
				walk(c.Components)
			case discordgo.ActionsRow:
				walk(c.Components)
			case discordgo.MediaGallery:
				for _, it := range c.Items {
					name, ok := strings.CutPrefix(it.Media.URL, "attachment://")
					if _, found := files[name]; !ok || !found {
						bad("gallery shows %q, not a file of the message", it.Media.URL)
					}
					files[name] = true
					if it.Description == nil || *it.Description == "" {
						bad("gallery item %q has no description for screen readers", it.Media.URL)
					}
				}
			}
		}
	}
	walk(m.Components)
	if count > MaxV2Components {
		bad("%d components, limit %d", count, MaxV2Components)
	}
	if text > MaxV2Text {
		bad("%d characters of text, limit %d", text, MaxV2Text)
	}
	for name, shown := range files {
		if !shown {
			bad("file %s is attached but not shown", name)
		}
	}
	return out
}

// texts joins the text displays of a component tree.
func texts(cs []discordgo.MessageComponent) string {
	var out []string
	for _, c := range cs {
		switch c := c.(type) {
		case discordgo.TextDisplay:
			out = append(out, c.Content)
		case discordgo.Container:
			out = append(out, texts(c.Components))
		}
	}
	return strings.Join(out, "\n")
}

// TestBoardsAreComponentsV2 checks that every game's board is a
// components-v2 message with its picture, named after the ply, in a
// gallery and the emoji grid still in its text, and that a board that
// cannot be drawn has no picture.
func TestBoardsAreComponentsV2(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, gm := range catalog.All() {
		kind := storage.Kind(gm.Name)
		t.Run(gm.Name, func(t *testing.T) {
			pos, moves := play(t, kind, 8, rng, 2)
			g := newGame(kind, storage.StatusActive, alice, bob)
			seat(g, pos, moves, 0)
			m := Game(View{Game: g, Pos: pos})
			checkDiscord(t, m)
			if !m.V2() || len(m.Files) != 1 || m.Files[0].Name != "board-2.png" {
				t.Fatalf("flags %v, files %v: want a components-v2 message with board-2.png", m.Flags, m.Files)
			}
			grid := grid(gm.Look, gm.Look.Board(pos, lastChange(g)))
			if !strings.Contains(texts(m.Components), grid) {
				t.Errorf("the emoji grid is missing from the text:\n%s", texts(m.Components))
			}
			g.Status, g.Position = storage.StatusCancelled, "garbled"
			if m := Game(View{Game: g}); len(m.Files) != 0 || !m.V2() {
				t.Errorf("a board that cannot be drawn: files %v, flags %v", m.Files, m.Flags)
			}
		})
	}
}

// BenchmarkBoardMessage measures what the picture adds to every board the
// bot sends: "picture" draws and encodes the board's PNG alone, "full"
// renders the whole board message (picture included), and "multipart"
// also builds the multipart/form-data request body discordgo uploads,
// reporting its size; "full-id" is "full" in Indonesian. The picture's cost per move is "picture", plus
// multipart − full for the upload's body.
func BenchmarkBoardMessage(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, gm := range catalog.All() {
		kind := storage.Kind(gm.Name)
		pos, moves := play(&testing.T{}, kind, 8, rng, 12)
		g := newGame(kind, storage.StatusActive, alice, bob)
		seat(g, pos, moves, 0)
		v := View{Game: g, Pos: pos}
		board := gm.Look.Board(pos, lastChange(g))
		b.Run(gm.Name+"/picture", func(b *testing.B) {
			for b.Loop() {
				if boardPicture(en, gm, board, Ply(g)) == nil {
					b.Fatal("no picture")
				}
			}
		})
		b.Run(gm.Name+"/full", func(b *testing.B) {
			for b.Loop() {
				Game(v)
			}
		})
		b.Run(gm.Name+"/full-id", func(b *testing.B) {
			v := v
			v.Lang = i18n.For(i18n.Indonesian)
			for b.Loop() {
				Game(v)
			}
		})
		b.Run(gm.Name+"/multipart", func(b *testing.B) {
			var size int
			for b.Loop() {
				m := Game(v)
				files := []*discordgo.File{{Name: m.Files[0].Name, ContentType: m.Files[0].ContentType, Reader: bytes.NewReader(m.Files[0].Data)}}
				_, body, err := discordgo.MultipartBodyWithJSON(&discordgo.InteractionResponse{
					Type: discordgo.InteractionResponseUpdateMessage,
					Data: &discordgo.InteractionResponseData{Components: m.Components, Flags: m.Flags, Files: files},
				}, files)
				if err != nil {
					b.Fatal(err)
				}
				size = len(body)
			}
			b.ReportMetric(float64(size), "bytes/body")
		})
	}
}
