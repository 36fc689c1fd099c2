package playground_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/internal/playground"
	"github.com/gambitbot/gambit/storage"
)

// menuAtPly waits for the board's move menu at ply and returns its game's
// ID and the moves it offers.
func menuAtPly(t *testing.T, ctx context.Context, ply int) (string, []string) {
	t.Helper()
	pick := fmt.Sprintf(`select[data-custom-id^="v1/pick/"][data-custom-id*="/%d/"]`, ply)
	run(t, ctx, waitVisible(pick))
	id := value(t, ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector(%q).dataset.customId.split('/')[2]`, pick)))
	offered := value(t, ctx, chromedp.Evaluate[[]string](fmt.Sprintf(`[...document.querySelector(%q).options].filter(o => o.value && !o.disabled).map(o => o.value)`, pick)))
	return id, offered
}

// positionOf loads a game's position from the store.
func positionOf(t *testing.T, store storage.Store, id string) (*games.Game, engine.Position) {
	t.Helper()
	g, err := store.Game(context.Background(), storage.GameID(id))
	if err != nil {
		t.Fatal(err)
	}
	gm, err := catalog.Lookup(string(g.Kind))
	if err != nil {
		t.Fatal(err)
	}
	pos, err := gm.Position(g.Position, games.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return gm, pos
}

// playAgainstRandom starts game against the Random AI as alice.
func playAgainstRandom(t *testing.T, ctx context.Context, game string) {
	t.Helper()
	run(t, ctx,
		member("alice"),
		command("play"),
		choose(`[data-option="game"]`, game),
		typeInto(`[data-option="ai"]`, "rand"),
		click(`.autocomplete-choice[data-value="random"]`),
		click("#command-send"),
	)
}

// alicesTurns has alice play game against the Random AI for three of
// her turns, each through the board's move menu, after check looked at
// what the menu offers in the game's stored position.
func alicesTurns(t *testing.T, game string, check func(ply int, offered []string, pos engine.Position)) {
	t.Helper()
	var store storage.Store
	ctx := browser(t, startPlayground(t, func(c *playground.Config) { store = c.Store }))
	playAgainstRandom(t, ctx, game)
	for ply := 0; ply < 6; ply += 2 {
		id, offered := menuAtPly(t, ctx, ply)
		_, pos := positionOf(t, store, id)
		if len(offered) == 0 {
			t.Fatalf("ply %d: the menu offers nothing", ply)
		}
		check(ply, offered, pos)
		run(t, ctx, choose(fmt.Sprintf(`select[data-custom-id^="v1/pick/%s/%d/"]`, id, ply), offered[0]))
	}
}

// TestBrowserOthelloMenuOffersTheLegalMoves: the menu under an Othello
// board offers exactly the legal moves, at every turn of alice's.
func TestBrowserOthelloMenuOffersTheLegalMoves(t *testing.T) {
	t.Parallel()
	alicesTurns(t, "othello", func(ply int, offered []string, pos engine.Position) {
		var legal []string
		for _, m := range pos.Moves(nil) {
			legal = append(legal, pos.FormatMove(m))
		}
		slices.Sort(legal)
		if sorted := slices.Sorted(slices.Values(offered)); !slices.Equal(sorted, legal) {
			t.Fatalf("ply %d: the menu offers %v, the legal moves are %v", ply, sorted, legal)
		}
	})
}

// TestBrowserGomokuMenuOffersThePointsNearTheStones: the menu under a
// Gomoku board offers empty points next to the stones, not a row of the
// board, and a move from it is played.
func TestBrowserGomokuMenuOffersThePointsNearTheStones(t *testing.T) {
	t.Parallel()
	alicesTurns(t, "gomoku", func(ply int, offered []string, pos engine.Position) {
		rows := map[string]bool{}
		for _, cell := range offered {
			m, err := pos.ParseMove(cell)
			if err != nil || !pos.Legal(m) {
				t.Fatalf("ply %d: the menu offers %q, not a legal move (%v)", ply, cell, err)
			}
			rows[strings.TrimLeft(cell, "abcdefghijklmno")] = true
			if ply > 0 && !nextToAStone(t, pos, cell) {
				t.Errorf("ply %d: the menu offers %s, far from every stone", ply, cell)
			}
		}
		if ply > 0 && len(rows) < 2 {
			t.Errorf("ply %d: the menu offers one row only: %v", ply, offered)
		}
	})
}

// nextToAStone reports whether a stone stands on a point next to cell
// (the eight neighbours), read from the position's text: its rows from
// the top, each a string of x, o and ".".
func nextToAStone(t *testing.T, pos engine.Position, cell string) bool {
	t.Helper()
	rows := strings.Split(strings.Fields(pos.String())[0], "/")
	var rank int
	if _, err := fmt.Sscanf(cell[1:], "%d", &rank); err != nil {
		t.Fatalf("point %q: %v", cell, err)
	}
	file, row := int(cell[0]-'a'), len(rows)-rank
	for dr := -1; dr <= 1; dr++ {
		for df := -1; df <= 1; df++ {
			r, f := row+dr, file+df
			if (dr != 0 || df != 0) && r >= 0 && r < len(rows) && f >= 0 && f < len(rows[r]) && rows[r][f] != '.' {
				return true
			}
		}
	}
	return false
}
