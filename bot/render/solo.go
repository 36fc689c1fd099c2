package render

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies/puzzles"
)

// movesUsedLine is a solo puzzle's progress while it is played: the moves
// used so far.
func movesUsedLine(l *i18n.Localizer, g *storage.Game) string {
	return l.T("board.moves_so_far", "Count", len(g.Moves))
}

// puzzleResultLine says how a solo puzzle ended: solved, with the moves
// used against the optimum when it is known, or abandoned.
func puzzleResultLine(l *i18n.Localizer, g *storage.Game) string {
	r := g.Result
	moves := plural(l, r.MovesUsed, "move")
	switch r.Outcome {
	case storage.SolvedByGambit:
		return l.T("board.solved_by_gambit", "Moves", moves)
	case storage.GaveUp:
		return l.T("board.abandoned", "Moves", moves) + " · " + l.T("reason.gave_up")
	case storage.NoWayOn:
		return l.T("board.abandoned", "Moves", moves) + " · " + l.T("reason.no_way_on")
	}
	if !g.Solved() {
		return l.T("board.abandoned", "Moves", moves)
	}
	line := l.T("board.solved", "Moves", moves)
	switch {
	case r.Optimal == 0:
	case r.MovesUsed == r.Optimal:
		line += " · " + l.T("board.optimal")
	default:
		line += " · " + l.T("board.optimal_n", "N", r.Optimal)
	}
	if g.Hints > 0 {
		line += " · " + l.T("board.with_hints", "Hints", plural(l, g.Hints, "hint"))
	}
	return line
}

// Against says who the player in seat plays g against: "vs " and the
// opponent in a duel, "solo puzzle" in a puzzle.
func Against(l *i18n.Localizer, g *storage.Game, seat int) string {
	if opp, ok := g.Opponent(seat); ok {
		return l.T("board.vs", "Player", PlayerName(l, g.Kind, opp))
	}
	return l.T("board.solo")
}

// controlRow is the row under an active board: a duel's controls
// (controls); in a solo puzzle Hint, Solve, Compare algorithms and Give up.
func controlRow(l *i18n.Localizer, g *storage.Game) discordgo.ActionsRow {
	if !g.Solo() {
		return row(controls(l, g)...)
	}
	id, ply := string(g.ID), Ply(g)
	return row(
		button(l.T("board.hint"), "💡", discordgo.SecondaryButton, customid.Hint.Build(id, ply)),
		button(l.T("board.solve"), "🪄", discordgo.SecondaryButton, customid.Solve.Build(id, ply)),
		button(l.T("board.compare"), "📊", discordgo.SecondaryButton, customid.Compare.Build(id, ply)),
		resignButton(l, g),
	)
}

// puzzleHelpFields are the fields of a solo puzzle's help page: how to
// move, its standard start drawn (no marks of two sides to explain), and
// how to start one; no AI plays a puzzle.
func puzzleHelpFields(l *i18n.Localizer, g *games.Game) []*discordgo.MessageEmbedField {
	fields := []*discordgo.MessageEmbedField{{Name: l.T("help.how_to_move"), Value: gameText(l, g, "moving", g.Help.Moving)}}
	if pos, err := g.Start(games.Options{}); err == nil {
		fields = append(fields, &discordgo.MessageEmbedField{Name: l.T("help.a_board"), Value: grid(g.Look, g.Look.Board(pos, nil))})
	}
	start := l.T("help.start_puzzle_text", "Name", g.Name)
	if r := g.Setup.Size; r != nil {
		start = l.T("help.start_puzzle_size", "Name", g.Name, "Default", r.Default)
	}
	return append(fields, &discordgo.MessageEmbedField{Name: l.T("help.start_puzzle"), Value: start})
}

// Plural returns "1 move", "2 moves": a count and its unit, in l's
// language.
func Plural(l *i18n.Localizer, n int, unit string) string { return plural(l, n, unit) }

// Compare renders the puzzle solvers' runs on one position, for the one
// who asked: a table of each algorithm's solution length, nodes, time and
// whether its solution is optimal, each run within its own budget of
// nodes and time. A run not done yet (done[i] false) shows as such, under
// a line counting those done: the message is edited as each finishes.
func Compare(l *i18n.Localizer, runs []puzzles.Run, done []bool, nodes uint64, each time.Duration) Message {
	var sb strings.Builder
	tw := tabwriter.NewWriter(&sb, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, l.T("compare.header"))
	finished := 0
	for i, r := range runs {
		if !done[i] {
			fmt.Fprintf(tw, "%s\t…\t…\t…\t%s\t\n", r.Algorithm, l.T("compare.pending"))
			continue
		}
		finished++
		length, optimal := strconv.Itoa(r.Length), r.Optimal
		switch {
		case i18n.Has("compare." + optimal): // proved, yes, no
			optimal = l.T("compare." + optimal)
		case optimal == "": // told once every run is done
			optimal = "…"
		}
		if !r.Solved {
			length, optimal = "—", l.T("compare.gave_up")
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.1f\t%s\t\n", r.Algorithm, length, r.Nodes, float64(r.Elapsed.Microseconds())/1000, optimal)
	}
	_ = tw.Flush() // a strings.Builder does not fail
	var legend []string
	for _, r := range runs {
		if id := "solver." + r.Algorithm; i18n.Has(id) {
			legend = append(legend, "`"+r.Algorithm+"` "+l.T(id))
		}
	}
	content := l.T("compare.text", "Nodes", strconv.FormatUint(nodes, 10), "Millis", strconv.FormatInt(each.Milliseconds(), 10),
		"Table", sb.String(), "Proved", l.T("compare.proved"), "Yes", l.T("compare.yes"), "No", l.T("compare.no")) +
		"\n" + strings.Join(legend, "\n")
	if finished < len(runs) {
		content = l.T("compare.progress", "Done", finished, "Total", len(runs)) + "\n" + content
	}
	return Message{Content: clip(content, maxContent), Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()}
}
