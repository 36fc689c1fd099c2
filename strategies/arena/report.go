package arena

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// report tallies and rates the played games.
func (cfg *Config) report(seed uint64, played []GameRecord) (*Report, error) {
	r := &Report{
		Game: cfg.Game.Name, Gauntlet: cfg.Gauntlet, GamesPerPairing: cfg.GamesPerPairing(),
		MoveTime: cfg.MoveTime, Nodes: cfg.Nodes, Seed: seed, Games: played,
	}
	for _, p := range cfg.Players {
		r.Players = append(r.Players, p.Name)
	}
	if cfg.Game.Setup.Rounds != nil {
		r.Rounds = cfg.settings()
	}
	// The schedule plays each pairing's games in a row, the first with A
	// as X.
	for start := 0; start < len(played); start += r.GamesPerPairing {
		first := played[start]
		t := Tally{Rounds: first.Rounds, A: first.X, B: first.O}
		for _, g := range played[start : start+r.GamesPerPairing] {
			res := g.resultFor(t.A)
			t.Record.add(res)
			if g.starter() == t.A {
				t.First.add(res)
			} else {
				t.Second.add(res)
			}
			if g.Forfeit != "" {
				t.Forfeits++
			}
		}
		r.Tallies = append(r.Tallies, t)
	}
	var tables [][]int // the rounds settings rated together
	for _, rounds := range r.Rounds {
		tables = append(tables, []int{rounds})
	}
	if len(r.Rounds) != 1 {
		tables = append(tables, r.Rounds) // every game: the only table of a game without rounds
	}
	for _, settings := range tables {
		var tallies []Tally
		for _, t := range r.Tallies {
			if len(settings) == 0 || slices.Contains(settings, t.Rounds) {
				tallies = append(tallies, t)
			}
		}
		ratings, err := Ratings(r.Players, tallies, VirtualDraws)
		if err != nil {
			return nil, err
		}
		r.Ratings = append(r.Ratings, RatingTable{Rounds: settings, Ratings: ratings})
	}
	return r, nil
}

// WriteMarkdown writes the report as Markdown: a heading with the
// settings, the results per pairing, the same split by who moved first,
// the Elo tables, and the forfeits.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	kind := "round robin"
	if r.Gauntlet != "" {
		kind = "gauntlet of " + r.Gauntlet
	}
	fmt.Fprintf(&b, "# Arena: %s, %s\n\n", r.Game, kind)
	fmt.Fprintf(&b, "%d players, %d games per pairing", len(r.Players), r.GamesPerPairing)
	if len(r.Rounds) > 0 {
		fmt.Fprintf(&b, " and rounds setting (%s rounds)", joinInts(r.Rounds, ", "))
	}
	fmt.Fprintf(&b, "; %s a move; seed %d.\n\n## Results\n\n", r.limitText(), r.Seed)

	r.writeTallies(&b, "| A | B | A wins | B wins | draws | A's score | forfeits |", "|---|---|---:|---:|---:|---:|---:|",
		func(t Tally) string {
			return fmt.Sprintf("| %s | %s | %d | %d | %d | %s | %d |", t.A, t.B, t.Wins, t.Losses, t.Draws, percent(t.Points(), t.Games()), t.Forfeits)
		})
	b.WriteString("\n## By first mover\n\nA's wins–losses–draws and score in the games A moved first and in those B moved first.\n\n")
	r.writeTallies(&b, "| A | B | A moving first | A's score | A moving second | A's score |", "|---|---|---:|---:|---:|---:|",
		func(t Tally) string {
			return fmt.Sprintf("| %s | %s | %s | %s | %s | %s |", t.A, t.B,
				wld(t.First), percent(t.First.Points(), t.First.Games()), wld(t.Second), percent(t.Second.Points(), t.Second.Games()))
		})
	for _, table := range r.Ratings {
		b.WriteString("\n## Elo")
		if len(table.Rounds) > 0 {
			fmt.Fprintf(&b, ", %s rounds", joinInts(table.Rounds, " and "))
		}
		b.WriteString("\n\n| rank | player | Elo | 95% CI | games | score |\n|---:|---|---:|---|---:|---:|\n")
		for i, p := range table.Ratings {
			fmt.Fprintf(&b, "| %d | %s | %.0f | %.0f – %.0f | %d | %s |\n", i+1, p.Name, p.Elo, p.Low, p.High, p.Games, percent(p.Points, p.Games))
		}
	}
	fmt.Fprintf(&b, "\nElo: Bradley–Terry maximum likelihood (draws count half), %d virtual draw per pairing, mean %d;\n"+
		"95%% intervals from the observed Fisher information, each rating against the mean.\n", VirtualDraws, EloMean)
	first := true
	for i, g := range r.Games {
		if g.Forfeit == "" {
			continue
		}
		if first {
			b.WriteString("\n## Forfeits\n\n")
			first = false
		}
		fmt.Fprintf(&b, "- game %d (x %s, o %s): %s\n", i+1, g.X, g.O, g.Forfeit)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeTallies writes a Markdown table with a row per tally: head and
// align are its header and alignment rows, row formats a tally; a rounds
// column leads when the game has rounds settings.
func (r *Report) writeTallies(b *strings.Builder, head, align string, row func(Tally) string) {
	rounds := len(r.Rounds) > 0
	if rounds {
		head, align = "| rounds "+head, "|---:"+align
	}
	fmt.Fprintf(b, "%s\n%s\n", head, align)
	for _, t := range r.Tallies {
		if rounds {
			fmt.Fprintf(b, "| %d ", t.Rounds)
		}
		fmt.Fprintf(b, "%s\n", row(t))
	}
}

// wld formats a record as wins–losses–draws.
func wld(r Record) string { return fmt.Sprintf("%d–%d–%d", r.Wins, r.Losses, r.Draws) }

// limitText describes the move limits.
func (r *Report) limitText() string {
	switch {
	case r.Nodes == 0:
		return r.MoveTime.String()
	case r.MoveTime == 0:
		return fmt.Sprintf("%d nodes", r.Nodes)
	}
	return fmt.Sprintf("%d nodes or %v", r.Nodes, r.MoveTime)
}

// percent formats points out of games as a percentage.
func percent(points float64, games int) string {
	if games == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100*points/float64(games))
}

// joinInts joins numbers with sep.
func joinInts(xs []int, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, sep)
}
