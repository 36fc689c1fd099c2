package bot_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies/puzzles"
)

// solverGate holds the solvers of Compare algorithms before they run:
// each one that reaches it is announced on reached and waits for a token
// on release, or for open.
type solverGate struct {
	reached chan string
	release chan struct{}
	once    sync.Once
}

func newSolverGate() *solverGate {
	return &solverGate{reached: make(chan string, 100), release: make(chan struct{})}
}

// hold is the bot's hook before each solver.
func (g *solverGate) hold(_ context.Context, algorithm string) {
	g.reached <- algorithm
	<-g.release
}

// next waits for the next solver to reach the gate and returns its name.
func (g *solverGate) next(t *testing.T) string {
	t.Helper()
	select {
	case name := <-g.reached:
		return name
	case <-time.After(waitTimeout()):
		t.Fatal("no solver reached the gate")
		return ""
	}
}

// open lets every solver through, now and later.
func (g *solverGate) open() { g.once.Do(func() { close(g.release) }) }

// withCompare caps each solver of Compare algorithms at nodes (0: the
// bot's cap) and calls before ahead of each.
func withCompare(nodes uint64, before func(context.Context, string)) option {
	return withBot(func(b *bot.Bot) { bot.SetCompare(b, nodes, before) })
}

// withSolverGate holds the solvers of Compare algorithms at gate until the test
// lets them through, or ends: the gate opens before the bot stops, whose
// workers wait for the solvers.
func withSolverGate(t *testing.T, gate *solverGate) option {
	return withBot(func(b *bot.Bot) {
		bot.SetCompare(b, 0, gate.hold)
		t.Cleanup(gate.open) // registered after the harness's: runs before it
	})
}

// withWorkers sets the number of AI workers, which run the solvers too.
func withWorkers(n int) option {
	return withConfig(func(c *bot.Config) { c.AI.SearchThreads = n })
}

// compareRows reads the table of a Compare algorithms message: by
// algorithm, its length, nodes, milliseconds and "optimal?" columns.
func compareRows(t *testing.T, m discordtest.Message) map[string][4]string {
	t.Helper()
	parts := strings.Split(m.Content, "```")
	if len(parts) < 3 {
		t.Fatalf("no table in %q", m.Content)
	}
	rows := map[string][4]string{}
	for _, line := range strings.Split(strings.TrimSpace(parts[1]), "\n")[1:] {
		f := strings.Fields(line)
		if len(f) < 5 {
			t.Fatalf("row %q of %q", line, m.Content)
		}
		rows[f[0]] = [4]string{f[1], f[2], f[3], strings.Join(f[4:], " ")}
	}
	return rows
}

// waitCompare waits until the Compare algorithms message id satisfies
// cond.
func waitCompare(t *testing.T, h *harness, id, what string, cond func(discordtest.Message) bool) discordtest.Message {
	t.Helper()
	m, err := h.srv.WaitMessage(h.ctx(), func(m discordtest.Message) bool { return m.ID == id && cond(readable(m)) })
	if err != nil {
		last, _ := h.srv.Message(id)
		t.Fatalf("comparison %s: timed out waiting for %s: %v; it reads %q", id, what, err, last.Content)
	}
	return readable(m)
}

// compared waits until the Compare algorithms message m shows every
// solver done.
func compared(t *testing.T, h *harness, m discordtest.Message) discordtest.Message {
	t.Helper()
	return waitCompare(t, h, m.ID, "every solver done", func(m discordtest.Message) bool {
		return !strings.Contains(m.Content, "not done yet")
	})
}

// hardFifteen returns a hard 15-puzzle: 37 seeded random moves from the
// goal, never undoing the last, that leave a position 33 moves from it —
// one that A* and IDA* solve in a few thousand nodes and the blind
// searches cannot.
func hardFifteen(t *testing.T) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(316, 0))
	q, err := puzzles.Walk(rng, 4, 37)
	if err != nil {
		t.Fatal(err)
	}
	if sol, err := puzzles.Shortest(context.Background(), q); err != nil || len(sol) != 33 {
		t.Fatalf("the scramble %v is %d moves from the goal (%v), want 33", q, len(sol), err)
	}
	return q.String()
}

