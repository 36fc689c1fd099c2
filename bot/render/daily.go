package render

import (
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
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

// MoveName names a move as the board shows it: the label of the cell it
// plays on (a sliding tile's number), else the move's notation.
func MoveName(gm *games.Game, pos engine.Position, m engine.Move) string {
	for _, row := range gm.Look.Board(pos, nil).Rows {
		for _, c := range row {
			if c.Move == m && c.Label != "" {
				return c.Label
			}
		}
	}
	return pos.FormatMove(m)
}

// puzzleMoveButtons are the buttons of a best-move puzzle's legal moves, each
// built into a custom ID by id.
func puzzleMoveButtons(gm *games.Game, pos engine.Position, id func(move string) string) []discordgo.MessageComponent {
	var buttons []discordgo.MessageComponent
	for _, m := range pos.Moves(make([]engine.Move, 0, engine.MaxMoves)) {
		buttons = append(buttons, button(MoveName(gm, pos, m), "", discordgo.SecondaryButton, id(pos.FormatMove(m))))
	}
	return buttonRows(buttons)
}

// DailyControls are the controls of guild's daily puzzle of day (in pos,
// of gm): a best-move puzzle's moves with Hint and Give up, else Play,
// which starts the member's own attempt.
func DailyControls(l *i18n.Localizer, gm *games.Game, pos engine.Position, guild, day string, bestMove bool) []discordgo.MessageComponent {
	if !bestMove {
		return []discordgo.MessageComponent{row(button(l.T("daily.play"), "🧩", discordgo.PrimaryButton, customid.DailyPlay.Build(guild, day)))}
	}
	rows := puzzleMoveButtons(gm, pos, func(move string) string { return customid.DailyMove.Build(guild, day, move) })
	return append(rows, row(
		button(l.T("daily.hint"), "💡", discordgo.SecondaryButton, customid.DailyHint.Build(guild, day)),
		button(l.T("board.give_up"), "🏳️", discordgo.DangerButton, customid.DailyGiveUp.Build(guild, day)),
	))
}

// PracticeControls are the controls of the practice best-move puzzle of
// kind made from seed, after hints hints: its moves, then Hint (if
// another hint would narrow the moves down, hintLeft) and Give up.
func PracticeControls(l *i18n.Localizer, gm *games.Game, pos engine.Position, kind string, seed uint64, hints int, hintLeft bool) []discordgo.MessageComponent {
	s := strconv.FormatUint(seed, 10)
	rows := puzzleMoveButtons(gm, pos, func(move string) string { return customid.PracticeMove.Build(kind, s, move) })
	var controls []discordgo.MessageComponent
	if hintLeft {
		controls = append(controls, button(l.T("daily.hint"), "💡", discordgo.SecondaryButton, customid.PracticeHint.Build(kind, s, strconv.Itoa(hints+1))))
	}
	controls = append(controls, button(l.T("board.give_up"), "🏳️", discordgo.DangerButton, customid.PracticeGiveUp.Build(kind, s)))
	return append(rows, row(controls...))
}

// PracticeNewRow offers, under a best-move puzzle's answer, a new
// practice puzzle of kind.
func PracticeNewRow(l *i18n.Localizer, kind storage.Kind) []discordgo.MessageComponent {
	return []discordgo.MessageComponent{row(button(l.T("daily.new_puzzle"), "🧩", discordgo.PrimaryButton, customid.PracticeNew.Build(string(kind))))}
}

// newPuzzleRow offers the player of a daily puzzle's game, once it has
// ended, a practice puzzle of the same kind.
func newPuzzleRow(l *i18n.Localizer, g *storage.Game) []discordgo.MessageComponent {
	return []discordgo.MessageComponent{row(
		button(l.T("daily.new_puzzle"), "🧩", discordgo.PrimaryButton, customid.NewPuzzle.Build(string(g.ID))),
	)}
}
