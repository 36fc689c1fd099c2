package render

import (
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/storage"
)

// maxRowButtons is Discord's limit on the buttons of one action row, and
// maxRows on the action rows of a message.
const (
	maxRowButtons = 5
	maxRows       = 5
)

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
func resignButton(l *i18n.Localizer, g *storage.Game) discordgo.Button {
	label := l.T("board.resign")
	if g.Solo() {
		label = l.T("board.give_up")
	}
	return button(label, "🏳️", discordgo.DangerButton, customid.Resign.Build(string(g.ID), Ply(g)))
}

// controls are the buttons beside a board's moves: a solo puzzle's Give
// up; a duel's Resign with, while the game may still be called off
// without a result, Abort, and after that, in a game between people,
// Offer draw, or Accept and Decline draw while one is offered. Two buttons
// but for an offer's answer, so that they fit beside Adjacency's and
// Othello's last files.
func controls(l *i18n.Localizer, g *storage.Game) []discordgo.MessageComponent {
	c := []discordgo.MessageComponent{resignButton(l, g)}
	if g.Solo() {
		return c
	}
	id, ply := string(g.ID), Ply(g)
	switch {
	case g.Abortable():
		c = append(c, button(l.T("board.abort"), "✖️", discordgo.SecondaryButton, customid.Abort.Build(id, ply)))
	case !g.BetweenPeople():
	case g.DrawOffer == nil:
		c = append(c, button(l.T("board.offer_draw"), "🤝", discordgo.SecondaryButton, customid.DrawOffer.Build(id, ply)))
	default:
		c = append(c,
			button(l.T("board.accept_draw"), "🤝", discordgo.SuccessButton, customid.DrawAccept.Build(id, ply)),
			button(l.T("board.decline_draw"), "", discordgo.SecondaryButton, customid.DrawDecline.Build(id, ply)))
	}
	return c
}

// moveComponents returns the components of an active game: the moves, in
// the layout of the game's plug-in, if play is true (a person is to move),
// and a Resign button (a solo puzzle's row of help and Give up).
func moveComponents(l *i18n.Localizer, g *storage.Game, gm *games.Game, pos engine.Position, play bool) []discordgo.MessageComponent {
	switch gm.Input.Layout {
	case games.Menus:
		if play && gm.Input.Columns {
			board := gm.Look.Board(pos, nil)
			var rows []discordgo.MessageComponent
			if g.Solo() { // a puzzle's help and Give up fill a row
				rows = append(columnRows(g, board, pos, -1), controlRow(l, g))
			} else {
				rows = columnRows(g, board, pos, -1, controls(l, g)...)
			}
			m := menus(l, g, gm, pos)
			if gm.Input.Picks != nil {
				m = picksMenu(l, g, gm, pos)
			}
			return append(rows, m[:min(len(m), maxRows-len(rows))]...)
		}
		if play {
			return append(menus(l, g, gm, pos), controlRow(l, g))
		}
	case games.MoveButtons:
		if play {
			return moveButtons(l, g, pos)
		}
	case games.BoardButtons:
		return append(boardButtons(g, gm, pos, play), controlRow(l, g))
	}
	return []discordgo.MessageComponent{controlRow(l, g)}
}

// placeholder returns a menu's placeholder in l's language: the
// catalogue's game.<name>.menu.<n>, or game.<name>.menu given N, From and
// To (the menu's first and last options), or the plug-in's own with From
// and To put in.
func placeholder(l *i18n.Localizer, gm *games.Game, n int, english, from, to string) string {
	if id := "game." + gm.Name + ".menu." + strconv.Itoa(n); i18n.Has(id) {
		return l.T(id)
	}
	english = strings.NewReplacer("{{.From}}", from, "{{.To}}", to).Replace(english)
	return gameText(l, gm, "menu", english, "N", n, "From", from, "To", to)
}

