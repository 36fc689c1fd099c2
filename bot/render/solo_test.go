package render

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/forPelevin/gomoji"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/internal/racetest"
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
		{"abandoned", storage.StatusAbandoned, storage.Result{Winner: storage.Nobody, Outcome: storage.GaveUp, MovesUsed: 5}, "🏳️ **Abandoned** after 5 moves · gave up"},
		{"solved by Gambit", storage.StatusAbandoned, storage.Result{Winner: storage.Nobody, Outcome: storage.SolvedByGambit, MovesUsed: 5}, "🪄 **Solved by Gambit** · 5 moves of your own before"},
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
		// Solve's moves are Gambit's, never the player's.
		byGambit := tc.result.Outcome == storage.SolvedByGambit
		if credited := strings.Contains(desc, "Last move: <@111>"); credited == byGambit {
			t.Errorf("%s: last move credited to the player: %v\n%s", tc.name, credited, desc)
		}
		if byGambit && !strings.Contains(desc, "Last move: 🪄 Gambit took cell") {
			t.Errorf("%s: last move not Gambit's:\n%s", tc.name, desc)
		}
		if solved := strings.HasPrefix(desc, "🧩 <@111> 🏆\n"); solved != (tc.status == storage.StatusFinished) {
			t.Errorf("%s: player line of %q", tc.name, strings.SplitN(desc, "\n", 2)[0])
		}
		if len(ids) != 0 || len(embed(m).Fields) != 0 {
			t.Errorf("%s: an ended puzzle has components %v or fields %v (no Rematch, no ratings)", tc.name, ids, embed(m).Fields)
		}
		// In /stats' recent games too.
		if l := recentLine(en, alice.ID, g); l != tc.want {
			t.Errorf("%s: recent line %q, want %q", tc.name, l, tc.want)
		}
	}
}

func TestAgainst(t *testing.T) {
	duel := newGame(storage.Kind("tictactoe"), storage.StatusActive, alice, bob)
	if got := Against(en, duel, 0); got != "vs <@222>" {
		t.Errorf("Against(en, duel, 0) = %q", got)
	}
	if got := Against(en, newPuzzle(t, storage.StatusActive, 0), 0); got != "solo puzzle" {
		t.Errorf("Against(en, puzzle, 0) = %q", got)
	}
}

// puzzleGame returns alice's active puzzle of a kind on a position text.
func puzzleGame(t *testing.T, kind, position string) (*storage.Game, engine.Position) {
	t.Helper()
	gm, err := catalog.Lookup(kind)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := gm.Position(position, games.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := newGame(storage.Kind(kind), storage.StatusActive, alice, bob)
	g.Players, g.Settings, g.Position, g.Start = g.Players[:1], storage.Settings{}, position, position
	return g, pos
}

// TestSlidingTileBoard checks a sliding-tile board: the tiles are buttons
// with their numbers, those next to the blank play the slide into it and
// the others and the blank are disabled, and the row under them holds
// Hint, Solve, Compare algorithms and Give up.
func TestSlidingTileBoard(t *testing.T) {
	g, pos := puzzleGame(t, "8puzzle", "1,2,3,4,0,5,7,8,6")
	m := Game(View{Game: g, Pos: pos})
	checkDiscord(t, m)
	if len(rows(m)) != 4 {
		t.Fatalf("%d rows, want 3 of tiles and one of help", len(rows(m)))
	}
	enabled := map[string]string{} // label: cell
	for i, r := range rows(m)[:3] {
		for j, c := range r.(discordgo.ActionsRow).Components {
			b := c.(discordgo.Button)
			tile := pos.(interface{ Tile(int) int }).Tile(3*i + j)
			switch {
			case tile == 0 && (b.Emoji == nil || b.Emoji.Name != "⬛" || !b.Disabled || b.Label != ""):
				t.Errorf("the blank's button %+v", b)
			case tile != 0 && b.Label != strconv.Itoa(tile):
				t.Errorf("cell %d,%d: label %q, want %d", i, j, b.Label, tile)
			case !b.Disabled:
				p, ps := parseID(t, b.CustomID)
				if p != customid.Move {
					t.Errorf("tile %s plays %q", b.Label, b.CustomID)
				}
				enabled[b.Label] = ps["cell"]
			}
		}
	}
	// The blank is in the centre: 2 above it (blank up), 8 below, 4 left, 5 right.
	if want := map[string]string{"2": "U", "8": "D", "4": "L", "5": "R"}; !maps.Equal(enabled, want) {
		t.Errorf("clickable tiles %v, want %v", enabled, want)
	}
	var controls []string
	for _, c := range rows(m)[3].(discordgo.ActionsRow).Components {
		p, _ := parseID(t, c.(discordgo.Button).CustomID)
		controls = append(controls, string(p))
	}
	if want := []string{string(customid.Hint), string(customid.Solve), string(customid.Compare), string(customid.Resign)}; !slices.Equal(controls, want) {
		t.Errorf("controls %v, want %v", controls, want)
	}
}

// TestFifteenPuzzleGrid checks the 15-puzzle's emoji grid: 16 real emoji a
// row of four, tiles 10–15 as the letters A–F kept apart from each other
// by a zero-width space (two regional letters side by side make a flag).
func TestFifteenPuzzleGrid(t *testing.T) {
	g, pos := puzzleGame(t, "15puzzle", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15")
	desc := description(t, Game(View{Game: g, Pos: pos}))
	want := "1️⃣2️⃣3️⃣4️⃣\n5️⃣6️⃣7️⃣8️⃣\n9️⃣🇦\u200b🇧\u200b🇨\n🇩\u200b🇪⬛🇫"
	if !strings.Contains(desc, want) {
		t.Fatalf("grid not found in\n%s", desc)
	}
	for _, e := range []string{"1️⃣", "9️⃣", "🇦", "🇫", "⬛", "👑", "🌟", "💥", "⬜", "🟫", "🔟", "💡", "🪄", "📊"} {
		if _, err := gomoji.GetInfo(e); err != nil {
			t.Errorf("%q: %v", e, err)
		}
	}
}

// TestQueensBoardsFit checks the N-Queens boards of every N that /puzzle
// deals (4–10) within Discord's limits, empty and with queens in conflict,
// and that N = 11 would not fit: its 121 squares need five menus, and
// with the row of help that is six rows, one more than Discord allows.
//
// Under -race -short, where each board's picture costs a fifth of a
// second of CPU to draw, encode and decode, N = 4, 8 and 12 only.
func TestQueensBoardsFit(t *testing.T) {
	step := 1
	if racetest.Short(t, "N = 4, 8 and 12") {
		step = 4
	}
	for n := 4; n <= 12; n += step {
		rows := make([]string, n)
		for c := range rows {
			rows[c] = strconv.Itoa(min(c+1, 3)) // queens in conflict on rows 1–3
		}
		g, pos := puzzleGame(t, "nqueens", strings.Join(rows, ","))
		m := Game(View{Game: g, Pos: pos})
		problems := discordProblems(m)
		if len(problems) > 0 {
			t.Errorf("N = %d: %v", n, problems)
		}
		if !strings.Contains(description(t, m), "💥") {
			t.Errorf("N = %d: no queen shown in conflict", n)
		}
	}
}
