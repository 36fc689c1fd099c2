// Package render decides what Gambit's Discord messages look like: it turns
// games, rules, leaderboards and statistics into message parts (content,
// embeds, components and allowed mentions). Its functions are pure: they do
// no I/O and read nothing but their arguments, so the bot can render the
// same game for an interaction response, an edit or a new message.
//
// A game's message (Game) is a components-v2 message: a container holding
// its text, the board as a picture (package picture, attached as
// board-<ply>.png and shown in a media gallery) and the board again as an
// emoji grid, the text alternative for screen readers and for servers that
// block attachments. The grid is labelled with the coordinates moves are
// typed in: keycap digits for ranks and columns, regional-indicator letters
// for files, kept apart by a zero-width space because two adjacent regional
// indicators render as a national flag. Other messages (help, leaderboards)
// are content and embeds.
//
// Every message respects Discord's limits (at most five action rows, five
// buttons a row, 25 options a select, the text lengths of embeds and
// content, 40 components and 4,000 characters in a components-v2 message),
// and every component's custom ID is built with package customid.
package render

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies"
)

// Message is the visible part of a message, independent of how it is sent
// (interaction response, edit, new message).
type Message struct {
	// Content is the text above the embeds; it carries the only mention
	// that may ping.
	Content string
	// Embeds hold the board or the text of the message.
	Embeds []*discordgo.MessageEmbed
	// Components are the action rows of buttons and selects. Never nil: an
	// empty slice clears a message's components when sent in an edit.
	Components []discordgo.MessageComponent
	// AllowedMentions says who may be pinged; never nil, and it allows at
	// most the one user whose attention the message needs.
	AllowedMentions *discordgo.MessageAllowedMentions
	// Flags is discordgo.MessageFlagsIsComponentsV2 for a components-v2
	// message (a game's board), which has no Content or Embeds: its text
	// is in text display components.
	Flags discordgo.MessageFlags
	// Files are uploaded with the message, replacing the attachments it
	// had: the board's picture, which the components show.
	Files []File
}

// V2 reports whether the message is a components-v2 message.
func (m Message) V2() bool { return m.Flags&discordgo.MessageFlagsIsComponentsV2 != 0 }

// Discord's limits on message text, counted in UTF-16 code units: Discord
// counts characters, and no character takes fewer code units than that.
const (
	maxContent     = 2000
	maxTitle       = 256
	maxDescription = 4096
	maxFieldValue  = 1024
)

// Colours of embeds that are not coloured by a side.
const (
	colourBlurple = 0x5865F2 // a challenge waiting for an answer
	colourGrey    = 0x99AAB5 // a draw, an expired or declined challenge
	colourGold    = 0xFFAC33 // leaderboards and statistics
)

// PlayerName returns how a player of a game of kind is shown: a user as a
// mention <@id>, an AI as "🤖 display name (difficulty)" with its
// difficulty in that game (just "🤖 display name" where kind is "", no
// one game), storage.Anonymous as "deleted user", in l's language.
func PlayerName(l *i18n.Localizer, kind storage.Kind, p storage.Player) string {
	switch p.ID {
	case storage.Anonymous:
		return l.T("board.deleted_user")
	case storage.Anyone:
		return l.T("board.anyone")
	}
	if id, ok := p.ID.UserID(); ok {
		return "<@" + id + ">"
	}
	if name, ok := p.ID.Strategy(); ok {
		if info, err := strategies.Lookup(name); err == nil {
			if d := info.DifficultyIn(string(kind)); d != "" {
				return fmt.Sprintf("🤖 %s (%s)", AIName(l, info), l.T("difficulty."+string(d)))
			}
			return "🤖 " + AIName(l, info)
		}
		return "🤖 " + name
	}
	if p.Name != "" {
		return p.Name
	}
	return string(p.ID)
}

// AIName returns a strategy's display name in l's language.
func AIName(l *i18n.Localizer, info strategies.Info) string {
	return aiText(l, info, "name", info.DisplayName)
}

// AILabel is strategies.Info.Label in l's language: the strategy as a
// player sees it in a list of kind's AIs (without a difficulty where kind
// is "", a list of every game's).
func AILabel(l *i18n.Localizer, kind storage.Kind, info strategies.Info) string {
	blurb := aiText(l, info, "blurb", info.Blurb)
	if d := info.DifficultyIn(string(kind)); d != "" {
		return fmt.Sprintf("%s (%s) — %s", AIName(l, info), l.T("difficulty."+string(d)), blurb)
	}
	return AIName(l, info) + " — " + blurb
}

// aiText returns a strategy's text (ai.<name>.<field>) in l's language, or
// english if the catalogue lacks it.
func aiText(l *i18n.Localizer, info strategies.Info, field, english string) string {
	if id := "ai." + info.Name + "." + field; i18n.Has(id) {
		return l.T(id)
	}
	return english
}

// gameText returns a game's text (game.<name>.<field>) in l's language, or
// english if the catalogue lacks it (a game added without translations).
func gameText(l *i18n.Localizer, gm *games.Game, field, english string, pairs ...any) string {
	if id := "game." + gm.Name + "." + field; i18n.Has(id) {
		return l.T(id, pairs...)
	}
	return english
}

// gameWords puts a game's text about a position into l's language.
func gameWords(l *i18n.Localizer, gm *games.Game, t games.Text) string {
	return gameText(l, gm, t.ID, t.English, t.Args...)
}

