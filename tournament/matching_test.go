package tournament

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// bruteMax returns the greatest total weight of a matching of the graph,
// by trying every matching.
func bruteMax(n int, w [][]*big.Int) *big.Int {
	used := make([]bool, n)
	var best *big.Int
	var rec func(total *big.Int)
	rec = func(total *big.Int) {
		i := 0
		for i < n && used[i] {
			i++
		}
		if i == n {
			if best == nil || total.Cmp(best) > 0 {
				best = new(big.Int).Set(total)
			}
			return
		}
		used[i] = true
		rec(total) // i unmatched
		for j := i + 1; j < n; j++ {
			if !used[j] && w[i][j].Sign() > 0 {
				used[j] = true
				rec(new(big.Int).Add(total, w[i][j]))
				used[j] = false
			}
		}
		used[i] = false
	}
	rec(new(big.Int))
	return best
}

func toWide(x *big.Int, words int) wide {
	out := make(wide, words)
	for i, word := range x.Bits() {
		out[i] = uint64(word)
	}
	return out
}

// TestMatchingIsMaximumAgainstBruteForce compares the blossom algorithm's
// matchings with every matching of small random graphs: it must be a
// matching over existing edges, and of the greatest weight. The weights
// are small (many ties, many blossoms) or several words wide.
func TestMatchingIsMaximumAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := 3000
	if testing.Short() {
		cases = 600
	}
	for c := range cases {
		n := 1 + rng.IntN(10)
		words := 1
		wideWeights := c%3 == 2
		if wideWeights {
			words = 4
		}
		m := newMatcher(n, words)
		w := make([][]*big.Int, n)
		for i := range w {
			w[i] = make([]*big.Int, n)
			for j := range w[i] {
				w[i][j] = new(big.Int)
			}
		}
		density := rng.Float64()
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if rng.Float64() > density {
					continue
				}
				x := big.NewInt(int64(1 + rng.IntN(6)))
				if wideWeights {
					x.Lsh(x, 150)
					x.Add(x, new(big.Int).Lsh(big.NewInt(int64(rng.IntN(4))), 70))
					x.Add(x, big.NewInt(int64(rng.IntN(3))))
				}
				w[i][j].Set(x)
				w[j][i].Set(x)
				m.setWeight(i, j, toWide(x, words))
			}
		}
		mate := m.solve()
		total := new(big.Int)
		for i, j := range mate {
			if mate[j] != i {
				t.Fatalf("case %d: mate not symmetric: %v", c, mate)
			}
			if j > i {
				if w[i][j].Sign() == 0 {
					t.Fatalf("case %d: matched %d–%d without an edge", c, i, j)
				}
				total.Add(total, w[i][j])
			}
		}
		if want := bruteMax(n, w); total.Cmp(want) != 0 {
			t.Fatalf("case %d (n=%d): matching weighs %v, the best weighs %v", c, n, total, want)
		}
	}
}

// TestWideArithmetic checks the wide numbers against math/big.
func TestWideArithmetic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		a, b := randBig(rng, 250), randBig(rng, 250)
		if a.Cmp(b) < 0 {
			a, b = b, a
		}
		k := uint(rng.IntN(100))
		wa, wb := toWide(a, 6), toWide(b, 6)
		sum := new(big.Int).Add(a, b)
		x := append(wide{}, wa...)
		x.add(wb)
		if x.cmp(toWide(sum, 6)) != 0 {
			t.Fatalf("%v+%v", a, b)
		}
		x.set(wa)
		x.sub(wb)
		if x.cmp(toWide(new(big.Int).Sub(a, b), 6)) != 0 {
			t.Fatalf("%v-%v", a, b)
		}
		x.set(wb)
		x.shl(k)
		if x.cmp(toWide(new(big.Int).Lsh(b, k), 6)) != 0 {
			t.Fatalf("%v<<%d", b, k)
		}
		x.set(wa)
		x.shr1()
		if x.cmp(toWide(new(big.Int).Rsh(a, 1), 6)) != 0 {
			t.Fatalf("%v>>1", a)
		}
		x.set(wb)
		x.addBit(k)
		if x.cmp(toWide(new(big.Int).Add(b, new(big.Int).Lsh(big.NewInt(1), k)), 6)) != 0 {
			t.Fatalf("%v+2^%d", b, k)
		}
		if got, want := wa.cmp(wb), a.Cmp(b); got != want {
			t.Fatalf("cmp(%v, %v) = %d, want %d", a, b, got, want)
		}
	}
}

// randBig returns a random number below 2^bits.
func randBig(rng *rand.Rand, bits int) *big.Int {
	x := new(big.Int)
	for i := 0; i < bits; i += 60 {
		x.Lsh(x, 60)
		x.Add(x, big.NewInt(int64(rng.Uint64()>>4)))
	}
	return x.Rsh(x, uint(((bits+59)/60)*60-bits))
}