// TestCompareGivesEachSolverItsOwnBudget compares the solvers on a hard
// 15-puzzle whose blind solvers each run out of time before their first
// node (the test moves the bot's clock on by a solver's time as each
// starts): A*, IDA* and IDA* on the pattern databases still get their own
// time and nodes, and find the 33-move optimum.
func TestCompareGivesEachSolverItsOwnBudget(t *testing.T) {
	t.Parallel()
	puzzles.DefaultPDB(4) // the bot builds it at start; a 15-puzzle is refused until it is ready
	hard := hardFifteen(t)
	informed := map[string]bool{"astar": true, "idastar": true, "idastar-pdb": true}
	var clock *discordtest.ManualClock
	spend := func(ctx context.Context, algorithm string) {
		if informed[algorithm] {
			return
		}
		clock.Advance(bot.CompareTime)
		select {
		case <-ctx.Done():
		case <-time.After(waitTimeout()):
			t.Errorf("%s: its context lives on after its time", algorithm)
		}
	}
	// One worker: a solver's time passes on the clock only while it runs.
	h := start(t, withClock(), func(h *harness) { clock = h.clock }, withWorkers(1), withCompare(10_000, spend))
	alice := h.srv.AddUser("alice").ID
	g, board := newPuzzle(t, h, alice, opt("game", "15puzzle"), opt("difficulty", "easy"))
	g.Start, g.Position = hard, hard
	if err := h.store.UpdateGame(h.ctx(), g); err != nil {
		t.Fatal(err)
	}
	compare, _ := find(board, customid.Compare, nil)
	m := compared(t, h, h.click(alice, board.ID, compare))
	rows := compareRows(t, m)
	// Every tile solver but idastar-pdb78, whose 7-8 tables a click
	// never builds or loads.
	if _, has := rows["idastar-pdb78"]; has || len(rows) != len(puzzles.TileSolvers())-1 {
		t.Fatalf("%d rows in %q", len(rows), m.Content)
	}
	for name, row := range rows {
		if informed[name] && (row[0] != "33" || row[3] != "proved") {
			t.Errorf("%s: %v, want the 33-move optimum proved", name, row)
		}
		if !informed[name] && row[3] != "gave up" {
			t.Errorf("%s: %v, want gave up: its time ran out", name, row)
		}
	}
}

// TestCompareAnswersBeforeAnySolverRuns holds every solver before it runs:
// the click is answered all the same, with each algorithm not done yet,
// and the answer fills in once they may run.
func TestCompareAnswersBeforeAnySolverRuns(t *testing.T) {
	t.Parallel()
	gate := newSolverGate()
	h := start(t, withClock(), withSolverGate(t, gate))
	alice := h.srv.AddUser("alice").ID
	_, board := newPuzzle(t, h, alice, opt("game", "nqueens"), opt("n", 6))
	compare, _ := find(board, customid.Compare, nil)
	r := h.click(alice, board.ID, compare) // the solvers are held: the answer comes first
	if !r.Ephemeral() || !strings.Contains(r.Content, "0 of 4 done") {
		t.Fatalf("Compare answered %q", r.Content)
	}
	for name, row := range compareRows(t, r) {
		if row[3] != "not done yet" {
			t.Errorf("%s: %v before any solver ran", name, row)
		}
	}
	gate.open()
	for name, row := range compareRows(t, compared(t, h, r)) {
		if row[0] == "—" {
			t.Errorf("%s: %v on 6 queens", name, row)
		}
	}
}

// TestCompareLeavesTheGameFree holds a comparison's solver and plays on
// meanwhile: another member's move on their puzzle and the player's own
// move on the compared puzzle are answered, so the solvers hold no lock;
// the comparison then completes on the position it was asked about.
func TestCompareLeavesTheGameFree(t *testing.T) {
	t.Parallel()
	gate := newSolverGate()
	h := start(t, withClock(), withSolverGate(t, gate))
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	ga, boardA := newPuzzle(t, h, alice, opt("game", "nqueens"), opt("n", 6))
	gb, _ := newPuzzle(t, h, bob, opt("game", "nqueens"), opt("n", 6))
	compare, _ := find(boardA, customid.Compare, nil)
	ix, err := h.srv.ClickButton(alice, boardA.ID, compare)
	if err != nil {
		t.Fatal(err)
	}
	gate.next(t) // a solver of alice's comparison runs, held
	if r := h.move(bob, gb.ID, "a1"); r.Ephemeral() {
		t.Fatalf("bob's move while alice's comparison ran: %q", r.Content)
	}
	if r := h.move(alice, ga.ID, "b3"); r.Ephemeral() {
		t.Fatalf("alice's move on the puzzle being compared: %q", r.Content)
	}
	gate.open()
	r := h.reply(compare)(ix, err)
	for name, row := range compareRows(t, compared(t, h, r)) {
		if row[0] != "6" { // every queen placed on the empty board the click saw
			t.Errorf("%s: %v, want a solution 6 moves from the empty board", name, row)
		}
	}
}

