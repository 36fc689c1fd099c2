package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/storage"
)

// Search is what an AI's search of its last move found, shown on the
// board of a game between two AIs (/versus, a tournament's pairing of two
// AI entrants) for each side: how deep it searched, how many positions,
// how fast, and the score it gave the position. It travels with the AI's
// next turn, in the queue's record too, so its fields are named for JSON.
type Search struct {
	// Depth is the deepest completed iteration in plies, 0 if the
	// strategy does not search by depth.
	Depth int `json:"depth,omitempty"`
	// Nodes counts the positions searched, 0 if the strategy does not
	// count them.
	Nodes uint64 `json:"nodes,omitempty"`
	// Elapsed is how long the search took.
	Elapsed time.Duration `json:"elapsed,omitempty"`
	// Score is the value of the position for the side that moved, in
	// the game's unit (strategies.Result.Score), shown only for a search
	// that searched (Depth or Nodes); Exact says it is the game's value.
	Score int  `json:"score,omitempty"`
	Exact bool `json:"exact,omitempty"`
}

// BetweenAIs reports whether both sides of g are AI strategies.
func BetweenAIs(g *storage.Game) bool {
	return len(g.Players) == 2 && g.Players[0].ID.IsAI() && g.Players[1].ID.IsAI()
}

// searchLines are the lines of the AIs' last searches, in seat order,
// one per side that moved: "🔎 minimax: depth 9 · 1.2M positions · 410k/s
// · score +2".
func searchLines(l *i18n.Localizer, g *storage.Game, searches [2]*Search) []string {
	var lines []string
	for seat, s := range searches {
		if s == nil || seat >= len(g.Players) {
			continue
		}
		var facts []string
		if s.Depth > 0 {
			facts = append(facts, l.T("board.depth", "Depth", s.Depth))
		}
		if s.Nodes > 0 {
			facts = append(facts, searched(l, s.Nodes))
			if s.Elapsed > 0 {
				facts = append(facts, l.T("versus.speed", "Count", Count(uint64(float64(s.Nodes)/s.Elapsed.Seconds()))))
			}
		}
		if s.Depth > 0 || s.Nodes > 0 {
			score := fmt.Sprintf("%+d", s.Score)
			if s.Exact {
				score += " ✓"
			}
			facts = append(facts, l.T("versus.score", "Score", score))
		}
		if len(facts) == 0 {
			facts = append(facts, l.T("versus.no_figures"))
		}
		lines = append(lines, "🔎 "+PlayerName(l, g.Kind, g.Players[seat])+": "+strings.Join(facts, " · "))
	}
	return lines
}

// searched says how many positions a search searched: "1 position",
// "12.3k positions".
func searched(l *i18n.Localizer, n uint64) string {
	if n == 1 {
		return l.T("versus.one_node")
	}
	return l.T("versus.nodes", "Count", Count(n))
}

// Count writes a count of positions short: 950, 12.3k, 4.5M, 1.2G.
func Count(n uint64) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	case n < 1_000_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	}
	return fmt.Sprintf("%.1fG", float64(n)/1e9)
}

// stopRow is the row of an active game between two AIs: its Stop button,
// for the member who started it or a server's manager.
func stopRow(l *i18n.Localizer, g *storage.Game) []discordgo.MessageComponent {
	return []discordgo.MessageComponent{row(button(l.T("versus.stop"), "⏹️", discordgo.DangerButton, customid.VersusStop.Build(string(g.ID))))}
}
