package render

import (
	"fmt"

	"github.com/gambitbot/gambit/storage"
)

// movesUsedLine is a solo puzzle's progress while it is played: the moves
// used so far.
func movesUsedLine(g *storage.Game) string {
	return "🧩 " + plural(len(g.Moves), "move") + " so far"
}

// puzzleResultLine says how a solo puzzle ended: solved, with the moves
// used against the optimum when it is known, or abandoned.
func puzzleResultLine(g *storage.Game) string {
	r := g.Result
	if !g.Solved() {
		line := "🏳️ **Abandoned** after " + plural(r.MovesUsed, "move")
		if r.Reason != "" {
			line += " · " + r.Reason
		}
		return line
	}
	line := "🏆 **Solved** in " + plural(r.MovesUsed, "move")
	switch {
	case r.Optimal == 0:
	case r.MovesUsed == r.Optimal:
		line += " · optimal!"
	default:
		line += fmt.Sprintf(" · optimal %d", r.Optimal)
	}
	return line
}

// Against says who the player in seat plays g against: "vs " and the
// opponent in a duel, "solo puzzle" in a puzzle.
func Against(g *storage.Game, seat int) string {
	if opp, ok := g.Opponent(seat); ok {
		return "vs " + PlayerName(opp)
	}
	return "solo puzzle"
}
