package c4solver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gambitbot/gambit/engine/connect4"
)

// Suite solves a test suite of Connect Four positions, one a line: a
// position text and, optionally, its expected score (John Tromp's and
// Pascal Pons' test sets), as gambit solve --game connect4 does.
type Suite struct {
	// Solve solves one position: a Solver's Solve, or SolveWeak to
	// compare signs only (Weak).
	Solve func(context.Context, *connect4.Position) (Result, error)
	// Weak compares the signs of the expected scores only.
	Weak bool
	// Time gives up on a position after this long; 0 for never.
	Time time.Duration
	// Log receives what goes beside the results: a position still being
	// solved every StillEvery (10 s if 0), one given up, a score that
	// differs from the expected one, and the summary at the end.
	Log        io.Writer
	StillEvery time.Duration
}

// SuiteLineError is a line of a suite that is no position and score.
type SuiteLineError struct {
	// Line is the line's number, from 1.
	Line int
	Err  error
}

// Error implements error.
func (e *SuiteLineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// Unwrap returns what is wrong with the line.
func (e *SuiteLineError) Unwrap() error { return e.Err }

// Run solves every position in, writing "position score nodes µs" per
// position solved to out, the summary to Log. It fails with a
// *SuiteLineError on a malformed line, and, once every line is done, when
// a score differed from the expected one or a position was given up.
func (s Suite) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	var positions, mismatches, unsolved, nodes uint64
	var spent time.Duration
	lines := bufio.NewScanner(in)
	for line := 1; lines.Scan(); line++ {
		fields := strings.Fields(lines.Text())
		if len(fields) == 0 {
			continue
		}
		if len(fields) > 2 {
			return &SuiteLineError{line, fmt.Errorf("%d fields; want a position and optionally its score", len(fields))}
		}
		p, err := connect4.Parse(fields[0])
		if err != nil {
			return &SuiteLineError{line, err}
		}
		want, hasWant := 0, len(fields) == 2
		if hasWant {
			if want, err = strconv.Atoi(fields[1]); err != nil {
				return &SuiteLineError{line, fmt.Errorf("expected score %q is not an integer", fields[1])}
			}
			if s.Weak {
				want = max(-1, min(want, 1))
			}
		}
		start := time.Now()
		r, err := s.solveOne(ctx, p, func(spent time.Duration) {
			fmt.Fprintf(s.Log, "line %d: still solving %s after %s\n", line, fields[0], spent.Round(time.Second))
		})
		elapsed := time.Since(start)
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			unsolved++
			fmt.Fprintf(s.Log, "line %d: %s not solved within %s (%d nodes)\n", line, fields[0], s.Time, r.Nodes)
			continue
		}
		if err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		positions++
		nodes += r.Nodes
		spent += elapsed
		if _, err := fmt.Fprintf(out, "%s %d %d %d\n", fields[0], r.Score, r.Nodes, elapsed.Microseconds()); err != nil {
			return err
		}
		if hasWant && r.Score != want {
			mismatches++
			fmt.Fprintf(s.Log, "line %d: %s scores %d, expected %d\n", line, fields[0], r.Score, want)
		}
	}
	if err := lines.Err(); err != nil {
		return fmt.Errorf("reading the positions: %w", err)
	}
	var meanMicros, meanNodes float64
	if positions > 0 {
		meanMicros = float64(spent.Microseconds()) / float64(positions)
		meanNodes = float64(nodes) / float64(positions)
	}
	fmt.Fprintf(s.Log, "%d positions, %d mismatches, mean %.1f µs, mean %.0f nodes\n", positions, mismatches, meanMicros, meanNodes)
	if mismatches > 0 {
		return fmt.Errorf("%d of %d scores differ from the expected ones", mismatches, positions)
	}
	if unsolved > 0 {
		return fmt.Errorf("%d positions not solved within %s each", unsolved, s.Time)
	}
	return nil
}

// solveOne solves one position within s.Time (0: none), calling still
// every s.StillEvery while it runs.
func (s Suite) solveOne(ctx context.Context, p *connect4.Position, still func(time.Duration)) (Result, error) {
	cancel := context.CancelFunc(func() {})
	if s.Time > 0 {
		ctx, cancel = context.WithTimeout(ctx, s.Time)
	}
	defer cancel()
	every := s.StillEvery
	if every <= 0 {
		every = 10 * time.Second
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(done)
	wg.Go(func() {
		start := time.Now()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				still(time.Since(start))
			}
		}
	})
	return s.Solve(ctx, p)
}
