package engine_test

import (
	"testing"

	"github.com/gambitbot/gambit/engine"
)

func TestSides(t *testing.T) {
	if engine.X.Other() != engine.O || engine.O.Other() != engine.X {
		t.Error("Other does not swap X and O")
	}
	for _, tc := range []struct {
		text string
		want engine.Side
	}{{"x", engine.X}, {"X", engine.X}, {"o", engine.O}, {"O", engine.O}} {
		if got, err := engine.ParseSide(tc.text); err != nil || got != tc.want {
			t.Errorf("ParseSide(%q) = %v, %v; want %v", tc.text, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "0", "xo", "first"} {
		if _, err := engine.ParseSide(bad); err == nil {
			t.Errorf("ParseSide(%q) accepted", bad)
		}
	}
	if engine.X.String() != "x" || engine.O.String() != "o" {
		t.Errorf("sides print as %q and %q", engine.X, engine.O)
	}
}

func TestResultStrings(t *testing.T) {
	want := map[engine.Result]string{engine.Ongoing: "ongoing", engine.Win: "win", engine.Loss: "loss", engine.Draw: "draw"}
	for r, s := range want {
		if r.String() != s {
			t.Errorf("%d prints as %q, want %q", r, r, s)
		}
	}
}

func TestFillKeys(t *testing.T) {
	a, b, c := make([]uint64, 1000), make([]uint64, 1000), make([]uint64, 1000)
	engine.FillKeys(42, a)
	engine.FillKeys(42, b)
	engine.FillKeys(43, c)
	seen := make(map[uint64]bool)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("key %d differs between two fills with one seed", i)
		}
		if a[i] == c[i] {
			t.Fatalf("key %d equal for seeds 42 and 43", i)
		}
		if seen[a[i]] {
			t.Fatalf("key %d repeats", i)
		}
		seen[a[i]] = true
	}
}

func TestResultSign(t *testing.T) {
	for r, want := range map[engine.Result]int{engine.Win: 1, engine.Loss: -1, engine.Draw: 0, engine.Ongoing: 0} {
		if got := r.Sign(); got != want {
			t.Errorf("%v.Sign() = %d, want %d", r, got, want)
		}
	}
}
