package bot_test

import (
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// TestSoloPuzzleThroughTheDuelFlows stores a solo puzzle (no command makes
// one yet) on a Tic-Tac-Toe board and plays it through the flows a puzzle
// shares with duels: /move, /games and the Give up button. None may reach
// for a second player, set a turn deadline or rate anyone.
func TestSoloPuzzleThroughTheDuelFlows(t *testing.T) {
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	g := &storage.Game{
		Kind: storage.Kind("tictactoe"), Status: storage.StatusActive,
		Players:  []storage.Player{{ID: storage.User(alice), Name: "alice"}},
		Position: "start", GuildID: h.srv.GuildID(), ChannelID: h.srv.ChannelID(),
	}
	if err := h.store.CreateGame(h.ctx(), g, storage.Limits{}); err != nil {
		t.Fatal(err)
	}

	if _, r := h.command(alice, "move", opt("cell", "5")); !strings.Contains(r.Content, "You played 5") {
		t.Fatalf("/move on a puzzle: %q", r.Content)
	}
	g = h.waitGame(g.ID, "the move and a board", func(g *storage.Game) bool { return len(g.Moves) == 1 && g.MessageID != "" })
	if g.Turn != 0 || !g.Deadline.IsZero() || g.Status != storage.StatusActive {
		t.Fatalf("after a move: turn %d, deadline %v, status %s; want 0, none, active", g.Turn, g.Deadline, g.Status)
	}
	board := h.board(g.ID)
	if len(board.Embeds) != 1 || !strings.Contains(board.Embeds[0].Description, "1 move so far") || strings.Contains(board.Content, "your move") {
		t.Fatalf("board of the puzzle: %q %+v", board.Content, board.Embeds)
	}

	if _, r := h.command(alice, "games"); len(r.Embeds) != 1 || !strings.Contains(r.Embeds[0].Description, "Tic-Tac-Toe solo puzzle — **your move**") {
		t.Fatalf("/games: %q %+v", r.Content, r.Embeds)
	}

	giveUp := customid.Resign.Build(string(g.ID), "1")
	confirm := h.click(alice, board.ID, giveUp)
	yes, _ := find(confirm, customid.ResignConfirm, nil)
	h.click(alice, confirm.ID, yes)
	g = h.waitGame(g.ID, "the puzzle to be abandoned", func(g *storage.Game) bool { return !g.Status.Open() })
	if g.Status != storage.StatusAbandoned || g.Result == nil || g.Result.Winner != storage.Nobody || g.Result.MovesUsed != 1 {
		t.Fatalf("given up: status %s, result %+v", g.Status, g.Result)
	}
	h.waitBoard(g.ID, "the abandoned board", func(m discordtest.Message) bool {
		return len(m.Embeds) == 1 && strings.Contains(m.Embeds[0].Description, "**Abandoned** after 1 move")
	})
	if _, err := h.store.Rank(h.ctx(), storage.Global(storage.Kind("tictactoe")), storage.User(alice), 0); err == nil {
		t.Fatal("giving up a puzzle rated alice")
	}
}
