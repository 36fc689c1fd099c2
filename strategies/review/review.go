// Package review looks back at a finished duel: for each move, its value
// against the best move of its position, labelled best, good,
// inaccuracy, mistake or blunder, with the best move in the game's
// notation, and the turning point of the game.
//
// Every position of the game is searched by minimax (the AI's strongest
// strategy, through the games' plug-ins and nothing else), from the last
// position to the first, so that the searches of the early positions,
// the costly ones, learn from the later ones (strategies.Memory: Connect
// Four's solver keeps what it proved); what that pass leaves of the
// budget goes to the positions it did not solve. The values are exact
// where the search reaches the end of the game: Connect Four's through
// strategies/c4solver in every position it solves within the budget,
// Tic-Tac-Toe's always, Adjacency's in its last plies through
// strategies/adjsearch's solver; elsewhere they are the deep search's
// estimates. A move's value for its player is the value of the position
// it leads to; the best move's is the value of the position it was
// played in. A review depends on the game and the budget alone, not on
// what else the process searched. A new game is reviewed as soon as
// minimax plays it.
package review

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/strategies"
)

// Label is how good a move was against the best one.
type Label int

// The labels, from the best to the worst.
const (
	Best Label = iota
	Good
	Inaccuracy
	Mistake
	Blunder
)

// labelNames are the labels' names, for records and the command line.
var labelNames = [...]string{"best", "good", "inaccuracy", "mistake", "blunder"}

// String returns the label's name: best, good, inaccuracy, mistake or
// blunder.
func (l Label) String() string {
	if l < 0 || int(l) >= len(labelNames) {
		return fmt.Sprintf("label(%d)", int(l))
	}
	return labelNames[l]
}

// Labels returns every label, best first.
func Labels() []Label { return []Label{Best, Good, Inaccuracy, Mistake, Blunder} }

// Thresholds say how much value, in the game's unit (Score's: Connect
// Four's Pons score, Adjacency's marks, Othello's discs, Gomoku's and
// Tic-Tac-Toe's whole wins), a move may lose against the best and keep
// its label: up to Good it is good, up to Inaccuracy an inaccuracy, up to
// Mistake a mistake, and beyond a blunder. A move that loses nothing is
// the best. Whatever the loss, a move after which a game won under
// perfect play is no longer won, or a drawn one is lost — both values
// exact — is a blunder.
//
// In a position won or lost under perfect play, where the game's exact
// values tell how far the end is (games.AI.Distance: Connect Four's,
// Tic-Tac-Toe's), the moves are compared by it (byDistance): in a lost
// position, a move that lets the opponent win at once where the best
// defence held out longer is a blunder, one that loses sooner than the
// best defence a mistake; in a won one, a move that keeps the win but
// passes up a win on the spot is an inaccuracy, one that wins later
// good; a move as long (or as quick) as the best is the best.
//
// A game whose unit the default does not fit gives its own in its plug-in
// (games.AI.Review), with why beside them.
type Thresholds games.ReviewThresholds

// defaultThresholds are the thresholds of a game without its own, in
// games scored by the marks on the board (Adjacency): two marks or less
// are good, four an inaccuracy, eight a mistake. A search's estimate
// favours the side to move by about a mark (its tempo), so a move that
// keeps the balance already reads as two marks lost.
var defaultThresholds = Thresholds{Good: 2, Inaccuracy: 4, Mistake: 8}

// ThresholdsOf returns the thresholds of the game named name
// (games/catalog): its plug-in's, or the default.
func ThresholdsOf(name string) Thresholds {
	if r := reviewOf(name); r != nil && r.Thresholds != nil {
		return Thresholds(*r.Thresholds)
	}
	return defaultThresholds
}

// reviewOf returns what the plug-in of the game named name says of its
// reviews, nil for nothing (or no such game).
func reviewOf(name string) *games.Review {
	if g, err := catalog.Lookup(name); err == nil && g.AI != nil {
		return g.AI.Review
	}
	return nil
}

// Value is a position's value for one side, in the game's unit.
type Value struct {
	// Score is the value: positive is good for the side.
	Score float64 `json:"score"`
	// Exact reports that Score is the value under perfect play.
	Exact bool `json:"exact,omitempty"`
	// Distance reports that the game is won or lost under perfect play
	// and Plies is how far its end is: the plies to the end, the winner
	// winning as soon as it can and the loser holding out as long as it
	// can (0: the game has ended). Only games whose exact values tell
	// have it (games.AI.Distance).
	Distance bool `json:"distance,omitempty"`
	Plies    int  `json:"plies,omitempty"`
}