// menus returns one select of legal moves per group of the game's input
// that has any, each in its own action row, the options in the input's
// order and described by its hint.
func menus(l *i18n.Localizer, g *storage.Game, gm *games.Game, pos engine.Position) []discordgo.MessageComponent {
	moves := pos.Moves(make([]engine.Move, 0, engine.MaxMoves))
	if gm.Input.Order != nil {
		slices.SortFunc(moves, gm.Input.Order)
	}
	var rows []discordgo.MessageComponent
	for i, grp := range gm.Input.Groups {
		var opts []discordgo.SelectMenuOption
		for _, m := range moves {
			if grp.Has(m) {
				opts = append(opts, moveOption(l, gm, pos, m))
			}
		}
		if len(opts) > 0 {
			rows = append(rows, selectMenu(g, i+1, placeholder(l, gm, i+1, grp.Placeholder, opts[0].Label, opts[len(opts)-1].Label), opts))
		}
	}
	return rows
}

// moveOption is the menu option of the move m of pos: its name, described
// by the input's hint.
func moveOption(l *i18n.Localizer, gm *games.Game, pos engine.Position, m engine.Move) discordgo.SelectMenuOption {
	name := pos.FormatMove(m)
	opt := discordgo.SelectMenuOption{Label: name, Value: name}
	if gm.Input.Hint != nil {
		opt.Description = gameWords(l, gm, gm.Input.Hint(pos, m))
	}
	return opt
}

// selectMenu is the action row of a menu of moves of g, group n (0 for
// the picks), one choice among opts.
func selectMenu(g *storage.Game, n int, placeholder string, opts []discordgo.SelectMenuOption) discordgo.MessageComponent {
	one := 1
	return row(discordgo.SelectMenu{
		CustomID:    customid.Pick.Build(string(g.ID), Ply(g), strconv.Itoa(n)),
		Placeholder: placeholder,
		MinValues:   &one,
		MaxValues:   1,
		Options:     opts,
	})
}

// picksMenu returns the one select of the game's Picks under its column
// buttons, none when it picks no move; its custom ID's group is 0, which
// no Groups' menu has.
func picksMenu(l *i18n.Localizer, g *storage.Game, gm *games.Game, pos engine.Position) []discordgo.MessageComponent {
	var opts []discordgo.SelectMenuOption
	for _, m := range gm.Input.Picks(pos) {
		opts = append(opts, moveOption(l, gm, pos, m))
	}
	if len(opts) == 0 {
		return nil
	}
	return []discordgo.MessageComponent{selectMenu(g, 0, gameText(l, gm, "picks", gm.Input.PicksPlaceholder), opts[:min(len(opts), games.MaxPicks)])}
}

// moveButtons returns a button per legal move, five to a row, with the
// board's controls in the last row if it has room, else in a row of their
// own. It is called only for a game that is not over, which has a legal
// move.
func moveButtons(l *i18n.Localizer, g *storage.Game, pos engine.Position) []discordgo.MessageComponent {
	var buttons []discordgo.MessageComponent
	for _, m := range pos.Moves(make([]engine.Move, 0, engine.MaxMoves)) {
		move := pos.FormatMove(m)
		buttons = append(buttons, button(move, "", discordgo.PrimaryButton, moveID(g, move)))
	}
	return withExtra(buttonRows(buttons), controls(l, g))
}

// buttonRows lays buttons out five to a row.
func buttonRows(buttons []discordgo.MessageComponent) []discordgo.MessageComponent {
	var rows []discordgo.MessageComponent
	for len(buttons) > 0 {
		n := min(len(buttons), maxRowButtons)
		rows = append(rows, row(buttons[:n]...))
		buttons = buttons[n:]
	}
	return rows
}

// withExtra adds extra buttons to rows: in the last row if it has room,
// else in a row of their own.
func withExtra(rows, extra []discordgo.MessageComponent) []discordgo.MessageComponent {
	if last := len(rows) - 1; last >= 0 && len(rows[last].(discordgo.ActionsRow).Components)+len(extra) <= maxRowButtons {
		r := rows[last].(discordgo.ActionsRow)
		rows[last] = row(append(r.Components, extra...)...)
	} else if len(extra) > 0 {
		rows = append(rows, row(extra...))
	}
	return rows
}

