package analysis

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/tictactoe"
	"github.com/gambitbot/gambit/strategies"
)

// TestAnalyzeReportsTheSearch: x wins at once on 3; minimax solves it, and
// the report carries the move, the exact score and the line in the game's
// notation, as JSON with the field names gambit analyze --json promises.
func TestAnalyzeReportsTheSearch(t *testing.T) {
	info, err := strategies.LookupFor("minimax", "tictactoe")
	if err != nil {
		t.Fatal(err)
	}
	pos, err := tictactoe.Parse("xx..o.o.. x")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Analyze(context.Background(), info.Strategy, pos, strategies.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Move != "3" || r.Score != 1 || !r.Exact || len(r.PV) == 0 || r.PV[0] != "3" || r.Nodes == 0 {
		t.Fatalf("report %+v; want 3, score 1, exact, a line starting with 3", r)
	}
	data, _ := json.Marshal(r)
	for _, key := range []string{`"move":`, `"score":`, `"exact":`, `"depth":`, `"nodes":`, `"nps":`, `"pv":`, `"ms":`} {
		if !strings.Contains(string(data), key) {
			t.Errorf("JSON %s lacks %s", data, key)
		}
	}
	r.Millis, r.NPS = 12, 3400
	if got, want := r.Text("minimax"), "minimax plays 3: score +1 (exact), depth "; !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "in 12 ms (3400 nodes/s), line "+strings.Join(r.PV, " ")) {
		t.Errorf("Text = %q", got)
	}
	p := strategies.Progress{Depth: 3, Move: 2, Score: -1, Nodes: 42, Elapsed: 5 * time.Millisecond}
	if got := ProgressText(pos, p); got != "depth  3  3    score -1  42 nodes  5 ms" {
		t.Errorf("ProgressText = %q", got)
	}
}

func TestFormatLineStopsAtAnIllegalMove(t *testing.T) {
	pos := tictactoe.New()
	if got := FormatLine(pos, []engine.Move{4, 0, 4, 8}); strings.Join(got, " ") != "5 1" {
		t.Errorf("FormatLine = %v; want 5 1, stopping at the taken cell", got)
	}
	if pos.String() != tictactoe.New().String() {
		t.Error("FormatLine changed the position")
	}
}

// fakeGambit writes an executable that records its arguments in a file
// and prints answer, standing in for another gambit binary.
func fakeGambit(t *testing.T, answer string) (path, argsFile string) {
	t.Helper()
	dir := t.TempDir()
	path, argsFile = filepath.Join(dir, "gambit"), filepath.Join(dir, "args")
	script := "#!/bin/sh\necho \"$@\" > " + argsFile + "\nprintf '%s\\n' '" + answer + "'\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, argsFile
}

// TestExternalAsksTheBinary: an external strategy runs the binary's
// analyze with the position and the limits, and plays the move it
// answers; an answer that is no report, or no legal move, is an error
// naming the binary.
func TestExternalAsksTheBinary(t *testing.T) {
	path, argsFile := fakeGambit(t, `{"move":"3","score":1,"exact":true,"depth":5,"nodes":77}`)
	pos, _ := tictactoe.Parse("xx..o.o.. x")
	x := External{Game: "tictactoe", Path: path, Strategy: "minimax"}
	res, err := x.Search(context.Background(), pos, strategies.Limits{Nodes: 1000, Depth: 4, HashMiB: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Move != 2 || res.Score != 1 || !res.Exact || res.Depth != 5 || res.Nodes != 77 {
		t.Errorf("result %+v", res)
	}
	args, err := os.ReadFile(argsFile)
	if err != nil {
		t.Fatal(err)
	}
	want := "analyze --game tictactoe --position " + pos.String() + " --strategy minimax --threads 1 --json --hash 2 --nodes 1000 --depth 4 --time 24h\n"
	if string(args) != want {
		t.Errorf("the binary ran with %q, want %q", args, want)
	}
	for answer, wantErr := range map[string]string{
		`not json`:         "read its answer",
		`{"move":"1"}`:     "its move",
		`{"move":"seven"}`: "its move",
	} {
		path, _ := fakeGambit(t, answer)
		x.Path = path
		if _, err := x.Search(context.Background(), pos, strategies.Limits{}); err == nil || !strings.Contains(err.Error(), wantErr) || !strings.Contains(err.Error(), path) {
			t.Errorf("answer %q: error %v; want one naming %s and %q", answer, err, path, wantErr)
		}
	}
}

func TestParseExternal(t *testing.T) {
	path, _ := fakeGambit(t, "")
	got, err := ParseExternal("connect4", " old=minimax@"+path+", ,older=greedy@"+path)
	if err != nil || len(got) != 2 || got[0].Name != "old" || got[0].Strategy != "minimax" || got[1].Name != "older" || got[1].Game != "connect4" || got[1].Path != path {
		t.Fatalf("ParseExternal = %+v, %v", got, err)
	}
	for list, want := range map[string]string{
		"old=/tmp/gambit-old":         "want NAME=STRATEGY@PATH",
		"=minimax@" + path:            "want NAME=STRATEGY@PATH",
		"old=minimax@/no/such/gambit": "--external old",
	} {
		if _, err := ParseExternal("connect4", list); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseExternal(%q): %v; want an error naming %q", list, err, want)
		}
	}
}
