package daily

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
	dailies "github.com/gambitbot/gambit/strategies/daily"
)

// Practice best-move puzzles: a "find the best move" puzzle of a kind the
// daily puzzle deals, made from a fresh seed (dailies.PracticeSeed) that
// the buttons carry, so that any number of them can be played and nothing
// is recorded.

// clickPracticeNew shows the clicker, privately, a practice best-move
// puzzle of a kind, made from a fresh seed.
func (f *Flow) clickPracticeNew(ctx context.Context, ix *mux.Component) error {
	kind := dailies.Kind(ix.Params["kind"])
	if kind != dailies.Connect4 && kind != dailies.Adjacency {
		return mux.Err("daily.stale")
	}
	seed := dailies.PracticeSeed()
	p, err := makePuzzle(ctx, kind, seed)
	if err != nil {
		return err
	}
	msg, err := practiceMessage(ix.Lang(), p, seed, 0)
	if err != nil {
		return err
	}
	return ix.Reply(msg, true)
}

// practiceMessage renders the practice best-move puzzle p, made from
// seed, after hints hints: the moves' buttons, then Hint (while a hint
// still narrows the moves down) and Give up.
func practiceMessage(l *i18n.Localizer, p dailies.Puzzle, seed uint64, hints int) (render.Message, error) {
	gm, pos, err := puzzlePosition(p)
	if err != nil {
		return render.Message{}, err
	}
	lines := []string{puzzleTask(l, gm, pos, p), l.T("daily.not_counted")}
	left := dailies.Hints(moveNames(pos), p.Answer, hints)
	if hints > 0 {
		names := make([]string, len(left))
		for i, n := range left {
			m, err := pos.ParseMove(n)
			if err != nil {
				return render.Message{}, fmt.Errorf("daily: hint on a practice puzzle: %w", err)
			}
			names[i] = "**" + render.MoveName(gm, pos, m) + "**"
		}
		lines = append(lines, l.T("daily.hint_moves", "Moves", strings.Join(names, ", "), "Hints", render.Plural(l, hints, "hint")))
	}
	rows := render.PracticeControls(l, gm, pos, string(p.Kind), seed, hints, len(dailies.Hints(left, p.Answer, 1)) < len(left))
	title := l.T("daily.practice_title", "Game", render.Title(l, storage.Kind(gm.Name)))
	return render.Puzzle(l, storage.Kind(gm.Name), pos, "practice", title, lines, rows), nil
}

// practicePuzzle remakes the practice best-move puzzle a click names by
// its kind and seed. A seed that is not a practice puzzle's is refused:
// it could name a day's puzzle.
func practicePuzzle(ctx context.Context, ix *mux.Component) (p dailies.Puzzle, seed uint64, err error) {
	kind := dailies.Kind(ix.Params["kind"])
	seed, err = strconv.ParseUint(ix.Params["seed"], 10, 64)
	if err != nil || !dailies.IsPractice(seed) || kind != dailies.Connect4 && kind != dailies.Adjacency {
		return dailies.Puzzle{}, 0, mux.Err("daily.stale")
	}
	p, err = makePuzzle(ctx, kind, seed)
	return p, seed, err
}

// clickPracticeMove answers a practice best-move puzzle; nothing is
// recorded.
func (f *Flow) clickPracticeMove(ctx context.Context, ix *mux.Component) error {
	return f.answerPractice(ctx, ix, ix.Params["cell"])
}

// answerPractice shows how the practice best-move puzzle a click names
// was answered with cell, "" when given up.
func (f *Flow) answerPractice(ctx context.Context, ix *mux.Component, cell string) error {
	p, _, err := practicePuzzle(ctx, ix)
	if err != nil {
		return err
	}
	gm, pos, err := puzzlePosition(p)
	if err != nil {
		return err
	}
	if cell != "" && !slices.Contains(moveNames(pos), cell) {
		return mux.Err("daily.stale")
	}
	return f.answered(ctx, ix.Interaction, gm, pos, p, cell, nil)
}

// clickPracticeHint shows a practice best-move puzzle again, in place,
// with its moves narrowed down by one more hint.
func (f *Flow) clickPracticeHint(ctx context.Context, ix *mux.Component) error {
	p, seed, err := practicePuzzle(ctx, ix)
	if err != nil {
		return err
	}
	hints, err := strconv.Atoi(ix.Params["n"])
	if err != nil || hints < 1 || hints > 8 {
		return mux.Err("daily.stale")
	}
	msg, err := practiceMessage(ix.Lang(), p, seed, hints)
	if err != nil {
		return err
	}
	return ix.Update(msg)
}

// clickPracticeGiveUp shows the answer of a practice best-move puzzle.
func (f *Flow) clickPracticeGiveUp(ctx context.Context, ix *mux.Component) error {
	return f.answerPractice(ctx, ix, "")
}
