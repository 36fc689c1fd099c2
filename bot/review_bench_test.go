package bot_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/storetest"
)

// finishedGame stores a finished game of kind between a and c in the
// harness's channel, played with moves and won by winner (an index of
// its players, or storage.Draw), as the bot would have left it.
func finishedGame(tb testing.TB, h *harness, kind string, a, c string, moves []string, winner int) *storage.Game {
	tb.Helper()
	gm, err := catalog.Lookup(kind)
	if err != nil {
		tb.Fatal(err)
	}
	pos, err := gm.New(games.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	for _, text := range moves {
		m, err := pos.ParseMove(text)
		if err != nil {
			tb.Fatal(err)
		}
		pos.Play(m)
	}
	g := storetest.UserVsUser(storage.Kind(kind), a, c)
	g.GuildID, g.ChannelID, g.MessageID = h.srv.GuildID(), h.srv.ChannelID(), ""
	g = storetest.MustCreate(tb, h.store, g)
	g.Moves, g.Position, g.Turn, g.Status = moves, pos.String(), len(moves)%2, storage.StatusFinished
	if _, err := h.store.FinishGame(h.ctx(), g, storage.Result{Winner: winner}); err != nil {
		tb.Fatal(err)
	}
	return h.game(g.ID)
}

// fullBoardGomoku stores a finished Gomoku game between a and c in the
// harness's channel: the longest there is, 225 moves filling the board
// without five in a row (cmd/gambit/testdata), a draw.
func fullBoardGomoku(b *testing.B, h *harness, a, c string) *storage.Game {
	b.Helper()
	text, err := os.ReadFile("../cmd/gambit/testdata/gomoku-full-board.moves")
	if err != nil {
		b.Fatal(err)
	}
	return finishedGame(b, h, "gomoku", a, c, strings.Fields(string(text)), storage.Draw)
}

// BenchmarkAIFirstMoveBesideTwoGomokuReviews measures how long a member
// waits for the AI's first move (Gomoku, move time 150 ms, the AI moving
// first) while two other members' reviews of full-board Gomoku games,
// the longest reviews there are, are being made — with the bot's
// defaults for the machine (search threads its cores, review threads one
// fewer: on 2 cores the second review waits for the first) and with
// review threads enough for both at once, and GOMAXPROCS as gambit bot
// sets it. Each iteration is a new
// member's new game; the reviews must still be in the making when the
// last move arrives. Reported: the time from /play to the move on the
// board, its median and maximum, and how far the maximum is beyond the
// move time. Run it with -benchtime=10x (a few iterations: the reviews
// last about a minute).
func BenchmarkAIFirstMoveBesideTwoGomokuReviews(b *testing.B) {
	for _, threads := range []int{0, 2} {
		name := "review-threads=default"
		if threads > 0 {
			name = fmt.Sprintf("review-threads=%d", threads)
		}
		b.Run(name, func(b *testing.B) { aiFirstMoveBesideTwoGomokuReviews(b, threads) })
	}
}

func aiFirstMoveBesideTwoGomokuReviews(b *testing.B, reviewThreads int) {
	const moveTime = 150 * time.Millisecond
	cfg := bot.Config{AI: bot.AIConfig{MoveTime: moveTime}, Review: bot.ReviewConfig{Threads: reviewThreads}}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(bot.Procs(cfg))) // as gambit bot sets it
	h := start(b, withoutChecks(), withConfig(func(c *bot.Config) { c.AI.MoveTime, c.AI.SearchThreads, c.Review.Threads = moveTime, 0, reviewThreads }))
	var reviewed []*storage.Game
	for i := range 2 {
		a, c := h.srv.AddUser(fmt.Sprintf("reviewer%d", i)).ID, h.srv.AddUser(fmt.Sprintf("opponent%d", i)).ID
		g := fullBoardGomoku(b, h, a, c)
		ix, err := h.srv.SendCommand(discordtest.SlashCommand{UserID: a, Name: "review", Options: []discordtest.Option{opt("game", string(g.ID))}})
		if err != nil {
			b.Fatal(err)
		}
		if r, err := ix.Response(h.ctx()); err != nil || r.Type != 5 {
			b.Fatalf("review %d: answered %+v, %v; want a deferred answer", i, r, err)
		}
		reviewed = append(reviewed, g)
	}
	var took []time.Duration
	b.ResetTimer()
	for b.Loop() {
		user := h.srv.AddUser(fmt.Sprintf("player%d", len(took))).ID
		t0 := time.Now()
		g, _ := playAI(b, h, user, opt("game", "gomoku"), opt("ai", "minimax"), opt("first", "opponent"))
		h.waitGame(g.ID, "the AI's first move", func(g *storage.Game) bool { return len(g.Moves) > 0 })
		took = append(took, time.Since(t0))
	}
	b.StopTimer()
	for _, g := range reviewed {
		if _, err := h.store.Review(context.Background(), g.ID, g.Version); !errors.Is(err, storage.ErrNotFound) {
			b.Fatalf("the review of game %s ended before the measurement did (%v): make it longer or run fewer iterations", g.ID, err)
		}
	}
	slices.Sort(took)
	b.ReportMetric(took[len(took)/2].Seconds(), "p50-s")
	b.ReportMetric(took[len(took)-1].Seconds(), "max-s")
	b.ReportMetric((took[len(took)-1] - moveTime).Seconds(), "max-beyond-movetime-s")
}
