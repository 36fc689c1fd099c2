// Package analysis is a strategy's answer in one position as data: the
// Report that gambit analyze prints (one JSON line with --json), and
// External, a strategy that reads that report back from another gambit
// binary, so that the arena can measure a version against an earlier one
// without keeping the old code in the product.
package analysis

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/strategies"
)

// Report is a strategy's answer in a position, moves in the game's
// notation; its JSON is gambit analyze --json's line.
type Report struct {
	// Move is the move chosen.
	Move string `json:"move"`
	// Score, Exact and Depth are the search's (strategies.Result).
	Score int  `json:"score"`
	Exact bool `json:"exact"`
	Depth int  `json:"depth"`
	// Nodes counts the positions searched, NPS per second.
	Nodes uint64 `json:"nodes"`
	NPS   uint64 `json:"nps"`
	// PV is the expected line, starting with Move.
	PV []string `json:"pv"`
	// Millis is the search's time in milliseconds.
	Millis int64 `json:"ms"`
}

// Analyze asks s for its move in pos within ctx and limits, and reports
// it with the time it took.
func Analyze(ctx context.Context, s strategies.Strategy, pos engine.Position, limits strategies.Limits) (Report, error) {
	start := time.Now()
	res, err := s.Search(ctx, pos, limits)
	elapsed := time.Since(start)
	if err != nil {
		return Report{}, err
	}
	r := Report{
		Move: pos.FormatMove(res.Move), Score: res.Score, Exact: res.Exact, Depth: res.Depth,
		Nodes: res.Nodes, PV: FormatLine(pos, res.PV), Millis: elapsed.Milliseconds(),
	}
	if secs := elapsed.Seconds(); secs > 0 {
		r.NPS = uint64(float64(res.Nodes) / secs)
	}
	return r, nil
}

// Text is the report as a line for people, naming the strategy.
func (r Report) Text(strategy string) string {
	return fmt.Sprintf("%s plays %s: score %+d%s, depth %d, %d nodes in %d ms (%d nodes/s), line %s",
		strategy, r.Move, r.Score, exactMark(r.Exact), r.Depth, r.Nodes, r.Millis, r.NPS, strings.Join(r.PV, " "))
}

// ProgressText is a completed iteration of a search in pos as a line for
// people.
func ProgressText(pos engine.Position, p strategies.Progress) string {
	return fmt.Sprintf("depth %2d  %-4s score %+d%s  %d nodes  %d ms",
		p.Depth, pos.FormatMove(p.Move), p.Score, exactMark(p.Exact), p.Nodes, p.Elapsed.Milliseconds())
}

func exactMark(exact bool) string {
	if exact {
		return " (exact)"
	}
	return ""
}

// FormatLine writes a line of moves from pos in the game's notation,
// playing them on a copy so each is formatted in its own position; it
// stops at the first move that is not legal.
func FormatLine(pos engine.Position, line []engine.Move) []string {
	p := pos.Clone()
	out := make([]string, 0, len(line))
	for _, m := range line {
		if !p.Legal(m) {
			break
		}
		out = append(out, p.FormatMove(m))
		p.Play(m)
	}
	return out
}
