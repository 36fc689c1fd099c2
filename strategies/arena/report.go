package arena

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/gambitbot/gambit/engine"
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
	// as X, each pair's two games one after the other.
	for start := 0; start < len(played); start += r.GamesPerPairing {
		first := played[start]
		t := Tally{Rounds: first.Rounds, A: first.X, B: first.O}
		for i := start; i < start+r.GamesPerPairing; i += 2 {
			res, level, err := pairResult(played[i], played[i+1], t.A)
			if err != nil {
				return nil, err
			}
			t.Pairs.add(res)
			if level {
				t.Level.add(res)
			}
		}
		for _, g := range played[start : start+r.GamesPerPairing] {
			res := g.resultFor(t.A)
			t.Record.add(res)
			if g.starter() == t.A {
				t.First.add(res)
				t.MarginFirst += g.scoreFor(t.A)
			} else {
				t.Second.add(res)
				t.MarginSecond += g.scoreFor(t.A)
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
		for i, t := range tallies { // the same pairings, counting pairs
			tallies[i] = Tally{Rounds: t.Rounds, A: t.A, B: t.B, Record: t.Pairs}
		}
		pairRatings, err := Ratings(r.Players, tallies, VirtualDraws)
		if err != nil {
			return nil, err
		}
		r.Ratings = append(r.Ratings, RatingTable{Rounds: settings, Ratings: ratings, PairRatings: pairRatings})
	}
	return r, nil
}

// pairResult returns the result of the pair of games g and h for player
// a: a win when a scored more over the two than its opponent, a loss when
// less. When the two games leave the players level (each won one, or both
// were drawn) and neither was forfeited, the final margins decide, as in
// duplicate bridge: a wins the pair when its margins over the two games
// add up to more than zero, that is when it did better than its opponent
// with the same side of the same setup; level margins draw the pair.
// level reports whether the games left the players level. It fails unless
// g and h are a pair: the same setup and seed, the players' sides
// exchanged.
func pairResult(g, h GameRecord, a string) (res engine.Result, level bool, err error) {
	if g.Pair != h.Pair || g.X != h.O || g.O != h.X || g.First != h.First || g.Rounds != h.Rounds || g.Seed != h.Seed {
		return 0, false, fmt.Errorf("arena: games of pairs %d (x %s, o %s) and %d (x %s, o %s) are not a pair", g.Pair, g.X, g.O, h.Pair, h.X, h.O)
	}
	points := gamePoints(g.resultFor(a)) + gamePoints(h.resultFor(a))
	margin := 0
	if g.Forfeit == "" && h.Forfeit == "" {
		margin = g.scoreFor(a) + h.scoreFor(a)
	}
	switch {
	case points > 1:
		return engine.Win, false, nil
	case points < 1:
		return engine.Loss, false, nil
	case margin > 0:
		return engine.Win, true, nil
	case margin < 0:
		return engine.Loss, true, nil
	}
	return engine.Draw, true, nil
}

// gamePoints returns a game's points for a result: 1, ½ or 0.
func gamePoints(res engine.Result) float64 {
	switch res {
	case engine.Win:
		return 1
	case engine.Draw:
		return 0.5
	}
	return 0
}

// WriteMarkdown writes the report as Markdown: a heading with the
// settings, the results per pairing, the same split by who moved first,
// the pairs per pairing, the Elo tables over games and over pairs, and
// the forfeits.
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
	b.WriteString("\n## By first mover\n\nA's wins–losses–draws, score and mean final margin (A's score at the end minus B's) in the games\n" +
		"A moved first and in those B moved first.\n\n")
	r.writeTallies(&b, "| A | B | A moving first | A's score | A's margin | A moving second | A's score | A's margin |", "|---|---|---:|---:|---:|---:|---:|---:|",
		func(t Tally) string {
			return fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %s | %s |", t.A, t.B,
				wld(t.First), percent(t.First.Points(), t.First.Games()), mean(t.MarginFirst, t.First.Games()),
				wld(t.Second), percent(t.Second.Points(), t.Second.Games()), mean(t.MarginSecond, t.Second.Games()))
		})
	b.WriteString("\n## Pairs\n\nA pair is one setup played twice, the players exchanging sides; A wins it by scoring more over\n" +
		"the two games or, the games level, by a larger sum of final margins; equal margins draw it. A's pairs\n" +
		"won–lost–drawn, those of them the games left level (decided on margins), and A's pair score.\n\n")
	r.writeTallies(&b, "| A | B | A's pairs | level on games | A's pair score |", "|---|---|---:|---:|---:|",
		func(t Tally) string {
			return fmt.Sprintf("| %s | %s | %s | %s | %s |", t.A, t.B, wld(t.Pairs), wld(t.Level), percent(t.Pairs.Points(), t.Pairs.Games()))
		})
	for _, table := range r.Ratings {
		for _, rated := range []struct {
			title, unit string
			ratings     []Rating
		}{{"Elo", "games", table.Ratings}, {"Pair Elo", "pairs", table.PairRatings}} {
			fmt.Fprintf(&b, "\n## %s", rated.title)
			if len(table.Rounds) > 0 {
				fmt.Fprintf(&b, ", %s rounds", joinInts(table.Rounds, " and "))
			}
			fmt.Fprintf(&b, "\n\n| rank | player | Elo | 95%% CI | %s | score |\n|---:|---|---:|---|---:|---:|\n", rated.unit)
			for i, p := range rated.ratings {
				fmt.Fprintf(&b, "| %d | %s | %.0f | %.0f – %.0f | %d | %s |\n", i+1, p.Name, p.Elo, p.Low, p.High, p.Games, percent(p.Points, p.Games))
			}
		}
	}
	fmt.Fprintf(&b, "\nElo: Bradley–Terry maximum likelihood (draws count half), %d virtual draw per pairing, mean %d;\n"+
		"95%% intervals from the observed Fisher information, each rating against the mean. Pair Elo: the same\n"+
		"over pairs, a pair won counting as a game won.\n", VirtualDraws, EloMean)
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

// mean formats a sum over games as a signed mean.
func mean(sum, games int) string {
	if games == 0 {
		return "–"
	}
	return fmt.Sprintf("%+.2f", float64(sum)/float64(games))
}

// joinInts joins numbers with sep.
func joinInts(xs []int, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, sep)
}
