package bot_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// pickCell plays a cell of an Adjacency board in two clicks as a user: its
// file under the board, then its rank on the picker only the user sees.
// It returns the picker and the answer to the second click.
func pickCell(t *testing.T, h *harness, user string, id storage.GameID, cell string) (picker, played discordtest.Message) {
	t.Helper()
	ply := strconv.Itoa(len(h.game(id).Moves))
	board := h.waitBoard(id, "the board at ply "+ply, func(m discordtest.Message) bool {
		_, ok := find(m, customid.Resign, map[string]string{"ply": ply})
		return ok
	})
	file, ok := find(board, customid.File, map[string]string{"file": cell[:1]})
	if !ok {
		t.Fatalf("no button for file %s under the board: %+v", cell[:1], board.Components)
	}
	picker = h.click(user, board.ID, file)
	if !picker.Ephemeral() {
		t.Fatalf("the picker of file %s is public: %+v", cell[:1], picker)
	}
	rank, ok := find(picker, customid.Cell, map[string]string{"cell": cell})
	if !ok {
		t.Fatalf("no button for %s on the picker: %q %+v", cell, picker.Content, picker.Components)
	}
	return picker, h.click(user, picker.ID, rank)
}

func TestAdjacencyTwoClickMove(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("adjacency"))
	start := h.board(g.ID)
	fileC, ok := find(start, customid.File, map[string]string{"file": "c"})
	if !ok {
		t.Fatalf("no file buttons under the board: %+v", start.Components)
	}

	// Only the player to move gets a picker.
	for user, want := range map[string]string{carol: "not your game", bob: "not your turn"} {
		if r := h.click(user, start.ID, fileC); !r.Ephemeral() || !strings.Contains(r.Content, want) || len(r.Components) > 0 {
			t.Errorf("a click on file c by %s: %q %+v, want a refusal saying %q", user, r.Content, r.Components, want)
		}
	}

	// The first click shows alice alone the file's cells with what each
	// captures; a file on the picker switches it in place.
	picker := h.click(alice, start.ID, fileC)
	if !picker.Ephemeral() || !strings.Contains(picker.Content, "File **c**") || !strings.Contains(picker.Content, "🟨") {
		t.Fatalf("the first click answered %q, want alice's picker of file c with the file highlighted", picker.Content)
	}
	fileD, _ := find(picker, customid.File, map[string]string{"file": "d"})
	switched := h.click(alice, picker.ID, fileD)
	if switched.ID != picker.ID || !strings.Contains(switched.Content, "File **d**") {
		t.Fatalf("file d on the picker answered %+v, want the picker switched to file d", switched)
	}
	if _, ok := find(switched, customid.Cell, map[string]string{"cell": "c1"}); ok {
		t.Error("the picker of file d still offers c1")
	}
	if h.game(g.ID).Moves != nil {
		t.Fatal("choosing a file played a move")
	}

	// The second click plays; the picker says so and the board follows.
	_, played := pickCell(t, h, alice, g.ID, "c1")
	if !strings.Contains(played.Content, "You played c1") || len(played.Components) > 0 {
		t.Errorf("the second click answered %q %+v, want a confirmation without buttons", played.Content, played.Components)
	}
	g = h.waitGame(g.ID, "c1 to be played", func(g *storage.Game) bool { return len(g.Moves) == 1 })
	if g.Moves[0] != "c1" || g.Turn != 1 {
		t.Fatalf("after the two clicks the game is %v, turn %d", g.Moves, g.Turn)
	}
	h.waitBoard(g.ID, "bob's turn", func(m discordtest.Message) bool { return strings.Contains(m.Content, "<@"+bob+">") })
	if _, ok := find(h.board(g.ID), customid.File, map[string]string{"ply": "1", "file": "f"}); !ok {
		t.Fatal("the board after c1 has no file buttons for bob")
	}

	// A board or a picker drawn before the last move is refused.
	if r := h.clickSeen(bob, start, fileC); !strings.Contains(r.Content, "out of date") {
		t.Errorf("a file on the board before c1 answered %q, want out of date", r.Content)
	}
	old := h.click(bob, h.board(g.ID).ID, fileButton(t, h.board(g.ID), "f"))
	pickCell(t, h, bob, g.ID, "f8")
	h.waitGame(g.ID, "f8 to be played", func(g *storage.Game) bool { return len(g.Moves) == 2 })
	pickCell(t, h, alice, g.ID, "d1")
	h.waitGame(g.ID, "d1 to be played", func(g *storage.Game) bool { return len(g.Moves) == 3 })
	f7, _ := find(old, customid.Cell, map[string]string{"cell": "f7"})
	if r := h.click(bob, old.ID, f7); !strings.Contains(r.Content, "out of date") {
		t.Errorf("a cell on a picker before two moves answered %q, want out of date", r.Content)
	}
	if g := h.game(g.ID); len(g.Moves) != 3 {
		t.Errorf("a stale picker played: %v", g.Moves)
	}
}

// fileButton returns the custom ID of a file's button on a board.
func fileButton(t *testing.T, board discordtest.Message, file string) string {
	t.Helper()
	id, ok := find(board, customid.File, map[string]string{"file": file})
	if !ok {
		t.Fatalf("no button for file %s: %+v", file, board.Components)
	}
	return id
}
