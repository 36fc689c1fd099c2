package main

import (
	"bytes"
	"context"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/bolt"
	"github.com/gambitbot/gambit/storage/storetest"
)

// TestReviewAMoveList reviews a Tic-Tac-Toe game given as moves: o's
// edge at move 2 is a blunder whose best is a corner, the turning point;
// --out writes the replay (a frame per position) and the turning point.
// Every move is judged exactly, and it says so; no progress is shown on a
// standard error that is no terminal. Connect Four's columns may be
// written together.
func TestReviewAMoveList(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, out, errOut := gambit("review", "--game", "tictactoe", "--moves", "5 2 1 9 7 3 4", "--time", "0", "--nodes", "100000", "--out", dir)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, standard error %q: want 0 and no progress shown where it is no terminal", code, errOut)
	}
	for _, want := range []string{"Tic-Tac-Toe review, 7 moves", "  2. o 2     blunder    best ", "+0 (exact) → -1 (exact)",
		"o: best 2 · good 0 · inaccuracy 0 · mistake 0 · blunder 1", "Turning point: move 2, o played 2, a blunder",
		"Every move judged exactly, to the end of the game"} {
		if !strings.Contains(out, want) {
			t.Errorf("the review lacks %q:\n%s", want, out)
		}
	}
	replay, err := os.ReadFile(filepath.Join(dir, "replay.gif"))
	if err != nil {
		t.Fatal(err)
	}
	if anim, err := gif.DecodeAll(bytes.NewReader(replay)); err != nil || len(anim.Image) != 8 {
		t.Errorf("replay.gif: %v; want 8 frames", err)
	}
	pic, err := os.ReadFile(filepath.Join(dir, "turning-point.png"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(pic)); err != nil {
		t.Errorf("turning-point.png: %v", err)
	}

	code, out, errOut = gambit("review", "--game", "connect4", "--moves", "4453", "--time", "0", "--nodes", "100000")
	if code != 0 || !strings.Contains(out, "Connect Four review, 4 moves") || !strings.Contains(out, "  4. o 3") {
		t.Errorf("Connect Four's columns written together: exit %d, %s%s", code, out, errOut)
	}
}

// TestReviewBadInput: an illegal move, no moves, a puzzle and a game the
// database does not hold are clear errors; an illegal move is named whole,
// with the reason.
func TestReviewBadInput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gambit.db")
	s, err := bolt.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	open := storetest.MustCreate(t, s, storetest.UserVsUser("connect4", "alice", "bob"))
	s.Close()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--game", "tictactoe", "--moves", "5 5"}, 2, "move 2"},
		// A move is named whole, with the engine's reason, however long
		// its name: a taken point, a move after the end, a pass with moves
		// left. Only a run of one-character moves is read a character a
		// move, and named so.
		{[]string{"--game", "gomoku", "--moves", "h8 h8"}, 2, `--moves: move 2: gomoku: move "h8": the point is taken`},
		{[]string{"--game", "gomoku", "--moves", "h8 a1 h9 a2 h10 a3 h11 a4 h12 b5"}, 2, `--moves: move 10: gomoku: move "b5": the game is over`},
		{[]string{"--game", "othello", "--moves", "pass"}, 2, `--moves: move 1: othello: move "pass": a side may pass only when it has no move`},
		{[]string{"--game", "connect4", "--moves", "44444444"}, 2, "--moves: move 7: connect4: move 4: the column is full"},
		{[]string{"--game", "tictactoe"}, 2, "--moves is required"},
		{[]string{"--game", "8puzzle", "--moves", "R"}, 2, "8puzzle is a puzzle for one player, with no AI to play it"},
		{[]string{"--db", path, "--game", "nosuch"}, 1, "not found"},
		{[]string{"--db", path, "--game", string(open.ID)}, 1, "only a finished duel"},
	} {
		code, out, errOut := gambit(append([]string{"review", "--time", "0", "--nodes", "1000"}, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("review %v: exit %d, %q%q; want exit %d saying %q", c.args, code, out, errOut, c.code, c.want)
		}
	}
}

// TestReviewAStoredGame reviews a game the bot stored, by its ID: the
// review of its moves, the loser's blunder its turning point.
func TestReviewAStoredGame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gambit.db")
	s, err := bolt.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	g := storetest.MustCreate(t, s, storetest.UserVsUser("tictactoe", "alice", "bob"))
	g.Moves, g.Position, g.Status = []string{"5", "2", "1", "9", "7", "3", "4"}, "xooxx.x.o o", storage.StatusFinished
	g.Turn = 1 // bob, o, would move next, as the bot leaves a finished game
	if _, err := s.FinishGame(ctx, g, storage.Result{Winner: 0}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	code, out, errOut := gambit("review", "--db", path, "--game", string(g.ID), "--time", "0", "--nodes", "100000")
	if code != 0 || !strings.Contains(out, "Turning point: move 2, o played 2, a blunder") {
		t.Fatalf("review of stored game %s: exit %d:\n%s%s", g.ID, code, out, errOut)
	}
}