// boardButtons returns the board model as rows of buttons: marked cells
// disabled with their mark (the last move in the primary style), empty
// cells with their label, clickable if play is true and the move is legal,
// and an empty cell without a label (a sliding puzzle's blank) disabled
// with its emoji.
func boardButtons(g *storage.Game, gm *games.Game, pos engine.Position, play bool) []discordgo.MessageComponent {
	board := gm.Look.Board(pos, lastChange(g))
	rows := make([]discordgo.MessageComponent, 0, len(board.Rows))
	for i, r := range board.Rows {
		cells := make([]discordgo.MessageComponent, 0, len(r))
		for j, c := range r {
			// A cell no move plays on (a sliding tile away from the
			// blank) is named by its place, which plays nothing.
			move := "r" + strconv.Itoa(i+1) + "c" + strconv.Itoa(j+1)
			if c.Move != engine.NoMove {
				move = pos.FormatMove(c.Move)
			}
			style := discordgo.SecondaryButton
			if c.Last {
				style = discordgo.PrimaryButton
			}
			var b discordgo.Button
			switch {
			case c.Occupied:
				b = button("", gm.Look.Mark[c.Side], style, moveID(g, move))
				b.Disabled = true
			case c.Label == "":
				b = button("", cellEmoji(gm.Look, c), style, moveID(g, move))
				b.Disabled = true
			default:
				b = button(c.Label, "", style, moveID(g, move))
				b.Disabled = !play || c.Move == engine.NoMove || !pos.Legal(c.Move)
			}
			cells = append(cells, b)
		}
		rows = append(rows, row(cells...))
	}
	return rows
}

// columnRows returns a button per column of a board model, labelled with
// the column's label and enabled if a legal move is in it, five to a row;
// the column chosen (-1 for none) is highlighted and disabled. extra
// buttons (the board's controls) join the last row if it has room, else a row of their
// own.
func columnRows(g *storage.Game, board games.Board, pos engine.Position, chosen int, extra ...discordgo.MessageComponent) []discordgo.MessageComponent {
	var buttons []discordgo.MessageComponent
	for col, label := range board.ColLabels {
		b := button(label, "", discordgo.SecondaryButton, customid.File.Build(string(g.ID), Ply(g), label))
		b.Disabled = len(legalIn(board, pos, col)) == 0
		if col == chosen {
			b.Style, b.Disabled = discordgo.PrimaryButton, true
		}
		buttons = append(buttons, b)
	}
	return withExtra(buttonRows(buttons), extra)
}

// legalIn returns the rows of a board model's column whose cell is a
// legal move of pos (an occupied one too: an N-Queens queen's square
// lifts it).
func legalIn(board games.Board, pos engine.Position, col int) []int {
	var out []int
	for r, cells := range board.Rows {
		if col < len(cells) && cells[col].Move != engine.NoMove && pos.Legal(cells[col].Move) {
			out = append(out, r)
		}
	}
	return out
}

// pickColour draws the cells a picker offers.
const pickColour = "🟨"

