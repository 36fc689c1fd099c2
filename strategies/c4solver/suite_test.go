package c4solver

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/engine/connect4"
)

// scores is a stand-in solver: the score and nodes of each position text.
func scores(known map[string]int) func(context.Context, *connect4.Position) (Result, error) {
	return func(_ context.Context, p *connect4.Position) (Result, error) {
		return Result{Score: known[p.String()], Nodes: 7}, nil
	}
}

// TestSuiteComparesScores: each position is answered on its line; a score
// that differs from the expected one is named on the log and fails the
// run after every line is done; a weak suite compares signs.
func TestSuiteComparesScores(t *testing.T) {
	var out, log bytes.Buffer
	s := Suite{Solve: scores(map[string]int{"4453": 2, "44": -1}), Log: &log}
	err := s.Run(context.Background(), strings.NewReader("4453 2\n\n44 3\n4453\n"), &out)
	if err == nil || err.Error() != "1 of 3 scores differ from the expected ones" {
		t.Errorf("Run: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "4453 2 7 ") || !strings.HasPrefix(lines[1], "44 -1 7 ") {
		t.Errorf("output:\n%s", out.String())
	}
	if !strings.Contains(log.String(), "line 3: 44 scores -1, expected 3\n") || !strings.Contains(log.String(), "3 positions, 1 mismatches, mean ") {
		t.Errorf("log:\n%s", log.String())
	}
	s = Suite{Solve: scores(map[string]int{"4453": 1, "44": -1}), Weak: true, Log: &log} // SolveWeak's signs
	out.Reset()
	if err := s.Run(context.Background(), strings.NewReader("4453 9\n44 -12\n"), &out); err != nil {
		t.Errorf("weak: %v", err)
	}
}

func TestSuiteRefusesMalformedLines(t *testing.T) {
	s := Suite{Solve: scores(nil), Log: new(bytes.Buffer)}
	for input, want := range map[string]string{
		"4453 1 2\n":     "line 1: 3 fields",
		"44\n4x\n":       "line 2: ",
		"\n\n4453 one\n": `line 3: expected score "one" is not an integer`,
	} {
		err := s.Run(context.Background(), strings.NewReader(input), new(bytes.Buffer))
		var lineErr *SuiteLineError
		if !errors.As(err, &lineErr) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %v; want a *SuiteLineError starting %q", input, err, want)
		}
	}
}

// signal is a log that tells when a position is reported still solving.
type signal struct {
	bytes.Buffer
	still chan struct{}
}

func (s *signal) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte("still solving")) {
		select {
		case s.still <- struct{}{}:
		default:
		}
	}
	return s.Buffer.Write(p)
}

// TestSuiteGivesUpAfterItsTime: a position still being solved is reported
// on the log; one that runs out of its time is given up, named, and the
// next line goes on; the run then fails saying how many were given up.
func TestSuiteGivesUpAfterItsTime(t *testing.T) {
	log := &signal{still: make(chan struct{}, 1)}
	slow := func(ctx context.Context, p *connect4.Position) (Result, error) {
		if p.String() != "67676" {
			return Result{Score: 1, Nodes: 3}, nil
		}
		<-log.still // reported as still being solved
		<-ctx.Done()
		return Result{Nodes: 99}, ctx.Err()
	}
	s := Suite{Solve: slow, Time: time.Millisecond, StillEvery: time.Microsecond, Log: log}
	var out bytes.Buffer
	err := s.Run(context.Background(), strings.NewReader("67676\n4453\n"), &out)
	if err == nil || err.Error() != "1 positions not solved within 1ms each" {
		t.Errorf("Run: %v", err)
	}
	if !strings.Contains(log.String(), "line 1: still solving 67676 after") || !strings.Contains(log.String(), "line 1: 67676 not solved within 1ms (99 nodes)") {
		t.Errorf("log:\n%s", log.String())
	}
	if !strings.HasPrefix(out.String(), "4453 1 3 ") || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("output %q, want the second line alone", out.String())
	}
}
