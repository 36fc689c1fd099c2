package tournament

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// stateBefore returns the tournament as it stood before round r was
// paired: every player's first r-1 rounds, and round r's entry of those
// who were not paired in it (a bye they asked for, an absence), which
// makes them sit the round out.
func stateBefore(s *Swiss, r int) *Swiss {
	out := *s
	out.Players = make([]Player, len(s.Players))
	for i, p := range s.Players {
		q := p
		q.Results = slices.Clone(p.Results[:r-1])
		if e := p.Results[r-1]; !e.Result.paired() {
			q.Results = append(q.Results, e)
		}
		out.Players[i] = q
	}
	return out.withRounds()
}

func (s Swiss) withRounds() *Swiss { return &s }

// recorded returns the pairings the file records for round r.
func recorded(s *Swiss, r int) []Pairing {
	var out []Pairing
	for i, p := range s.Players {
		e := p.Results[r-1]
		switch {
		case e.Result == PairingBye:
			out = append(out, Pairing{White: i + 1})
		case e.Result.paired() && e.Color == White:
			out = append(out, Pairing{White: i + 1, Black: e.Opponent})
		}
	}
	return out
}

func sortedPairings(ps []Pairing) []Pairing {
	out := slices.Clone(ps)
	slices.SortFunc(out, func(a, b Pairing) int {
		if a.White != b.White {
			return a.White - b.White
		}
		return a.Black - b.Black
	})
	return out
}

// replay pairs every round of the file from the state before it and
// compares with the file's round; it returns the rounds compared, those
// identical, and a description of the first difference.
func replay(t *testing.T, path string) (compared, identical int, diff string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := DecodeTRF(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for r := 1; r <= s.Played(); r++ {
		want := sortedPairings(recorded(s, r))
		got, err := PairDutch(stateBefore(s, r))
		compared++
		if err != nil {
			if diff == "" {
				diff = fmt.Sprintf("%s round %d: %v", filepath.Base(path), r, err)
			}
			continue
		}
		got = sortedPairings(got)
		if slices.Equal(got, want) {
			identical++
		} else if diff == "" {
			diff = fmt.Sprintf("%s round %d:\n  ours %v\n  bbp  %v", filepath.Base(path), r, got, want)
		}
	}
	return compared, identical, diff
}

// shortSample is what -short replays: a tournament of each size class.
var shortSample = []string{"p06-s1.trf", "p13-s2.trf", "p24-s1.trf", "p41-s3.trf"}

// TestDutchMatchesBBPPairings replays the random tournaments
// bbpPairings generated and paired (testdata/bbp, see its README), round
// by round: from the state before each round, PairDutch must give the
// pairings and colours the file records. Under -short a sample covering
// every size class; the full set otherwise.
func TestDutchMatchesBBPPairings(t *testing.T) {
	files, err := filepath.Glob("testdata/bbp/*.trf")
	if err != nil || len(files) < 100 {
		t.Fatalf("testdata/bbp holds %d files (%v); regenerate it with scripts/bbp-testdata.sh", len(files), err)
	}
	if testing.Short() {
		// One tournament of each size class: 5–9, 10–19, 20–39 and
		// 40–60 players.
		files = nil
		for _, name := range shortSample {
			files = append(files, filepath.Join("testdata/bbp", name))
		}
	}
	compared, identical := 0, 0
	var diffs []string
	for _, f := range files {
		c, i, d := replay(t, f)
		compared += c
		identical += i
		if d != "" {
			diffs = append(diffs, d)
		}
	}
	t.Logf("%d tournaments, %d rounds compared, %d identical", len(files), compared, identical)
	for i, d := range diffs {
		if i == 5 {
			t.Logf("… and %d more tournaments with differences", len(diffs)-5)
			break
		}
		t.Log(d)
	}
	if identical != compared {
		t.Errorf("%d of %d rounds differ from bbpPairings'", compared-identical, compared)
	}
	if !testing.Short() && compared < 1000 {
		t.Errorf("only %d rounds compared; the check needs at least 1,000", compared)
	}
}
