package render

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/storage"
)

// newPuzzle returns a solo game of alice on a Tic-Tac-Toe position after n
// random moves. No puzzle plug-in exists yet, and the layout of a puzzle's
// message does not depend on its game: a solo view of a real game's
// position tests it.
func newPuzzle(t *testing.T, status storage.Status, n int) *storage.Game {
	t.Helper()
	pos, moves := play(t, storage.Kind("tictactoe"), 0, rand.New(rand.NewPCG(15, 16)), n)
	g := newGame(storage.Kind("tictactoe"), status, alice, bob)
	g.Players = g.Players[:1]
	g.Settings = storage.Settings{}
	g.Moves, g.Position, g.Last = moves, pos.String(), lastOf(g.Kind, pos, moves)
	return g
}

func TestSoloPuzzleInPlay(t *testing.T) {
	g := newPuzzle(t, storage.StatusActive, 3)
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	m := Game(View{Game: g})
	checkDiscord(t, m)
	ids := checkIDs(t, g, m)
	desc := description(t, m)
	lines := strings.Split(desc, "\n")
	if lines[0] != "🧩 <@111>" {
		t.Errorf("player line %q, want the one player", lines[0])
	}
	for _, want := range []string{"🧩 3 moves so far", "Last move: <@111> took cell"} {
		if !strings.Contains(desc, want) {
			t.Errorf("description lacks %q:\n%s", want, desc)
		}
	}
	for _, absent := range []string{"vs", "to move", "must move", "<@222>", "AI move time"} {
		if strings.Contains(desc, absent) || strings.Contains(embed(m).Footer.Text, absent) {
			t.Errorf("a puzzle's message shows %q:\n%s\n%s", absent, desc, embed(m).Footer.Text)
		}
	}
	if content(m) != "" || len(m.AllowedMentions.Users) != 0 {
		t.Errorf("a puzzle pings its own player: %q %+v", content(m), m.AllowedMentions)
	}
	if len(ids[customid.Move]) == 0 {
		t.Error("no move buttons on a puzzle in play")
	}
	giveUp := customid.Resign.Build(string(g.ID), Ply(g))
	if b, ok := buttonByID(t, m, giveUp); !ok || b.Label != "Give up" {
		t.Errorf("give-up button %+v, %v", b, ok)
	}
}

func TestSoloPuzzleOver(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status storage.Status
		result storage.Result
		want   string
	}{
		{"solved", storage.StatusFinished, storage.Result{Winner: 0, MovesUsed: 5, Optimal: 3}, "🏆 **Solved** in 5 moves · optimal 3"},
		{"solved optimally", storage.StatusFinished, storage.Result{Winner: 0, MovesUsed: 5, Optimal: 5}, "🏆 **Solved** in 5 moves · optimal!"},
		{"solved, optimum unknown", storage.StatusFinished, storage.Result{Winner: 0, MovesUsed: 5}, "🏆 **Solved** in 5 moves"},
		{"abandoned", storage.StatusAbandoned, storage.Result{Winner: storage.Nobody, Reason: "gave up", MovesUsed: 5}, "🏳️ **Abandoned** after 5 moves · gave up"},
	} {
		g := newPuzzle(t, tc.status, 5)
		g.Result = &tc.result
		if err := g.Validate(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		m := Game(View{Game: g})
		checkDiscord(t, m)
		ids := checkIDs(t, g, m)
		desc := description(t, m)
		if !strings.HasSuffix(desc, "\n"+tc.want) {
			t.Errorf("%s: description ends\n%s\nwant %q", tc.name, desc, tc.want)
		}
		if solved := strings.HasPrefix(desc, "🧩 <@111> 🏆\n"); solved != (tc.status == storage.StatusFinished) {
			t.Errorf("%s: player line of %q", tc.name, strings.SplitN(desc, "\n", 2)[0])
		}
		if len(ids) != 0 || len(embed(m).Fields) != 0 {
			t.Errorf("%s: an ended puzzle has components %v or fields %v (no Rematch, no ratings)", tc.name, ids, embed(m).Fields)
		}
		// In /stats' recent games too.
		if l := recentLine(alice.ID, g); l != tc.want {
			t.Errorf("%s: recent line %q, want %q", tc.name, l, tc.want)
		}
	}
}

func TestAgainst(t *testing.T) {
	duel := newGame(storage.Kind("tictactoe"), storage.StatusActive, alice, bob)
	if got := Against(duel, 0); got != "vs <@222>" {
		t.Errorf("Against(duel, 0) = %q", got)
	}
	if got := Against(newPuzzle(t, storage.StatusActive, 0), 0); got != "solo puzzle" {
		t.Errorf("Against(puzzle, 0) = %q", got)
	}
}