// result is the sign of an exact value: 1 won, 0 drawn, −1 lost.
func (v Value) result() int {
	switch {
	case v.Score > 0:
		return 1
	case v.Score < 0:
		return -1
	}
	return 0
}

// Move is one move of the game, reviewed.
type Move struct {
	// Side is the side that played it.
	Side engine.Side `json:"side"`
	// Move is the move in the game's notation.
	Move string `json:"move"`
	// Best is the best move of its position in the game's notation (Move
	// itself when it was the best).
	Best string `json:"best"`
	// Before is the value of the position for Side before the move: the
	// value of Best. After is its value after the move.
	Before Value `json:"before"`
	After  Value `json:"after"`
	// Label says how good the move was.
	Label Label `json:"label"`
}

// Loss is the value the move gave away against the best one, 0 or more.
func (m Move) Loss() float64 {
	if m.Move == m.Best {
		return 0
	}
	return math.Max(0, m.Before.Score-m.After.Score)
}

// Version is the version of the reviews Analyze makes: a review kept
// with an older one was made by other rules and is made again.
const Version = 2

// Review is a game's review.
type Review struct {
	// Version is the rules' version the review was made by (Version).
	Version int `json:"version,omitempty"`
	// Game is the game's name (games/catalog).
	Game string `json:"game"`
	// Start is the position text of the game's start.
	Start string `json:"start"`
	// Moves are the game's moves, reviewed, in order.
	Moves []Move `json:"moves"`
	// Nodes counts the positions searched.
	Nodes uint64 `json:"nodes,omitempty"`
	// Budget is the budget's Game cap: the most positions the review
	// could search (0: none).
	Budget uint64 `json:"budget,omitempty"`
}

// Judged returns how many moves were judged exactly: both the position
// before the move and the one after it exact.
func (r *Review) Judged() int {
	n := 0
	for _, m := range r.Moves {
		if m.Before.Exact && m.After.Exact {
			n++
		}
	}
	return n
}

// Budget bounds the search of each position, and of the whole game. The
// zero value searches each position to the end of the game, for small
// games only.
type Budget struct {
	// Time is each position's time; 0 for none. Without it, and with
	// Nodes or Game, the review is reproducible: the same game reviewed
	// twice gets the same values and labels on any machine.
	Time time.Duration
	// Nodes caps each position's search; 0 for no cap.
	Nodes uint64
	// Game caps the nodes of the whole review; 0 for no cap. Each
	// position's search gets an equal share of the nodes the positions
	// before it left (and Nodes at most), so a long game's positions are
	// searched less deeply and its review costs no more than a short
	// one's: the review's time is bounded by Game over the search's
	// speed, whatever the game's length.
	Game uint64
	// Threads and HashMiB are the search's (strategies.Limits).
	Threads, HashMiB int
}

// StandardNodes caps each position's search in a Standard review of a
// game without a cap of its own (games.AI.Review): most positions need
// far less — solved at once, or from the opening book.
const StandardNodes = 4_000_000

// defaultStandardGame is the Game cap of a Standard review of a game
// without a cap of its own (Adjacency, Tic-Tac-Toe): 120 million nodes,
// about 30 seconds of one thread at 4 million a second; a game of up to
// 30 positions gets the full StandardNodes in each.
const defaultStandardGame = 120_000_000

// Standard returns the budget of a review of the game named name
// (games/catalog), the bot's and gambit review's: the node caps of its
// plug-in (games.AI.Review, where the figures and the commands that
// measured them are in docs/ai.md, Reviews), else StandardNodes a
// position and defaultStandardGame in all; no time (so that the review is
// the same on every machine, busy or not), one thread and a 32 MiB table.
func Standard(name string) Budget {
	b := Budget{Nodes: StandardNodes, Game: defaultStandardGame, Threads: 1, HashMiB: 32}
	if r := reviewOf(name); r != nil && r.Budget != nil {
		if r.Budget.Nodes != 0 {
			b.Nodes = r.Budget.Nodes
		}
		if r.Budget.Game != 0 {
			b.Game = r.Budget.Game
		}
	}
	return b
}

// share returns the node cap of the search of a position with left
// positions to review after spent nodes of the game's budget (Nodes
// when the budget has no Game cap).
func (b Budget) share(spent uint64, left int) uint64 {
	if b.Game == 0 {
		return b.Nodes
	}
	n := uint64(1) // 0 would be no cap: a budget spent searches the least
	if spent < b.Game {
		n = max(n, (b.Game-spent)/uint64(left))
	}
	if b.Nodes > 0 {
		n = min(n, b.Nodes)
	}
	return n
}

