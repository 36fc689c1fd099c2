package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/strategies/adjeval"
)

// TestTrainWritesWeights trains on 24 games, the fewest of seed 4 whose
// positions 1–4 plies from the end are enough to train their stage rather
// than copy it (20 are not): more games cost minutes of CPU under -race and
// check nothing more.
func TestTrainWritesWeights(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "weights.bin")
	code, stdout, stderr := gambit("train", "--out", out, "--games", "24", "--exact-plies", "0", "--holdout", "5", "--seed", "4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := adjeval.Parse(data); err != nil {
		t.Fatalf("the file written: %v", err)
	}
	for _, want := range []string{"distinct positions", "| plies left | trained | held out |", "| 1–4 |", "| 53–56"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "train: stage 13 (53–56 plies left)") || !strings.Contains(stderr, "bytes written to "+out) {
		t.Errorf("stderr %q: want progress by stage and the file written", stderr)
	}
}

func TestTrainBadOptions(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "--out is required"},
		{[]string{"--out", filepath.Join(dir, "w"), "--games", "0"}, "--games 0: must be 1 to 100,000"},
		{[]string{"--out", filepath.Join(dir, "w"), "--explore", "1.5"}, "want a probability"},
		{[]string{"--out", filepath.Join(dir, "w"), "stray"}, `unexpected argument "stray"`},
	} {
		code, _, stderr := gambit(append([]string{"train"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("train %v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
	// A directory that does not exist: the run fails and writes nothing.
	code, _, stderr := gambit("train", "--out", filepath.Join(dir, "missing", "w"), "--games", "1", "--exact-plies", "0")
	if code != 1 || !strings.Contains(stderr, "missing") {
		t.Errorf("train into a missing directory: exit %d, stderr %q", code, stderr)
	}
}
