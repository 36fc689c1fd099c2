package puzzles

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/engine/slidingtile"
)

// TestTileReports: a solved run reports the blank's moves and the tiles
// slid, which solve the position; a run stopped at its node cap says so,
// in the comparison's table and as a single run's error.
func TestTileReports(t *testing.T) {
	p, err := slidingtile.Parse("1,2,3,4,0,6,7,5,8")
	if err != nil {
		t.Fatal(err)
	}
	astar, err := LookupTile("astar")
	if err != nil {
		t.Fatal(err)
	}
	solved := NewTileReport(RunTileWithin(context.Background(), astar, p, Limits{}), p)
	if !solved.Solved || solved.Length != 2 || len(solved.Moves) != 2 || len(solved.Tiles) != 2 || solved.Error != "" {
		t.Fatalf("report %+v", solved)
	}
	q := p.Clone().(*slidingtile.Position)
	for _, tile := range solved.Tiles {
		m, err := q.ParseMove(string(rune('0' + tile)))
		if err != nil {
			t.Fatal(err)
		}
		q.Play(m)
	}
	if !q.Solved() {
		t.Errorf("tiles slid %v do not solve it", solved.Tiles)
	}
	capped := NewTileReport(Run{Algorithm: "bfs", Nodes: 10, Err: ErrLimit}, p)
	if capped.Solved || capped.Error != "node limit" {
		t.Errorf("capped report %+v", capped)
	}
	timedOut := NewTileReport(Run{Algorithm: "bfs", Err: context.DeadlineExceeded}, p)
	if timedOut.Error != "time limit" {
		t.Errorf("timed-out report %+v", timedOut)
	}

	var out bytes.Buffer
	if err := WriteTileReports(&out, []TileReport{solved}, false, false); err != nil || !strings.Contains(out.String(), "length: 2\n") || !strings.Contains(out.String(), "optimal: yes (proved)\n") {
		t.Errorf("one run: %v\n%s", err, out.String())
	}
	if err := WriteTileReports(&out, []TileReport{capped}, false, false); err == nil || err.Error() != "bfs gave up: node limit after 10 nodes" {
		t.Errorf("one capped run: %v", err)
	}
	out.Reset()
	if err := WriteTileReports(&out, []TileReport{solved, capped}, true, false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "optimal?") || !strings.HasSuffix(strings.TrimSpace(lines[2]), "node limit") || !strings.Contains(lines[2], "—") {
		t.Errorf("table:\n%s", out.String())
	}
	out.Reset()
	var list []TileReport
	if err := WriteTileReports(&out, []TileReport{solved, capped}, true, true); err != nil || json.Unmarshal(out.Bytes(), &list) != nil || len(list) != 2 {
		t.Errorf("JSON list %v: %s", err, out.String())
	}
}

// TestQueensReport: rows count from 1 at the bottom; the board is drawn
// up to 12 queens.
func TestQueensReport(t *testing.T) {
	sol := QueensSolution{Rows: []int{0, 4, 7, 5, 2, 6, 1, 3}, Nodes: 9, Restarts: 1}
	r := NewQueensReport("backtracking", 8, sol, 1500*time.Microsecond)
	if r.Conflicts != 0 || r.Rows[0] != 1 || r.Rows[2] != 8 || sol.Rows[0] != 0 || r.Millis != 1.5 {
		t.Fatalf("report %+v (solution %v)", r, sol.Rows)
	}
	var out bytes.Buffer
	if err := r.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if strings.Count(text, "Q") != 8 || !strings.Contains(text, " 8  . . Q . . . . .\n") || !strings.Contains(text, "rows (column by column, from the bottom): 1,5,8,6,3,7,2,4\n") ||
		!strings.Contains(text, "time: 1.5 ms\n") {
		t.Errorf("text:\n%s", text)
	}
}
