package league_test

import (
	"testing"

	"github.com/gambitbot/gambit/tournament/league"
)

// BenchmarkNextSwiss60 pairs a late round of a stored Swiss of sixty
// players (bbpPairings' p60-s1, before the last round the store can
// hold): the work of one Next, or of Over, for the largest field a
// server may enter.
func BenchmarkNextSwiss60(b *testing.B) {
	s := decodeFile(b, "p60-s1.trf")
	for k := s.Played(); k > 1; k-- {
		t, ok := storedBefore(s, k)
		if !ok {
			continue
		}
		b.Logf("round %d of %d", k, s.Rounds)
		for b.Loop() {
			if _, ok, err := league.Next(t, t.StartedAt); err != nil || !ok {
				b.Fatal(ok, err)
			}
		}
		return
	}
	b.Skip("p60-s1 has no round the store can hold")
}
