package puzzles

import (
	"bytes"
	"strings"
	"testing"
)

// TestSolverListing: every solver is listed under its puzzles, and the
// table says which sliding-tile solvers prove their solutions shortest
// (a dash for N-Queens, where it does not apply).
func TestSolverListing(t *testing.T) {
	all := SolverEntries()
	if len(all["8puzzle"]) != len(TileSolvers()) || len(all["15puzzle"]) != len(TileSolvers()) || len(all["nqueens"]) != len(QueensSolvers()) {
		t.Fatalf("entries %v", all)
	}
	var out bytes.Buffer
	if err := WriteSolverTable(&out, append(all["8puzzle"], all["nqueens"]...)); err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n")[1:] {
		f := strings.Fields(l)
		rows[f[0]] = f
	}
	for name, want := range map[string]string{"astar": "yes", "greedy-h1": "no", "min-conflicts": "—"} {
		if f := rows[name]; len(f) < 3 || f[2] != want {
			t.Errorf("row of %s: %q; want optimal %q", name, f, want)
		}
	}
}
