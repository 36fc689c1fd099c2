package render

import (
	"slices"
	"strconv"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/engine/tictactoe"
	"github.com/gambitbot/gambit/storage"
)

// maxRowButtons is Discord's limit on the buttons of one action row.
const maxRowButtons = 5

// Ply returns the board version that move, pick and resign custom IDs
// carry: the number of moves played. A click on a board drawn before the
// last move names an older ply and is refused as stale. (The store's
// record version would not do: it also grows when nothing on the board
// changes, such as when a board message is re-posted.)
func Ply(g *storage.Game) string { return strconv.Itoa(len(g.Moves)) }

// moveID returns the custom ID of a button that plays move (in the game's
// notation) on the board of g's ply.
func moveID(g *storage.Game, move string) string {
	return customid.Move.Build(string(g.ID), Ply(g), move)
}

// resignButton asks to resign g; the bot then asks for confirmation.
func resignButton(g *storage.Game) discordgo.Button {
	return button("Resign", "🏳️", discordgo.DangerButton, customid.Resign.Build(string(g.ID), Ply(g)))
}

// rematchRow offers the players of an ended game a new one.
func rematchRow(g *storage.Game) []discordgo.MessageComponent {
	return []discordgo.MessageComponent{row(
		button("Rematch", "🔁", discordgo.PrimaryButton, customid.Rematch.Build(string(g.ID))),
	)}
}

// moveComponents returns the components of an active game: the moves if
// play is true (a person is to move), and a Resign button.
func moveComponents(g *storage.Game, pos engine.Position, play bool) []discordgo.MessageComponent {
	switch p := pos.(type) {
	case *adjacency.Position:
		if play {
			return append(adjacencySelects(g, p), row(resignButton(g)))
		}
	case *connect4.Position:
		if play {
			return connect4Rows(g, p)
		}
	case *tictactoe.Position:
		return append(tictactoeRows(g, p, play), row(resignButton(g)))
	}
	return []discordgo.MessageComponent{row(resignButton(g))}
}

// rankGroups are the ranks (0-based, inclusive) of Adjacency's selects:
// at most 24 cells each, within Discord's 25 options.
var rankGroups = [...]struct {
	lo, hi      int
	placeholder string
}{
	{0, 2, "Ranks 1–3: choose a cell"},
	{3, 5, "Ranks 4–6: choose a cell"},
	{6, 7, "Ranks 7–8: choose a cell"},
}

// adjacencySelects returns one select of legal cells per group of ranks
// that has any, each in its own action row. Options are sorted by name
// (a1, a2, …, b1, …) and say how many marks each move would capture.
func adjacencySelects(g *storage.Game, p *adjacency.Position) []discordgo.MessageComponent {
	moves := p.Moves(make([]engine.Move, 0, engine.MaxMoves))
	slices.SortFunc(moves, func(a, b engine.Move) int {
		return 8*(int(a%8)-int(b%8)) + int(a/8) - int(b/8)
	})
	var rows []discordgo.MessageComponent
	one := 1
	for i, grp := range rankGroups {
		var opts []discordgo.SelectMenuOption
		for _, m := range moves {
			if r := int(m / 8); r < grp.lo || r > grp.hi {
				continue
			}
			name := adjacency.CellName(m)
			opts = append(opts, discordgo.SelectMenuOption{
				Label:       name,
				Value:       name,
				Description: "captures " + strconv.Itoa(p.Captures(m)),
			})
		}
		if len(opts) == 0 {
			continue
		}
		rows = append(rows, row(discordgo.SelectMenu{
			CustomID:    customid.Pick.Build(string(g.ID), Ply(g), strconv.Itoa(i+1)),
			Placeholder: grp.placeholder,
			MinValues:   &one,
			MaxValues:   1,
			Options:     opts,
		}))
	}
	return rows
}

// connect4Rows returns a button per playable column, up to five in the
// first row and the rest with Resign in the second. It is called only for
// a game that is not over, which has a playable column.
func connect4Rows(g *storage.Game, p *connect4.Position) []discordgo.MessageComponent {
	var buttons []discordgo.MessageComponent
	for _, m := range p.Moves(make([]engine.Move, 0, engine.MaxMoves)) {
		col := p.FormatMove(m)
		buttons = append(buttons, button(col, "", discordgo.PrimaryButton, moveID(g, col)))
	}
	n := min(len(buttons), maxRowButtons)
	return []discordgo.MessageComponent{
		row(buttons[:n]...),
		row(append(buttons[n:], resignButton(g))...),
	}
}

// tictactoeRows returns the board as three rows of three buttons: marked
// cells disabled with their mark (the last move in the primary style),
// empty cells with their number, clickable if play is true.
func tictactoeRows(g *storage.Game, p *tictactoe.Position, play bool) []discordgo.MessageComponent {
	last := lastMove(p, g.Moves)
	rows := make([]discordgo.MessageComponent, 0, 3)
	for r := range 3 {
		cells := make([]discordgo.MessageComponent, 0, 3)
		for col := range 3 {
			c := engine.Move(3*r + col)
			cell := p.FormatMove(c)
			var b discordgo.Button
			if s, ok := p.Mark(c); ok {
				style := discordgo.SecondaryButton
				if c == last {
					style = discordgo.PrimaryButton
				}
				b = button("", tictactoePalette.mark[s], style, moveID(g, cell))
				b.Disabled = true
			} else {
				b = button(cell, "", discordgo.SecondaryButton, moveID(g, cell))
				b.Disabled = !play || !p.Legal(c)
			}
			cells = append(cells, b)
		}
		rows = append(rows, row(cells...))
	}
	return rows
}