// nameOf is PlayerName for a bare player id.
func nameOf(l *i18n.Localizer, kind storage.Kind, id storage.PlayerID) string {
	return PlayerName(l, kind, storage.Player{ID: id})
}

// noPings allows no mention to ping.
func noPings() *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
}

// pingOnly allows exactly the user p to be pinged, or nobody if p is not a
// Discord user.
func pingOnly(p storage.PlayerID) *discordgo.MessageAllowedMentions {
	am := noPings()
	if id, ok := p.UserID(); ok {
		am.Users = []string{id}
	}
	return am
}

// textLen returns the length of s as Discord limits it (see maxContent).
func textLen(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// clip shortens s to at most limit code units, ending it with "…" if it had
// to be cut.
func clip(s string, limit int) string {
	if textLen(s) <= limit {
		return s
	}
	n := 0
	for i, r := range s {
		if n+utf16.RuneLen(r)+1 > limit {
			return s[:i] + "…"
		}
		n += utf16.RuneLen(r)
	}
	return s
}

// ClipWords shortens text for people to at most n runes without cutting a
// word: at the last space that leaves at least half of it, with "…" (an
// autocomplete choice's name, a menu's label).
func ClipWords(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := n - 1
	if sp := strings.LastIndex(string(r[:cut+1]), " "); sp >= 0 && utf8.RuneCountInString(s[:sp]) >= n/2 {
		cut = utf8.RuneCountInString(s[:sp])
	}
	return strings.TrimRight(string(r[:cut]), " —·,") + "…"
}

// fitLines joins lines with newlines, leaving out the lines from the first
// one that would take the text past limit code units; a final "…" line says
// that some were left out.
func fitLines(lines []string, limit int) string {
	var b strings.Builder
	n := 0
	for i, l := range lines {
		add := textLen(l)
		if i > 0 {
			add++
		}
		room := limit - n
		if i < len(lines)-1 {
			room -= 2 // keep room for "\n…"
		}
		if add > room {
			if i > 0 {
				b.WriteString("\n")
			}
			b.WriteString("…")
			break
		}
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(l)
		n += add
	}
	return b.String()
}

// relativeTime returns a Discord timestamp of t in the relative style
// ("in 5 minutes", "2 days ago"), which every reader sees in their own
// language and time zone.
func relativeTime(t time.Time) string { return fmt.Sprintf("<t:%d:R>", t.Unix()) }

// RelativeTime returns a Discord timestamp of t in the relative style
// ("in 5 minutes"), which each member's client shows in their language,
// for the bot's own messages.
func RelativeTime(t time.Time) string { return relativeTime(t) }

// ratingText returns a rating rounded to a whole number, with "?" if it is
// provisional and "(fixed)" if it is an AI's, which games never move.
func ratingText(l *i18n.Localizer, r storage.Rating) string {
	s := fmt.Sprintf("%d", roundRating(r))
	switch {
	case r.Player.IsAI():
		s = l.T("board.fixed", "Rating", s)
	case r.Provisional():
		s += "?"
	}
	return s
}

// roundRating returns a rating rounded to a whole number.
func roundRating(r storage.Rating) int { return int(math.Round(r.Rating)) }

// record returns a rating's wins, losses and draws as "W–L–D".
func record(r storage.Rating) string {
	return fmt.Sprintf("%d–%d–%d", r.Wins, r.Losses, r.Draws)
}

// plural returns a count with its unit in l's language, "1 round" or "n
// rounds", from the catalogue's unit.<unit>; "n unit" for a unit the
// catalogue lacks.
func plural(l *i18n.Localizer, n int, unit string) string {
	if id := "unit." + unit; i18n.Has(id) {
		return l.T(id, "Count", n)
	}
	return fmt.Sprintf("%d %s", n, unit)
}

// tally returns a count of a game's Tally unit in l's language: the
// game's own game.<name>.unit.<unit> (its Texts), else the catalogue's
// unit.<unit>.
func tally(l *i18n.Localizer, gm *games.Game, n int, unit string) string {
	if id := "game." + gm.Name + ".unit." + unit; i18n.Has(id) {
		return l.T(id, "Count", n)
	}
	return plural(l, n, unit)
}

// Duration writes a setting's duration for people: "24 hours",
// "90 minutes", "1.5 seconds".
func Duration(l *i18n.Localizer, d time.Duration) string {
	switch {
	case d > 0 && d%time.Hour == 0:
		return plural(l, int(d/time.Hour), "hour")
	case d > 0 && d%time.Minute == 0:
		return plural(l, int(d/time.Minute), "minute")
	case d == time.Second:
		return plural(l, 1, "second")
	}
	return l.T("unit.second", "Count", strconv.FormatFloat(d.Seconds(), 'f', -1, 64))
}

// Title returns a game kind's name for people, such as "Connect Four"; the
// kind itself for a game no longer registered.
func Title(l *i18n.Localizer, k storage.Kind) string { return gameTitle(l, k) }

// button returns a button with a custom ID.
func button(label, emoji string, style discordgo.ButtonStyle, customID string) discordgo.Button {
	b := discordgo.Button{Label: label, Style: style, CustomID: customID}
	if emoji != "" {
		b.Emoji = &discordgo.ComponentEmoji{Name: emoji}
	}
	return b
}

// row returns an action row of the given components.
func row(cs ...discordgo.MessageComponent) discordgo.ActionsRow {
	return discordgo.ActionsRow{Components: cs}
}