// TestCompareShowsResultsAsSolversFinish lets a comparison's solvers run
// one at a time: after each, the answer shows it done and the rest not.
func TestCompareShowsResultsAsSolversFinish(t *testing.T) {
	t.Parallel()
	gate := newSolverGate()
	h := start(t, withClock(), withWorkers(1), withSolverGate(t, gate))
	alice := h.srv.AddUser("alice").ID
	_, board := newPuzzle(t, h, alice, opt("game", "nqueens"), opt("n", 6))
	compare, _ := find(board, customid.Compare, nil)
	r := h.click(alice, board.ID, compare)
	order := []string{"backtracking", "hill-climbing", "min-conflicts", "swap-repair"}
	for k, name := range order {
		if got := gate.next(t); got != name {
			t.Fatalf("solver %d is %s, want %s", k+1, got, name)
		}
		gate.release <- struct{}{}
		progress := fmt.Sprintf("%d of %d done", k+1, len(order))
		m := waitCompare(t, h, r.ID, name+" done", func(m discordtest.Message) bool {
			return strings.Contains(m.Content, progress) || k == len(order)-1 && !strings.Contains(m.Content, "not done yet")
		})
		rows := compareRows(t, m)
		for i, other := range order {
			if pending := rows[other][3] == "not done yet"; pending != (i > k) {
				t.Errorf("after %s: %s reads %v", name, other, rows[other])
			}
		}
	}
}