// ErrNotADuel reports a game that cannot be reviewed: a solo puzzle, or
// a game no search plays.
var ErrNotADuel = errors.New("only duels that the AI plays can be reviewed")

// Analyze reviews the game gm played from start with moves (in the game's
// notation). Each position is searched by s within budget, in ctx: once
// ctx is done, no further position is searched and the review ends with
// ctx's error (ctx's deadline stops the review but does not shorten a
// search: only budget.Time does, so that a review is the same under a
// deadline). The positions are searched from the last to the first with
// one strategies.Memory, each with its share of what the later ones left
// of the budget, then those left inexact again, from the last, each with
// all the budget has left. progress, if not nil, is told after each position of
// the first pass how many of the len(moves)+1 are done. An illegal move is
// an error naming it.
func Analyze(ctx context.Context, s strategies.Strategy, gm *games.Game, start engine.Position, moves []string, budget Budget, progress func(done, total int)) (*Review, error) {
	if gm.Solo() || gm.AI == nil {
		return nil, fmt.Errorf("review: %s: %w", gm.Name, ErrNotADuel)
	}
	r := &Review{Version: Version, Game: gm.Name, Start: start.String(), Moves: make([]Move, len(moves)), Budget: budget.Game}
	// positions[i] is the position before move i; the last the final one.
	positions := make([]engine.Position, len(moves)+1)
	pos := start.Clone()
	for i, text := range moves {
		positions[i] = pos.Clone()
		m, err := pos.ParseMove(text)
		if err != nil {
			return nil, fmt.Errorf("review: %s move %d: %w", gm.Name, i+1, err)
		}
		r.Moves[i].Move = pos.FormatMove(m)
		pos.Play(m)
	}
	positions[len(moves)] = pos
	// values[i] is the value of positions[i] for its side to move, bests[i]
	// its best move, limits[i] the node cap its search had.
	values, bests, limits := make([]Value, len(positions)), make([]string, len(positions)), make([]uint64, len(positions))
	searchCtx, stop := withoutDeadline(ctx)
	defer stop()
	mem := strategies.NewMemory()
	analyse := func(i int, nodes uint64) error {
		if err := context.Cause(ctx); err != nil {
			return fmt.Errorf("review: %s stopped before move %d: %w", gm.Name, i+1, err)
		}
		res, err := search(searchCtx, s, gm, positions[i], budget, nodes, mem)
		if err != nil {
			return fmt.Errorf("review: %s move %d: %w", gm.Name, i+1, err)
		}
		r.Nodes += res.Nodes
		if v := valueOf(gm, positions[i], res); v.Exact || !values[i].Exact {
			values[i], bests[i], limits[i] = v, positions[i].FormatMove(res.Move), nodes
		}
		return nil
	}
	for i := len(positions) - 1; i >= 0; i-- {
		if p := positions[i]; p.Terminal() {
			values[i] = terminalValue(gm, p)
		} else if err := analyse(i, budget.share(r.Nodes, i+1)); err != nil {
			return nil, err
		}
		if progress != nil {
			progress(len(positions)-i, len(positions))
		}
	}
	// What the pass left goes to the positions it did not solve, all of
	// it to each in turn from the last, if that is more than it had: the
	// later a position the cheaper its solve, and a position solved helps
	// the earlier ones.
	for i := len(positions) - 1; i >= 0 && budget.Game > 0; i-- {
		if nodes := budget.share(r.Nodes, 1); !values[i].Exact && nodes > limits[i] {
			if err := analyse(i, nodes); err != nil {
				return nil, err
			}
		}
	}
	t := ThresholdsOf(gm.Name)
	for i := range r.Moves {
		mv := &r.Moves[i]
		mv.Side, mv.Best, mv.Before, mv.After = positions[i].SideToMove(), bests[i], values[i], values[i+1]
		if positions[i+1].SideToMove() != mv.Side {
			mv.After.Score = -mv.After.Score
		}
		mv.Label = t.label(*mv)
	}
	return r, nil
}

// withoutDeadline returns ctx without its deadline: done when ctx is, with
// its cause, but not known to end at a time, so that the searches start
// from empty tables as reproducible ones do (strategies.Limits.Nodes).
func withoutDeadline(ctx context.Context) (context.Context, func()) {
	inner, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, func() { cancel(context.Cause(ctx)) })
	return inner, func() { stop(); cancel(nil) }
}

