package bot_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/engine"
	rules "github.com/gambitbot/gambit/engine/othello"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// passLine is a random game of Othello that reaches a forced pass two
// squares from the end: after it Black (x) has no move, White takes h1 or
// h6, and the game ends at most two moves later.
const passLine = "d3 c3 b3 e3 f3 e2 f6 c2 e1 a3 b2 b1 c4 f5 c1 d6 c5 b4 c7 e7 a1 f2 a4 f4 g3 h3 g2 f7 h4 a5 " +
	"d2 f1 g4 d1 g1 h5 b5 g5 g7 b6 c6 b7 d8 h2 a7 h7 d7 b8 c8 a8 e6 a2 g6 e8 g8 a6 f8 h8"

// aiPassLine is a random game of Othello that reaches a forced pass of
// White (o) one square from the end: Black then takes e2 and the game is
// over.
const aiPassLine = "e6 d6 c6 d7 c5 f5 f6 f7 e3 c3 g6 g4 d3 c4 b3 f4 g8 b7 g3 b4 a5 f3 f2 c2 g5 a2 d8 h6 a8 b6 " +
	"h7 f1 g1 b8 d2 h4 b5 a4 h3 h1 e7 b2 a7 g2 h5 f8 c8 c1 b1 a1 e1 e8 a3 d1 g7 h8 h2 a6 c7"

// TestOthelloBetweenTwoUsers plays Othello through the real discordgo
// client: a challenge accepted, a move in two clicks (a column, then a row
// on a picker that counts rows from the top as the board does), one from
// a menu and one typed; then, from a stored game that reached a forced
// pass, the pass from the menu and the game to its end, whose board gives
// the disc counts and the winner.
func TestOthelloBetweenTwoUsers(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("othello"))
	if g.Turn != 0 {
		t.Fatalf("the challenger should move first (Black), turn is seat %d", g.Turn)
	}

	picker, played := pickCell(t, h, alice, g.ID, "f5")
	if !strings.Contains(picker.Content, "Column **f**") {
		t.Errorf("the picker of column f reads %q", picker.Content)
	}
	var rows []string
	for _, c := range components(picker) {
		if p, ok := customid.Cell.Match(c.CustomID); ok {
			rows = append(rows, strings.TrimPrefix(p["cell"], "f"))
		}
	}
	if want := []string{"1", "2", "3", "4", "5", "6", "7", "8"}; !slices.Equal(rows, want) {
		t.Errorf("the picker's rows read %v, want %v", rows, want)
	}
	if !strings.Contains(played.Content, "You played f5") {
		t.Errorf("the second click answered %q", played.Content)
	}
	h.waitGame(g.ID, "f5 to be played", func(g *storage.Game) bool { return len(g.Moves) == 1 })
	h.waitBoard(g.ID, "bob's turn", func(m discordtest.Message) bool { return strings.Contains(m.Content, "<@"+bob+">") })
	if m := h.move(bob, g.ID, "d6"); m.Ephemeral() {
		t.Fatalf("d6 from the menu: %q", m.Content)
	}
	h.waitGame(g.ID, "d6 to be played", func(g *storage.Game) bool { return len(g.Moves) == 2 })
	if _, r := h.command(alice, "move", opt("cell", "c3")); !strings.Contains(r.Content, "You played c3") {
		t.Fatalf("/move cell:c3 answered %q", r.Content)
	}
	g = h.waitGame(g.ID, "c3 to be played", func(g *storage.Game) bool { return len(g.Moves) == 3 })
	if got := strings.Join(g.Moves, " "); got != "f5 d6 c3" {
		t.Fatalf("moves stored %q, want f5 d6 c3", got)
	}

	// The game as if it had come to a forced pass: Black (alice) to move
	// with no square to play. The board is drawn again at start.
	h.stop()
	pos, err := rules.Parse(passLine)
	if err != nil {
		t.Fatal(err)
	}
	g.Moves, g.Position, g.Turn, g.Last = strings.Fields(passLine), pos.String(), 0, nil
	if err := h.store.UpdateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	h.run()
	board := h.waitBoard(g.ID, "the board with the pass", func(m discordtest.Message) bool {
		_, _, ok := moveControl(m, "pass")
		return ok
	})
	if _, _, ok := moveControl(board, "h1"); ok {
		t.Error("the board offers h1 to Black, who must pass")
	}
	if m := h.move(alice, g.ID, "pass"); m.Ephemeral() {
		t.Fatalf("the pass from the menu: %q", m.Content)
	}
	users := []string{alice, bob}
	for g = h.game(g.ID); g.Status == storage.StatusActive; g = h.game(g.ID) {
		p, err := rules.Parse(g.Position)
		if err != nil {
			t.Fatal(err)
		}
		m := p.Moves(nil)[0]
		n := len(g.Moves)
		if _, r := h.command(users[g.Turn], "move", opt("cell", p.FormatMove(m))); r.Ephemeral() && !strings.Contains(r.Content, "You played") {
			t.Fatalf("/move cell:%s answered %q", p.FormatMove(m), r.Content)
		}
		h.waitGame(g.ID, "the move", func(g *storage.Game) bool { return len(g.Moves) > n })
	}
	end, err := rules.Parse(g.Position)
	if err != nil || !end.Terminal() {
		t.Fatalf("the game ended at %q (%v), not a finished position", g.Position, err)
	}
	black, white := end.Count(engine.X), end.Count(engine.O)
	winner := map[engine.Result]int{engine.Win: 0, engine.Loss: 1, engine.Draw: storage.Draw}[end.Result(engine.X)]
	if g.Status != storage.StatusFinished || g.Result == nil || g.Result.Winner != winner {
		t.Fatalf("the game ended as %s %+v, want seat %d to win (%d–%d discs)", g.Status, g.Result, winner, black, white)
	}
	final := h.waitBoard(g.ID, "the final board", func(m discordtest.Message) bool { return len(controls(m)) <= 2 }) // Rematch and Review
	text := embedText(final) + final.Content
	wants := []string{fmt.Sprintf("Final score: ⚫ **%d** – **%d** ⚪", black, white), fmt.Sprintf("<@%s> · %d discs", alice, black),
		fmt.Sprintf("<@%s> · %d discs", bob, white)}
	if winner != storage.Draw {
		wants = append(wants, fmt.Sprintf("<@%s> · %d discs 🏆", users[winner], end.Count(engine.Side(winner))))
	}
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("the final board lacks %q:\n%s", want, text)
		}
	}
}

