// Command adjbook writes the opening book of the first mover in
// Adjacency's 28-round games (strategies/adjsearch/book.txt, which
// adjsearch embeds): for every position it covers, a fixed-depth search
// of adjsearch chooses the move. It is a tool of the maintainers, run with
// go run, not part of the bot.
//
//	nice -n 19 go run ./internal/train/adjbook -depth 18 -plies 2
//
// The positions: the start (-plies 0); the first mover's positions after
// every first pair of moves (-plies 2); and from -plies 4 on, from every
// book position two plies earlier, the book's move followed by each reply
// that a search of the -replies depths chooses (the likely answers of an
// alpha-beta opponent). Positions are sets of empty cells up to the
// board's symmetries (see adjsearch's book.go), so each is searched once.
//
// It is resumable and incremental: it reads the book first, searches only
// the positions the book lacks or holds from a shallower search, and
// rewrites the book after every search, so it can be stopped at any time
// (-limit stops it after so many searches) and run again with more depth
// or plies.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/strategies/adjsearch"
)

// config is what a run does.
type config struct {
	book     string // the book file, read first if it exists and rewritten
	depth    int    // the search depth of every entry
	plies    int    // the deepest book positions, in plies from the start (even)
	replies  []int  // the depths of the searches that give the replies
	limit    int    // at most this many searches; 0: no limit
	tableMiB int
}

func main() {
	var cfg config
	var replies string
	flag.StringVar(&cfg.book, "book", "strategies/adjsearch/book.txt", "the book file to extend")
	flag.IntVar(&cfg.depth, "depth", 18, "the depth of the searches")
	flag.IntVar(&cfg.plies, "plies", 2, "the deepest book positions, in plies from the start (even)")
	flag.StringVar(&replies, "replies", "4,6,8", "from -plies 4: the depths of the searches whose replies the book follows")
	flag.IntVar(&cfg.limit, "limit", 0, "stop after this many searches (0: none)")
	flag.IntVar(&cfg.tableMiB, "table", 64, "each search's table, MiB")
	flag.Parse()
	for _, f := range strings.Split(replies, ",") {
		d, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || d < 1 {
			fmt.Fprintf(os.Stderr, "adjbook: -replies %q: want depths of 1 or more\n", replies)
			os.Exit(2)
		}
		cfg.replies = append(cfg.replies, d)
	}
	if err := run(context.Background(), cfg, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "adjbook:", err)
		os.Exit(1)
	}
}

// run extends cfg.book, logging each search to log.
func run(ctx context.Context, cfg config, log io.Writer) error {
	if cfg.depth < 1 || cfg.plies < 0 || cfg.plies%2 != 0 || cfg.plies > 2*adjacency.MaxRounds-2 {
		return fmt.Errorf("depth %d, plies %d: want a depth of 1 or more and an even number of plies below %d", cfg.depth, cfg.plies, 2*adjacency.MaxRounds)
	}
	bk, err := load(cfg.book)
	if err != nil {
		return err
	}
	bk.Header = []string{
		"The opening book of Adjacency's first mover in 28-round games (strategies/adjsearch/book.go).",
		"Written by go run ./internal/train/adjbook; a line: the empty cells (canonical), move, depth, score, nodes.",
		fmt.Sprintf("Last run: -depth %d -plies %d -replies %s", cfg.depth, cfg.plies, joinInts(cfg.replies)),
	}
	start, err := adjacency.NewBoard(adjacency.MaxRounds, engine.X)
	if err != nil {
		return fmt.Errorf("the start: %w", err)
	}
	g := &generator{cfg: cfg, bk: bk, eng: adjsearch.New(nil), replyEng: adjsearch.New(nil), log: log, ctx: ctx}
	level := []adjacency.Board{start}
	for plies := 0; plies <= cfg.plies; plies += 2 {
		for _, b := range level {
			if err := g.ensure(b); err != nil {
				return err
			}
			if g.done() {
				return nil
			}
		}
		if plies < cfg.plies {
			if level, err = g.next(level, plies); err != nil {
				return err
			}
		}
	}
	return nil
}

// generator is one run's state.
type generator struct {
	cfg      config
	bk       *adjsearch.Book
	eng      *adjsearch.Engine // the book's searches
	replyEng *adjsearch.Engine // the replies', with a small table
	log      io.Writer
	ctx      context.Context
	searches int
}

func (g *generator) done() bool { return g.cfg.limit > 0 && g.searches >= g.cfg.limit }

// ensure searches b unless the book holds it from a search at least as
// deep, and saves the book after a search.
func (g *generator) ensure(b adjacency.Board) error {
	if _, en, ok := g.bk.Lookup(b); ok && en.Depth >= g.cfg.depth {
		return nil
	}
	if g.done() {
		return nil
	}
	began := time.Now()
	res, err := g.eng.Search(g.ctx, b, adjsearch.Options{Depth: g.cfg.depth, Threads: 1, MaxTableMiB: g.cfg.tableMiB})
	if err != nil {
		return fmt.Errorf("search %v: %w", b, err)
	}
	en, err := adjsearch.EntryOf(b, res)
	if err != nil {
		return err
	}
	if err := g.bk.Put(en); err != nil {
		return err
	}
	g.searches++
	fmt.Fprintf(g.log, "%d: %v: %s depth %d score %+d, %d nodes, %.1f s\n", g.searches, b, adjacency.CellName(res.Move), res.Depth, en.Score, res.Nodes, time.Since(began).Seconds())
	return save(g.cfg.book, g.bk)
}

// next returns the positions plies+2 plies from the start, from level,
// those plies from the start: after every first pair of moves from the
// start, else after each position's book move and the replies of the
// cfg.replies searches.
func (g *generator) next(level []adjacency.Board, plies int) ([]adjacency.Board, error) {
	var out []adjacency.Board
	seen := map[uint64]bool{}
	add := func(b adjacency.Board) {
		x, o := b.Marks()
		if k := adjsearch.Canonical(^(x | o)); !seen[k] {
			seen[k] = true
			out = append(out, b)
		}
	}
	if plies == 0 {
		start := level[0]
		for _, a := range start.Moves(nil) {
			after := start.After(a)
			for _, c := range after.Moves(nil) {
				add(after.After(c))
			}
		}
		return out, nil
	}
	for _, b := range level {
		m, _, ok := g.bk.Lookup(b)
		if !ok {
			continue // a position left for a later run (-limit)
		}
		after := b.After(m)
		for _, d := range g.cfg.replies {
			res, err := g.replyEng.Search(g.ctx, after, adjsearch.Options{Depth: d, Threads: 1, MaxTableMiB: 1})
			if err != nil {
				return nil, fmt.Errorf("reply to %v: %w", after, err)
			}
			add(after.After(res.Move))
		}
	}
	return out, nil
}

// load reads the book at path, or returns an empty one if there is none.
func load(path string) (*adjsearch.Book, error) {
	text, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return adjsearch.NewBook(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the book: %w", err)
	}
	bk, err := adjsearch.ParseBook(string(text))
	if err != nil {
		return nil, fmt.Errorf("read the book %s: %w", path, err)
	}
	return bk, nil
}

// save writes the book to path through a temporary file, so that a run
// stopped at any time leaves a whole book.
func save(path string, bk *adjsearch.Book) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".book-*")
	if err != nil {
		return fmt.Errorf("save the book: %w", err)
	}
	if _, err := tmp.WriteString(bk.Format()); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("save the book: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("save the book: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("save the book: %w", err)
	}
	return nil
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, d := range v {
		s[i] = strconv.Itoa(d)
	}
	return strings.Join(s, ",")
}