// terminalValue is the value of a finished position p for its side to
// move: exact, and at its end.
func terminalValue(gm *games.Game, p engine.Position) Value {
	score := p.Score(p.SideToMove())
	return Value{Score: float64(score), Exact: true, Distance: gm.AI.Distance != nil && score != 0}
}

// valueOf is the value of p for its side to move that the search res
// found: its estimate in the game's unit, or its exact score, with how
// far the end is where the game tells.
func valueOf(gm *games.Game, p engine.Position, res strategies.Result) Value {
	if !res.Exact {
		return Value{Score: float64(res.Units) / float64(gm.AI.Unit)}
	}
	v := Value{Score: float64(res.Score), Exact: true}
	if gm.AI.Distance != nil {
		v.Plies, v.Distance = gm.AI.Distance(p, res.Units)
	}
	return v
}

// search searches pos within budget's time and threads, nodes and mem.
func search(ctx context.Context, s strategies.Strategy, gm *games.Game, pos engine.Position, budget Budget, nodes uint64, mem *strategies.Memory) (strategies.Result, error) {
	if budget.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, budget.Time)
		defer cancel()
	}
	res, err := s.Search(ctx, pos, strategies.Limits{Nodes: nodes, Threads: budget.Threads, HashMiB: budget.HashMiB, Seed: 1, Memory: mem})
	if err != nil {
		return res, err
	}
	if err := context.Cause(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return res, err // cancelled: the review is abandoned
	}
	if res.Units == 0 && res.Score != 0 {
		res.Units = res.Score * gm.AI.Unit // a strategy without internal units
	}
	return res, nil
}

// label labels m by how far the end is in a won or lost game where the
// game tells (byDistance), else by its loss (see Thresholds).
func (t Thresholds) label(m Move) Label {
	if m.Move == m.Best {
		return Best
	}
	if l, ok := byDistance(m); ok {
		return l
	}
	loss := m.Loss()
	if loss == 0 {
		return Best
	}
	if m.Before.Exact && m.After.Exact {
		if m.After.result() < m.Before.result() {
			return Blunder
		}
		if t.Results {
			return Good
		}
	}
	mixed := false
	if t.Results {
		loss = math.Max(0, t.value(m.Before)-t.value(m.After))
		mixed = m.Before.Exact != m.After.Exact
	}
	switch {
	case loss <= t.Good:
		return Good
	case loss <= t.Inaccuracy:
		return Inaccuracy
	case loss <= t.Mistake || mixed:
		return Mistake
	}
	return Blunder
}

// byDistance labels m, a move of a position won or lost under perfect
// play that keeps the result, by how soon the game ends after it against
// the best move, when both values tell (Value.Distance): see Thresholds.
// It reports false when they do not.
func byDistance(m Move) (Label, bool) {
	b, a := m.Before, m.After
	result := b.result()
	if !b.Exact || !a.Exact || !b.Distance || !a.Distance || result == 0 || a.result() != result {
		return 0, false
	}
	best, played := b.Plies, 1+a.Plies // the plies to the end from before the move
	switch {
	case result < 0 && played < best && a.Plies == 1:
		return Blunder, true // the opponent wins at once
	case result < 0 && played < best:
		return Mistake, true
	case result > 0 && played > best && best == 1:
		return Inaccuracy, true // a win on the spot passed up
	case result > 0 && played > best:
		return Good, true
	}
	return Best, true
}

// value is v as labels compare it: its result if exact in a game of
// Results.
func (t Thresholds) value(v Value) float64 {
	if t.Results && v.Exact {
		return float64(v.result())
	}
	return v.Score
}

// Counts returns how many moves of side have each label, by label.
func (r *Review) Counts(side engine.Side) [len(labelNames)]int {
	var n [len(labelNames)]int
	for _, m := range r.Moves {
		if m.Side == side {
			n[m.Label]++
		}
	}
	return n
}

// TurningPoint returns the index in Moves of the move where the game
// turned: the first blunder of the loser (the side that lost, if
// hasLoser), else the loser's move that lost the most value; in a game
// without a loser (a draw), the same over both sides. It returns −1 when
// no such move was worse than good.
func (r *Review) TurningPoint(loser engine.Side, hasLoser bool) int {
	best, bestLoss := -1, 0.0
	for i, m := range r.Moves {
		if (hasLoser && m.Side != loser) || m.Label < Inaccuracy {
			continue
		}
		if m.Label == Blunder {
			return i
		}
		if loss := m.Loss(); loss > bestLoss {
			best, bestLoss = i, loss
		}
	}
	return best
}
