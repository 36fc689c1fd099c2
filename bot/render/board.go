package render

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
)

// gameOf returns the plug-in of a game kind, or nil for a kind no longer
// registered.
func gameOf(k storage.Kind) *games.Game {
	g, err := catalog.Lookup(string(k))
	if err != nil {
		return nil
	}
	return g
}

// cornerEmoji fills the corner left of the column labels.
const cornerEmoji = "⬛"

// zwsp keeps regional-indicator letters apart, which would otherwise pair
// up into flags.
const zwsp = "\u200b"

// keycap returns the keycap emoji of a digit 0–9, such as "4️⃣".
func keycap(d int) string { return strconv.Itoa(d) + "\uFE0F\u20E3" }

// labelEmoji draws a board label: a digit as a keycap, 10 as 🔟, a letter
// a–z as a regional-indicator letter (🇦–🇿), anything else as it is.
func labelEmoji(label string) string {
	if label == "10" {
		return "🔟"
	}
	if len(label) == 1 {
		switch c := label[0]; {
		case c >= '0' && c <= '9':
			return keycap(int(c - '0'))
		case c >= 'a' && c <= 'z':
			return string(rune(0x1F1E6 + int(c-'a')))
		}
	}
	return label
}

// wideLabel draws a row label of up to two digits two emoji wide: a
// keycap per digit, one digit after the corner's square.
func wideLabel(label string) string {
	var sb strings.Builder
	if len(label) == 1 {
		sb.WriteString(cornerEmoji)
	}
	for _, c := range label {
		if c < '0' || c > '9' {
			return label
		}
		sb.WriteString(keycap(int(c - '0')))
	}
	return sb.String()
}

// isLetterLabel reports whether label is drawn as a regional indicator.
func isLetterLabel(label string) bool { return len(label) == 1 && label[0] >= 'a' && label[0] <= 'z' }

// cellEmoji draws one cell of a board model with a game's palette.
func cellEmoji(look games.Look, c games.Cell) string {
	switch {
	case c.Emoji != "":
		return c.Emoji
	case c.Occupied && c.Last:
		return look.Last[c.Side]
	case c.Occupied:
		return look.Mark[c.Side]
	case look.Empty != "":
		return look.Empty
	}
	return labelEmoji(c.Label)
}

// isRegional reports whether s is one regional-indicator letter.
func isRegional(s string) bool {
	r := []rune(s)
	return len(r) == 1 && r[0] >= 0x1F1E6 && r[0] <= 0x1F1FF
}

// grid draws a board model as an emoji grid: row labels on the left,
// column labels below (with a corner piece when both are there).
func grid(look games.Look, b games.Board) string {
	rowLabel, corner := labelEmoji, cornerEmoji
	if slices.ContainsFunc(b.RowLabels, func(l string) bool { return len(l) > 1 && labelEmoji(l) == l }) {
		// A label no one emoji draws (Gomoku's rows 11–15) would sit
		// narrower than the others and shift its row: every row label is
		// then two emoji wide, its digits as keycaps.
		rowLabel, corner = wideLabel, cornerEmoji+cornerEmoji
	}
	var sb strings.Builder
	for i, row := range b.Rows {
		if i > 0 {
			sb.WriteString("\n")
		}
		if b.RowLabels != nil {
			sb.WriteString(rowLabel(b.RowLabels[i]))
		}
		prev := ""
		for _, c := range row {
			e := cellEmoji(look, c)
			if isRegional(e) && isRegional(prev) {
				sb.WriteString(zwsp)
			}
			sb.WriteString(e)
			prev = e
		}
	}
	if b.ColLabels != nil {
		sb.WriteString("\n")
		if b.RowLabels != nil {
			sb.WriteString(corner)
		}
		for i, l := range b.ColLabels {
			if i > 0 && isLetterLabel(l) && isLetterLabel(b.ColLabels[i-1]) {
				sb.WriteString(zwsp)
			}
			sb.WriteString(labelEmoji(l))
		}
	}
	return sb.String()
}

// lastChange returns the record of a game's last move, nil before the
// first. Games stored before the record was kept know only the move.
func lastChange(g *storage.Game) *games.Change {
	switch {
	case g.Last != nil:
		return &games.Change{Move: g.Last.Move, Changed: g.Last.Changed}
	case len(g.Moves) > 0:
		return &games.Change{Move: g.Moves[len(g.Moves)-1]}
	}
	return nil
}

// seatSides returns the side each seat of g plays: Players[g.Turn] plays
// the side to move of pos, and the other seat of a duel the other side.
func seatSides(g *storage.Game, pos engine.Position) []engine.Side {
	sides := make([]engine.Side, len(g.Players))
	for i := range sides {
		sides[i] = pos.SideToMove()
		if i != g.Turn {
			sides[i] = sides[i].Other()
		}
	}
	return sides
}

// position returns the position to draw: v.Pos, or else the game's stored
// position text, or nil if there is neither.
func position(v View) engine.Position {
	if v.Pos != nil {
		return v.Pos
	}
	return parsePosition(v.Game)
}

// parsePosition reads a game's stored position text, or returns nil.
func parsePosition(g *storage.Game) engine.Position {
	gm := gameOf(g.Kind)
	if g.Position == "" || gm == nil {
		return nil
	}
	pos, err := gm.Position(g.Position, games.Options{})
	if err != nil {
		return nil
	}
	return pos
}

// options returns the setup a game was created with.
func options(gm *games.Game, g *storage.Game) games.Options {
	opts, err := gm.Resolve(games.Options{Rounds: g.Settings.Rounds})
	if err != nil {
		return games.Options{}
	}
	return opts
}
