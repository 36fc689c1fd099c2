// Package ridge fits linear models by ridge regression, for the trainers
// of Gambit's learned evaluations (strategies/adjeval/train and
// strategies/adjsearch's set-game evaluation).
//
// The normal equations (XᵀX + λnI)·w = Xᵀy have one row and column per
// feature (a few dozen at most), so they are built in one pass over the
// samples and solved by Cholesky factorisation here: a linear-algebra
// library would add a dependency for forty lines.
package ridge

import "math"

// System accumulates the normal equations of a least-squares fit.
type System struct {
	n    int
	xtx  []float64 // n×n, row-major
	xty  []float64
	rows int
}

// New returns an empty system of n features.
func New(n int) *System {
	return &System{n: n, xtx: make([]float64, n*n), xty: make([]float64, n)}
}

// Add adds one sample: its features x (len x must be the system's
// features) and label y.
func (s *System) Add(x []float64, y float64) {
	for i, xi := range x[:s.n] {
		s.xty[i] += xi * y
		row := s.xtx[i*s.n : (i+1)*s.n]
		for j, xj := range x[:s.n] {
			row[j] += xi * xj
		}
	}
	s.rows++
}

// Rows is the number of samples added.
func (s *System) Rows() int { return s.rows }

// Solve returns the weights minimising the squared error plus lambda·rows
// times the squared weights, but for the weight of feature free (the bias;
// -1 for none), which is not penalised. ok is false when the system is not
// positive definite (a feature constant over the samples and no penalty).
func (s *System) Solve(lambda float64, free int) (w []float64, ok bool) {
	a := make([][]float64, s.n)
	for i := range a {
		a[i] = append([]float64(nil), s.xtx[i*s.n:(i+1)*s.n]...)
		if i != free {
			a[i][i] += lambda * float64(s.rows)
		}
	}
	return Cholesky(a, s.xty)
}

// Cholesky solves a·x = b for a symmetric positive-definite a by Cholesky
// factorisation a = L·Lᵀ; ok is false when a is not positive definite.
func Cholesky(a [][]float64, b []float64) (x []float64, ok bool) {
	n := len(b)
	l := make([][]float64, n)
	for i := range l {
		l[i] = make([]float64, n)
	}
	for j := range n {
		d := a[j][j]
		for k := range j {
			d -= l[j][k] * l[j][k]
		}
		if d <= 1e-9*math.Max(1, a[j][j]) {
			return nil, false
		}
		l[j][j] = math.Sqrt(d)
		for i := j + 1; i < n; i++ {
			s := a[i][j]
			for k := range j {
				s -= l[i][k] * l[j][k]
			}
			l[i][j] = s / l[j][j]
		}
	}
	y := make([]float64, n)
	for i := range n { // L·y = b
		s := b[i]
		for k := range i {
			s -= l[i][k] * y[k]
		}
		y[i] = s / l[i][i]
	}
	x = make([]float64, n)
	for i := n - 1; i >= 0; i-- { // Lᵀ·x = y
		s := y[i]
		for k := i + 1; k < n; k++ {
			s -= l[k][i] * x[k]
		}
		x[i] = s / l[i][i]
	}
	return x, true
}
