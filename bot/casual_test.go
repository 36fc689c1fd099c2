package bot_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// TestCasualGamesMoveNoRatings: /play rated:false starts a casual game,
// marked on its board; resigning it moves no rating and shows none, and
// its rematch is casual too.
func TestCasualGamesMoveNoRatings(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	_, m := h.command(alice, "play", opt("game", "tictactoe"), opt("ai", "random"), opt("rated", false))
	if m.Ephemeral() {
		t.Fatalf("/play rated:false refused: %q", m.Content)
	}
	g := h.waitGame(h.latestGame(alice).ID, "the board message to be saved", func(g *storage.Game) bool { return g.MessageID != "" })
	if !g.Settings.Casual {
		t.Fatalf("/play rated:false stored %+v, want a casual game", g.Settings)
	}
	if text := embedText(m); !strings.Contains(text, "casual, not rated") {
		t.Errorf("the casual board does not say so: %q", text)
	}
	h.move(alice, g.ID, "5")
	g = resignByUI(t, h, alice, g.ID)
	if g.Result == nil || g.Result.Winner != 1 {
		t.Fatalf("resigned casual game: %+v", g.Result)
	}
	board := h.board(g.ID)
	if text := embedText(board); strings.Contains(text, "Rating changes") || !strings.Contains(text, "casual, not rated") {
		t.Errorf("the finished casual board: %q", text)
	}
	if _, err := h.store.Rank(context.Background(), storage.Global("tictactoe"), storage.User(alice), 0); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("alice is rated after a casual game: %v", err)
	}

	rematch, ok := find(board, customid.Rematch, nil)
	if !ok {
		t.Fatalf("no Rematch on %+v", board.Components)
	}
	h.click(alice, board.ID, rematch)
	// Rematch defers its answer, which the stand-in settles at the board's
	// next edit: that can be the resignation's own, which waits behind the
	// AI turn's redraw of the board (keepNewest) that showed the end first,
	// and lands after the deferral, before the rematch exists. The rematch
	// edits its notice in once its game is stored.
	h.waitBoard(g.ID, "the rematch's notice on the old board", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "A rematch was started below")
	})
	if next := h.latestGame(alice); next.ID == g.ID || !next.Settings.Casual {
		t.Errorf("the rematch of a casual game: %+v", next)
	}
}

// TestServerSettingMakesGamesCasual: an admin's /settings rated:false makes
// new games casual unless their players ask for a rated one, shown in the
// server's language (Indonesian here) on the boards and in /settings.
func TestServerSettingMakesGamesCasual(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	for _, id := range []string{alice, h.srv.GuildID()} {
		h.srv.SetLocale(id, i18n.Indonesian)
	}
	ctx := context.Background()

	_, m := h.command(alice, "settings")
	if text := embedText(m); !strings.Contains(text, "dinilai (pemain boleh memilih santai)") {
		t.Errorf("/settings before any change shows %q, want rated by default", text)
	}
	_, m = h.command(alice, "settings", opt("rated", false))
	if text := embedText(m); !strings.Contains(text, "santai (pemain boleh memilih dinilai)") {
		t.Errorf("/settings rated:false shows %q", text)
	}
	if s, err := h.store.GuildSettings(ctx, h.srv.GuildID()); err != nil || !s.Casual {
		t.Fatalf("stored settings %+v, %v; want casual", s, err)
	}

	_, m = h.command(alice, "challenge", opt("user", bob), opt("game", "connect4"))
	if g := h.latestGame(alice); !g.Settings.Casual {
		t.Errorf("a challenge under the casual setting: %+v", g.Settings)
	}
	if text := embedText(m); !strings.Contains(text, "santai, tidak dinilai") {
		t.Errorf("the casual challenge does not say so: %q", text)
	}

	_, m = h.command(alice, "play", opt("game", "tictactoe"), opt("ai", "random"), opt("rated", true))
	if g := h.latestGame(alice); g.Settings.Casual {
		t.Errorf("/play rated:true under the casual setting: %+v", g.Settings)
	}
	if text := embedText(m); strings.Contains(text, "santai") {
		t.Errorf("a rated board says casual: %q", text)
	}
}
