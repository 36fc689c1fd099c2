package render

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies/puzzles"
)

// SolvedByGambit is the Result.Reason of a puzzle whose player had Gambit
// play the solution out (Solve): it ends abandoned, so that it never
// counts as the player's own solve, and its MovesUsed are the player's.
const SolvedByGambit = "solved by Gambit"

// movesUsedLine is a solo puzzle's progress while it is played: the moves
// used so far.
func movesUsedLine(g *storage.Game) string {
	return "🧩 " + plural(len(g.Moves), "move") + " so far"
}

// puzzleResultLine says how a solo puzzle ended: solved, with the moves
// used against the optimum when it is known, or abandoned.
func puzzleResultLine(g *storage.Game) string {
	r := g.Result
	if r.Reason == SolvedByGambit {
		return "🪄 **Solved by Gambit** · " + plural(r.MovesUsed, "move") + " of your own before"
	}
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

// controlRow is the row under an active board: Resign in a duel; in a
// solo puzzle Hint, Solve, Compare algorithms and Give up.
func controlRow(g *storage.Game) discordgo.ActionsRow {
	if !g.Solo() {
		return row(resignButton(g))
	}
	id, ply := string(g.ID), Ply(g)
	return row(
		button("Hint", "💡", discordgo.SecondaryButton, customid.Hint.Build(id, ply)),
		button("Solve", "🪄", discordgo.SecondaryButton, customid.Solve.Build(id, ply)),
		button("Compare algorithms", "📊", discordgo.SecondaryButton, customid.Compare.Build(id, ply)),
		resignButton(g),
	)
}

// puzzleHelpFields are the fields of a solo puzzle's help page: how to
// move, its standard start drawn (no marks of two sides to explain), and
// how to start one; no AI plays a puzzle.
func puzzleHelpFields(g *games.Game) []*discordgo.MessageEmbedField {
	fields := []*discordgo.MessageEmbedField{{Name: "How to move", Value: g.Help.Moving}}
	if pos, err := g.Start(games.Options{}); err == nil {
		fields = append(fields, &discordgo.MessageEmbedField{Name: "A board", Value: grid(g.Look, g.Look.Board(pos, nil))})
	}
	start := "`/puzzle game:" + g.Name + "`"
	if r := g.Setup.Size; r != nil {
		start += fmt.Sprintf(" (`n:` sets the board's side, %d by default)", r.Default)
	}
	return append(fields, &discordgo.MessageEmbedField{Name: "Start a puzzle", Value: start + ", then solve it on the board."})
}

// Plural returns "1 move", "2 moves": a count and its unit.
func Plural(n int, unit string) string { return plural(n, unit) }

// Compare renders the puzzle solvers' runs on one position, for the one
// who asked: a table of each algorithm's solution length, nodes, time and
// whether its solution is optimal, each run capped at nodes.
func Compare(runs []puzzles.Run, nodes uint64) Message {
	var sb strings.Builder
	tw := tabwriter.NewWriter(&sb, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "algorithm\tlength\tnodes\tms\toptimal?\t")
	for _, r := range runs {
		length, optimal := strconv.Itoa(r.Length), r.Optimal
		if !r.Solved {
			length, optimal = "—", "gave up"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.1f\t%s\t\n", r.Algorithm, length, r.Nodes, float64(r.Elapsed.Microseconds())/1000, optimal)
	}
	_ = tw.Flush() // a strings.Builder does not fail
	content := "📊 **The algorithms on this position** (each stops after " + strconv.FormatUint(nodes, 10) + " nodes or when time runs out)\n```\n" +
		sb.String() + "```\n`proved`: the algorithm always finds a shortest solution. `yes`/`no`: as short as the proved one or not. " +
		"Report 003 explains each: `/help game:` and the README name the sources."
	return Message{Content: clip(content, maxContent), Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()}
}
