package main

import (
	"encoding/json"
	"fmt"
	"github.com/gambitbot/gambit/games/catalog"
	"time"
)

const perftUsage = `
Usage: gambit perft --game {games} --depth N
                    [--position TEXT|start] [--rounds N] [--first x|o]
                    [--moves 'M1 M2 …'] [--json]

Counts the leaves of the game tree to depth N: every line of play of N moves,
or fewer where the game ends first (a finished position counts as one leaf).
For Adjacency it also sums the X and O marks on the board over all leaves, a
checksum of the flip rule. The counts are compared with independently computed
ones to prove the move generators right; the speed shows how fast they are.

--rounds and --first set up the Adjacency start (defaults 28 and x); a position
text carries its own setup.

Output: one line, or with --json one JSON object of integers:
  {"leaves":…, "sum_x":…, "sum_o":…, "seconds":…, "ms":…, "nps":…}
where sum_x and sum_o appear for Adjacency only, seconds are whole seconds, ms
whole milliseconds and nps leaves per second.

Example:
  gambit perft --game adjacency --depth 5
  gambit perft --game connect4 --position 4453 --depth 6 --json
`

// perftReport is the --json output of perft.
type perftReport struct {
	Leaves  uint64  `json:"leaves"`
	SumX    *uint64 `json:"sum_x,omitempty"`
	SumO    *uint64 `json:"sum_o,omitempty"`
	Seconds int64   `json:"seconds"`
	Millis  int64   `json:"ms"`
	NPS     uint64  `json:"nps"`
}

func runPerft(args []string, sio stdio) error {
	stdout := sio.out
	fs := newFlagSet("perft", perftUsage, stdout)
	where := addPositionFlags(fs, catalog.Names())
	depth := fs.Int("depth", 0, "the depth in moves, 0 or more (required)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := fs.parse(args); err != nil {
		return err
	}
	game, pos, err := where.resolve(fs)
	if err != nil {
		return err
	}
	if !fs.set()["depth"] {
		return usagef("--depth is required: the depth in moves, 0 to %s", thousands(maxPlies))
	}
	if err := checkBounds(bound{"depth", *depth, 0, maxPlies, ""}); err != nil {
		return err
	}

	start := time.Now()
	counts := game.CountLeaves(pos, *depth)
	elapsed := time.Since(start)

	report := perftReport{
		Leaves:  counts.Leaves,
		Seconds: int64(elapsed / time.Second),
		Millis:  elapsed.Milliseconds(),
	}
	if secs := elapsed.Seconds(); secs > 0 {
		report.NPS = uint64(float64(counts.Leaves) / secs)
	}
	if counts.HasSums {
		report.SumX, report.SumO = &counts.SumX, &counts.SumO
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(report)
	}
	sums := ""
	if counts.HasSums {
		sums = fmt.Sprintf(", sum_x %d, sum_o %d", counts.SumX, counts.SumO)
	}
	_, err = fmt.Fprintf(stdout, "%s perft %d from %s: %d leaves%s in %.3f s (%d leaves/s)\n",
		game.Name, *depth, pos, counts.Leaves, sums, elapsed.Seconds(), report.NPS)
	return err
}
