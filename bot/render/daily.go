package render

import (
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/storage"
)

// colourPuzzle colours the daily puzzle's messages.
const colourPuzzle = 0x3BA55C

// Puzzle renders a puzzle shown apart from any game: the daily puzzle's
// post and /daily's answer, and a practice "find the best move"
// position. It shows title, the picture of pos (a position of the game
// kind), the lines of text under it and the components after it. The
// picture is named after name, so that each puzzle's has its own.
func Puzzle(l *i18n.Localizer, kind storage.Kind, pos engine.Position, name, title string, lines []string, components []discordgo.MessageComponent) Message {
	msg := Message{
		Embeds:          []*discordgo.MessageEmbed{{Title: clip(title, maxTitle), Description: strings.Join(lines, "\n"), Color: colourPuzzle}},
		Components:      components,
		AllowedMentions: noPings(),
	}
	var pic *File
	if gm := gameOf(kind); gm != nil && pos != nil {
		pic = boardPicture(l, gm, gm.Look.Board(pos, nil), name)
	}
	return layout(msg, pic)
}

// Button is a button of a puzzle's message.
func Button(label, emoji string, style discordgo.ButtonStyle, customID string) discordgo.Button {
	return button(label, emoji, style, customID)
}

// ButtonRows lays buttons out in action rows of at most five.
func ButtonRows(buttons []discordgo.MessageComponent) []discordgo.MessageComponent {
	return buttonRows(buttons)
}

// newPuzzleRow offers the player of a daily puzzle's game, once it has
// ended, a practice puzzle of the same kind.
func newPuzzleRow(l *i18n.Localizer, g *storage.Game) []discordgo.MessageComponent {
	return []discordgo.MessageComponent{row(
		button(l.T("daily.new_puzzle"), "🧩", discordgo.PrimaryButton, customid.NewPuzzle.Build(string(g.ID))),
	)}
}
