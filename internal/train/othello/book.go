package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/gambitbot/gambit/engine"
	rules "github.com/gambitbot/gambit/engine/othello"
	"github.com/gambitbot/gambit/games/othello"
	"github.com/gambitbot/gambit/strategies"
)

// booker holds the book's parameters.
type booker struct {
	plies, depth, width, margin int
	log                         io.Writer
}

// build searches the book's positions ply by ply from the start and
// returns the book file. Every move of a position is searched depth−1
// plies deep after it, one search at a time, so that the book is the
// same on every run.
func (b *booker) build() ([]byte, error) {
	var book []othello.BookPosition
	frontier := []*rules.Position{rules.New()}
	seen := map[[2]uint64]bool{}
	for ply := range b.plies {
		start := time.Now()
		var next []*rules.Position
		for _, p := range frontier {
			entry, children, err := b.searchPosition(p)
			if err != nil {
				return nil, err
			}
			book = append(book, entry)
			if ply+1 == b.plies {
				continue
			}
			for _, c := range children {
				me := c.SideToMove()
				key := othello.BookKey(c.Bitboard(me), c.Bitboard(me.Other()))
				if !seen[key] && !c.Terminal() && !c.Legal(rules.Pass) {
					seen[key] = true
					next = append(next, c)
				}
			}
		}
		fmt.Fprintf(b.log, "book: ply %d: %d positions, %v\n", ply, len(frontier), time.Since(start).Round(time.Millisecond))
		frontier = next
	}
	return othello.EncodeBook(book), nil
}

// searchPosition scores every move of p by minimax and returns its book
// entry, the moves within b.margin discs of the best (leading to at most
// b.width positions up to symmetry), and the positions after them.
func (b *booker) searchPosition(p *rules.Position) (othello.BookPosition, []*rules.Position, error) {
	type scored struct {
		move  engine.Move
		score int
		after *rules.Position
	}
	var all []scored
	for _, m := range p.Moves(nil) {
		c := p.Clone().(*rules.Position)
		c.Play(m)
		var score int
		if c.Terminal() {
			score = othello.Unit * c.Score(c.SideToMove())
		} else {
			res, err := strategies.Minimax{}.Search(context.Background(), c, strategies.Limits{Depth: b.depth - 1})
			if err != nil {
				return othello.BookPosition{}, nil, fmt.Errorf("book: search %v: %w", c, err)
			}
			score = res.Units
		}
		all = append(all, scored{m, -score, c})
	}
	slices.SortStableFunc(all, func(x, y scored) int { return y.score - x.score })
	me := p.SideToMove()
	entry := othello.BookPosition{Own: p.Bitboard(me), Opp: p.Bitboard(me.Other()), Depth: b.depth}
	var children []*rules.Position
	distinct := map[[2]uint64]bool{} // children up to symmetry
	for _, s := range all {
		me := s.after.SideToMove()
		key := othello.BookKey(s.after.Bitboard(me), s.after.Bitboard(me.Other()))
		if !distinct[key] && len(distinct) == b.width || s.score < all[0].score-b.margin*othello.Unit {
			break
		}
		distinct[key] = true
		entry.Moves = append(entry.Moves, othello.BookMove{Square: int(s.move), Score: s.score})
		children = append(children, s.after)
	}
	return entry, children, nil
}
