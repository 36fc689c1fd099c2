package render

import (
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
)

// TestABoardBetweenAIsShowsBothSearchesAndStop: the board of a game
// between two AIs shows each side's last search — depth, positions, their
// rate and the score, ✓ when exact; "no search figures" for a side that
// reported none — and, while it is played, Stop instead of Resign; once
// ended, no Rematch.
func TestABoardBetweenAIsShowsBothSearchesAndStop(t *testing.T) {
	gm, err := catalog.Lookup("connect4")
	if err != nil {
		t.Fatal(err)
	}
	pos, err := gm.Start(games.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := &storage.Game{ID: "0000000a", Kind: "connect4", Status: storage.StatusActive, Position: pos.String(),
		Players: []storage.Player{{ID: storage.AI("minimax")}, {ID: storage.AI("random")}}, Settings: storage.Settings{Casual: true}}
	searches := [2]*Search{{Depth: 12, Nodes: 1_234_567, Elapsed: 2 * time.Second, Score: 3, Exact: true}, {}}
	msg := Game(View{Game: g, Pos: pos, Thinking: &Thinking{Depth: 4, Nodes: 5200}, Searches: searches, Lang: i18n.Default})
	text := description(t, msg)
	for _, want := range []string{"depth 12 · 1.2M positions · 617.3k/s · score +3 ✓", "no search figures", "depth 4 · 5.2k positions"} {
		if !strings.Contains(text, want) {
			t.Errorf("the board should say %q; it says:\n%s", want, text)
		}
	}
	if _, ok := buttonByID(t, msg, customid.VersusStop.Build(string(g.ID))); !ok {
		t.Error("the board of a game between AIs has no Stop")
	}
	if _, ok := buttonByID(t, msg, customid.Resign.Build(string(g.ID), "0")); ok {
		t.Error("the board of a game between AIs offers Resign")
	}
	g.Status, g.Result = storage.StatusFinished, &storage.Result{Winner: 0}
	ended := Game(View{Game: g, Pos: pos, Searches: searches, Lang: i18n.Default})
	if _, ok := buttonByID(t, ended, customid.Rematch.Build(string(g.ID))); ok {
		t.Error("an ended game between AIs offers a rematch")
	}
	if !strings.Contains(description(t, ended), "score +3 ✓") {
		t.Errorf("the ended board should keep the searches; it says:\n%s", description(t, ended))
	}
}
