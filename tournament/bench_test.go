package tournament

import (
	"os"
	"testing"
)

// BenchmarkPairDutch60 pairs rounds 2, 5 and 9 of a 60-player tournament
// of testdata/bbp (each from the state before it).
func BenchmarkPairDutch60(b *testing.B) {
	f, err := os.Open("testdata/bbp/p60-s1.trf")
	if err != nil {
		b.Fatal(err)
	}
	s, err := DecodeTRF(f)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	for _, r := range []int{2, 5, 9} {
		state := stateBefore(s, r)
		b.Run("round"+string(rune('0'+r)), func(b *testing.B) {
			for b.Loop() {
				if _, err := PairDutch(state); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