// CellPicker returns the second step of a two-click move (games.Input's
// Columns), shown to the mover alone: the board with the legal cells of
// the chosen column highlighted, a button per cell of that column
// (labelled with its row and the game's tag, "3 · +2", the legal ones
// enabled), and the column buttons to choose another column where they
// fit beside the cells in Discord's five action rows. ok is false
// if the board has no column named col.
func CellPicker(l *i18n.Localizer, g *storage.Game, pos engine.Position, col string) (msg Message, ok bool) {
	gm := gameOf(g.Kind)
	if gm == nil || pos == nil {
		return Message{}, false
	}
	board := gm.Look.Board(pos, lastChange(g))
	chosen := slices.Index(board.ColLabels, col)
	if chosen < 0 {
		return Message{}, false
	}
	legal := legalIn(board, pos, chosen)
	// The preview: every empty cell drawn by its label, the offered ones
	// in the picker's colour (a label that is not a letter or a digit is
	// drawn as it is).
	look := gm.Look
	look.Empty = ""
	for r, cells := range board.Rows {
		for c := range cells {
			switch {
			case cells[c].Occupied:
			case c == chosen && slices.Contains(legal, r):
				cells[c].Label, cells[c].Emoji = pickColour, ""
			default:
				cells[c].Label = gm.Look.Empty
			}
		}
	}
	var cells []discordgo.MessageComponent
	for _, r := range pickerRows(gm, board, chosen) {
		cell := board.Rows[r][chosen]
		move := pos.FormatMove(cell.Move)
		label := board.RowLabels[r]
		b := button(label, "", discordgo.SecondaryButton, customid.Cell.Build(string(g.ID), Ply(g), move))
		if slices.Contains(legal, r) {
			b.Style = discordgo.PrimaryButton
			if gm.Input.Tag != nil {
				if tag := gm.Input.Tag(pos, cell.Move); tag != "" {
					b.Label += " · " + tag
				}
			}
		} else {
			b.Disabled = true
		}
		cells = append(cells, b)
	}
	rows := balancedRows(cells)
	// The column buttons to choose another column, where Discord's five
	// rows leave room (a 15×15 board's 15 rows and 15 columns take six):
	// the board's own column buttons still do it.
	if cols := columnRows(g, board, pos, chosen); len(rows)+len(cols) <= maxRows {
		rows = append(rows, cols...)
	}
	text := gameText(l, gm, "prompt", gm.Input.Prompt(col), "Column", col) + "\n" + grid(look, board)
	return Message{Content: clip(text, maxContent), Components: rows, AllowedMentions: noPings()}, true
}

// pickerRows returns the rows of a board model's column in the order the
// picker lists them: the game's order of moves (games.Input.Order, the
// order of its menus), so that Adjacency, whose rank 1 is drawn at the
// bottom, and Othello, whose row 1 is on top, both read a1, a2, …; the
// model's order, top row first, where the game gives none.
func pickerRows(gm *games.Game, board games.Board, col int) []int {
	rows := make([]int, len(board.Rows))
	for r := range rows {
		rows[r] = r
	}
	if order := gm.Input.Order; order != nil {
		slices.SortStableFunc(rows, func(a, b int) int { return order(board.Rows[a][col].Move, board.Rows[b][col].Move) })
	}
	return rows
}

// balancedRows puts buttons in as few rows as Discord allows, as evenly as
// possible (8 buttons: two rows of 4).
func balancedRows(buttons []discordgo.MessageComponent) []discordgo.MessageComponent {
	n := (len(buttons) + maxRowButtons - 1) / maxRowButtons
	var rows []discordgo.MessageComponent
	for i := range n {
		lo, hi := i*len(buttons)/n, (i+1)*len(buttons)/n
		rows = append(rows, row(buttons[lo:hi]...))
	}
	return rows
}

// ShownControl returns the parameters of the first component of a
// message, in rows, whose custom ID matches one of patterns: what a
// message shows, read back from its components.
func ShownControl(components []discordgo.MessageComponent, patterns ...customid.Pattern) (customid.Params, bool) {
	for _, c := range components {
		var id string
		switch c := c.(type) {
		case *discordgo.ActionsRow:
			if params, ok := ShownControl(c.Components, patterns...); ok {
				return params, true
			}
		case *discordgo.Button:
			id = c.CustomID
		case *discordgo.SelectMenu:
			id = c.CustomID
		}
		for _, pattern := range patterns {
			if params, ok := pattern.Match(id); ok {
				return params, true
			}
		}
	}
	return nil, false
}

// ShownPly returns the ply the controls of a game's board message carry,
// "" if none does: which position the board shows.
func ShownPly(components []discordgo.MessageComponent) string {
	params, _ := ShownControl(components, customid.Move, customid.Pick, customid.File, customid.Resign)
	return params["ply"]
}