// TestOthelloAgainstAnAIInIndonesian plays Othello against an AI for a
// player whose Discord speaks Indonesian: /help and the game's page, the board
// and its menus, a typed move and the AI's answer; then, from a stored
// game where the AI must pass, its pass and the player's last move, and
// the final board with the disc counts.
func TestOthelloAgainstAnAIInIndonesian(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	for _, id := range []string{alice, h.srv.GuildID()} {
		h.srv.SetLocale(id, i18n.Indonesian)
	}
	_, all := h.command(alice, "help")
	speaks(t, "/help", all, []string{"Othello", "apit dan balik cakram"}, []string{"outflank"})
	_, help := h.command(alice, "help", opt("game", "othello"))
	speaks(t, "/help game:othello", help, []string{"**Papan.**", "**Pas.**", "`/langkah sel:f5`"}, []string{"**Board.**", "How to move"})

	g, _ := playAI(t, h, alice, opt("game", "othello"), opt("ai", "greedy"))
	if g.Players[1].ID != storage.AI("greedy") || g.Turn != 0 {
		t.Fatalf("game stored as %+v, want alice (Black) to move against greedy", g)
	}
	speaks(t, "the board", h.board(g.ID), []string{"giliranmu", "Langkah sahmu: pilih petak", "2 keping", "membalik 1"},
		[]string{"your move", "choose a square", "discs", "flips"})
	if _, r := h.command(alice, "move", opt("cell", "f5")); !strings.Contains(r.Content, "Kamu memainkan f5.") {
		t.Fatalf("/move cell:f5 answered %q", r.Content)
	}
	g = h.waitGame(g.ID, "the AI's reply", func(g *storage.Game) bool { return len(g.Moves) == 2 })
	h.waitBoard(g.ID, "the AI's move on the board", func(m discordtest.Message) bool {
		return strings.Contains(text(m), "Langkah terakhir:") && strings.Contains(text(m), "giliranmu")
	})

	// The game as if alice's last move had left the AI (White) without a
	// square: at start the AI passes, and alice plays the last square.
	h.stop()
	pos, err := rules.Parse(aiPassLine)
	if err != nil {
		t.Fatal(err)
	}
	g.Moves, g.Position, g.Turn, g.Last = strings.Fields(aiPassLine), pos.String(), 1, nil
	if err := h.store.UpdateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	h.run()
	g = h.waitGame(g.ID, "the AI's pass", func(g *storage.Game) bool { return len(g.Moves) == 60 })
	if g.Moves[59] != "pass" || g.Turn != 0 {
		t.Fatalf("the AI played %q, turn %d; want a pass and alice to move", g.Moves[59], g.Turn)
	}
	h.waitBoard(g.ID, "the pass on the board", func(m discordtest.Message) bool {
		return strings.Contains(text(m), "Langkah terakhir: ⬜ 🤖 Si Rakus (mudah) pas\n") && strings.Contains(text(m), "giliranmu")
	})
	if _, r := h.command(alice, "move", opt("cell", "e2")); !strings.Contains(r.Content, "Kamu memainkan e2.") {
		t.Fatalf("/move cell:e2 answered %q", r.Content)
	}
	g = h.waitGame(g.ID, "the end", func(g *storage.Game) bool { return g.Status != storage.StatusActive })
	end, err := rules.Parse(g.Position)
	if err != nil || !end.Terminal() || g.Status != storage.StatusFinished || g.Result == nil {
		t.Fatalf("the game ended as %s %+v at %q (%v)", g.Status, g.Result, g.Position, err)
	}
	black, white := end.Count(engine.X), end.Count(engine.O)
	final := h.waitBoard(g.ID, "the final board", func(m discordtest.Message) bool { return strings.Contains(text(m), "Skor akhir") })
	speaks(t, "the final board", final, []string{fmt.Sprintf("Skor akhir: ⚫ **%d** – **%d** ⚪", black, white), fmt.Sprintf("%d keping", black)},
		[]string{"Final score", "discs"})
}