// TestConcurrentCompareClicksAreAllAnswered clicks Compare algorithms 20
// times at once on one puzzle and once on another while the solvers are
// held: every click is answered, one comparison runs per puzzle and the
// other clicks are told it runs. Once done, a click compares again.
func TestConcurrentCompareClicksAreAllAnswered(t *testing.T) {
	t.Parallel()
	gate := newSolverGate()
	h := start(t, withClock(), withSolverGate(t, gate))
	alice := h.srv.AddUser("alice").ID
	_, one := newPuzzle(t, h, alice, opt("game", "nqueens"), opt("n", 6))
	_, other := newPuzzle(t, h, alice, opt("game", "nqueens"), opt("n", 7))
	compareOne, _ := find(one, customid.Compare, nil)
	compareOther, _ := find(other, customid.Compare, nil)
	replies := make([]discordtest.Message, 21)
	var wg sync.WaitGroup
	for i := range replies {
		wg.Go(func() {
			board, compare := one, compareOne
			if i == 20 {
				board, compare = other, compareOther
			}
			ix, err := h.srv.ClickButton(alice, board.ID, compare)
			if err == nil {
				replies[i], err = ix.Reply(h.ctx())
			}
			if err != nil {
				t.Errorf("click %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	var tables []discordtest.Message
	running := 0
	for _, r := range replies[:20] {
		switch {
		case strings.Contains(r.Content, "0 of 4 done"):
			tables = append(tables, r)
		case strings.Contains(r.Content, "still being compared"):
			running++
		default:
			t.Errorf("a click answered %q", r.Content)
		}
	}
	if len(tables) != 1 || running != 19 {
		t.Fatalf("%d comparisons and %d clicks told one runs, want 1 and 19", len(tables), running)
	}
	if !strings.Contains(replies[20].Content, "0 of 4 done") {
		t.Fatalf("the other puzzle's Compare answered %q", replies[20].Content)
	}
	gate.open()
	compared(t, h, tables[0])
	compared(t, h, replies[20])
	if r := h.click(alice, one.ID, compareOne); !strings.Contains(r.Content, "0 of 4 done") {
		t.Errorf("Compare after the comparison ended answered %q", r.Content)
	}
}

// TestCompareWaitsItsTurnAmongAITurns runs a comparison's solvers on the
// only AI worker while another member's AI turn comes: the turn is played
// after the solver that runs and the next in the fair queue, before the
// comparison's last.
func TestCompareWaitsItsTurnAmongAITurns(t *testing.T) {
	t.Parallel()
	gate := newSolverGate()
	h := start(t, withClock(), withWorkers(1), withSolverGate(t, gate))
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	_, board := newPuzzle(t, h, alice, opt("game", "nqueens"), opt("n", 6))
	compare, _ := find(board, customid.Compare, nil)
	h.click(alice, board.ID, compare)
	gate.next(t) // the first solver holds the worker; two more wait in the queue
	g, _ := playAI(t, h, bob, opt("game", "tictactoe"), opt("ai", "random"))
	if r := h.move(bob, g.ID, "5"); r.Ephemeral() {
		t.Fatalf("bob's move: %q", r.Content)
	}
	gate.release <- struct{}{}
	gate.next(t) // alice's second solver: her turn of the queue came first
	gate.release <- struct{}{}
	gate.next(t) // alice's third solver, after bob's AI turn
	if g := h.game(g.ID); len(g.Moves) != 2 {
		t.Fatalf("alice's last solver ran before bob's AI turn: his game has moves %v", g.Moves)
	}
}

// BenchmarkLoadClicksBesideComparisons measures one member's clicks —
// placing and lifting a queen on an N-Queens puzzle, one click after the
// other — alone, and while another member keeps Compare algorithms running
// on ten 15-puzzles, pressing it again on each as soon as its answer is
// complete.
// It reports the clicks' first-response percentiles and their rate:
//
//	go test -run '^$' -bench ClicksBesideComparisons -benchtime 300x ./bot/
func BenchmarkLoadClicksBesideComparisons(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(bot.Procs(bot.Config{}))) // as gambit bot sets it
	puzzles.DefaultPDB(4)
	b.Run("alone", func(b *testing.B) { clicksBesideComparisons(b, 0) })
	b.Run("beside-10", func(b *testing.B) { clicksBesideComparisons(b, 10) })
}

// clicksBesideComparisons is BenchmarkLoadClicksBesideComparisons with
// the other member comparing on n puzzles.
func clicksBesideComparisons(b *testing.B, n int) {
	h := start(b, withoutChecks())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	var boards []discordtest.Message
	for range n {
		_, m := h.command(alice, "puzzle", opt("game", "15puzzle"), opt("difficulty", "medium"))
		if m.Ephemeral() {
			b.Fatalf("/puzzle: %s", m.Content)
		}
		boards = append(boards, m)
	}
	_, m := h.command(bob, "puzzle", opt("game", "nqueens"), opt("n", 8))
	if m.Ephemeral() {
		b.Fatalf("/puzzle: %s", m.Content)
	}
	queens := h.waitGame(h.latestGame(bob).ID, "the board's ID", func(g *storage.Game) bool { return g.MessageID != "" })

	stop := make(chan struct{})
	var comparing sync.WaitGroup
	for _, board := range boards {
		comparing.Go(func() {
			compare, _ := find(board, customid.Compare, nil)
			for {
				select {
				case <-stop:
					return
				default:
				}
				ix, err := h.srv.ClickButton(alice, board.ID, compare)
				if err != nil {
					b.Error(err)
					return
				}
				r, err := ix.Reply(h.ctx())
				if err != nil {
					b.Error(err)
					return
				}
				// The next click once this comparison is complete.
				_, _ = h.srv.WaitMessage(h.ctx(), func(m discordtest.Message) bool {
					return m.ID == r.ID && !strings.Contains(m.Content, "not done yet")
				})
			}
		})
	}
	var lat latencies
	start := time.Now()
	for b.Loop() {
		board := h.board(queens.ID)
		cid, value, ok := moveControl(board, "a1")
		if !ok {
			b.Fatal("no control for a1")
		}
		timedPick(b, h, bob, board.ID, cid, value, lat.record)
		h.waitBoard(queens.ID, "the click shown", func(m discordtest.Message) bool { return m.Version > board.Version })
	}
	elapsed := time.Since(start)
	close(stop)
	comparing.Wait()
	clicks := lat.report(b)
	b.ReportMetric(float64(clicks)/elapsed.Seconds(), "clicks/s")
}
