package ridge

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestCholeskyRecoversAKnownSystem(t *testing.T) {
	const n = 16
	rng := rand.New(rand.NewPCG(9, 9))
	var m [n][n]float64
	for i := range m {
		for j := range m[i] {
			m[i][j] = rng.NormFloat64()
		}
	}
	a := make([][]float64, n) // mᵀm + I: symmetric positive definite
	for i := range n {
		a[i] = make([]float64, n)
		for j := range n {
			for k := range n {
				a[i][j] += m[k][i] * m[k][j]
			}
		}
		a[i][i]++
	}
	want, b := make([]float64, n), make([]float64, n)
	for i := range want {
		want[i] = float64(i) - 7.5
	}
	for i := range n {
		for j := range n {
			b[i] += a[i][j] * want[j]
		}
	}
	got, ok := Cholesky(a, b)
	if !ok {
		t.Fatal("not solved")
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-9 {
			t.Fatalf("x[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	a[3][3] = 0 // not positive definite
	if _, ok := Cholesky(a, b); ok {
		t.Error("solved a matrix that is not positive definite")
	}
}

func TestSolveFitsAndPenalises(t *testing.T) {
	// Labels 3 + 2·x₁ − x₂ exactly: without penalty the fit recovers the
	// weights; with one, the penalised weights shrink and the free bias
	// does not.
	rng := rand.New(rand.NewPCG(1, 1))
	sys := New(3)
	for range 200 {
		x1, x2 := rng.NormFloat64(), rng.NormFloat64()
		sys.Add([]float64{1, x1, x2}, 3+2*x1-x2)
	}
	if sys.Rows() != 200 {
		t.Fatalf("%d rows, want 200", sys.Rows())
	}
	w, ok := sys.Solve(0, -1)
	if !ok {
		t.Fatal("not solved")
	}
	for i, want := range []float64{3, 2, -1} {
		if math.Abs(w[i]-want) > 1e-9 {
			t.Fatalf("w[%d] = %v, want %v", i, w[i], want)
		}
	}
	p, ok := sys.Solve(1, 0)
	if !ok {
		t.Fatal("penalised: not solved")
	}
	if math.Abs(p[1]) >= 2 || math.Abs(p[2]) >= 1 || math.Abs(p[0]-3) > 0.5 {
		t.Fatalf("penalised weights %v: want |w₁| < 2, |w₂| < 1, bias near 3", p)
	}
	if _, ok := New(2).Solve(0, -1); ok {
		t.Error("solved a system of no samples without penalty")
	}
}
