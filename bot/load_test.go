package bot_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// The load benchmarks measure the bot as users feel it, from the stand-in's
// side: the time from a click leaving the "client" to the bot's first
// response arriving, and how late AI moves arrive after their move time.
// The stand-in, the simulated users and the bot share the machine's cores;
// the stand-in's schema checks, which cost as much CPU as the bot, and its
// request log are off.
// They report percentiles as custom metrics:
//
//	go test -run '^$' -bench 'Load' -benchtime 5x ./bot/

// percentile returns the p-th percentile (0–100) of sorted durations.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted)-1) * p / 100)
	return sorted[i]
}

// legalCell returns a random empty cell of an Adjacency position text.
func legalCell(rng *rand.Rand, text string) string {
	ranks := strings.Split(strings.Fields(text)[0], "/")
	var empty []string
	for r, rank := range ranks {
		for f, c := range rank {
			if c == '.' {
				empty = append(empty, fmt.Sprintf("%c%d", 'a'+f, 8-r))
			}
		}
	}
	return empty[rng.IntN(len(empty))]
}

// BenchmarkLoadFirstResponse200Games keeps 200 two-player Adjacency games
// going at once, and 8 games against minimax: in each iteration every
// game's player to move clicks a cell, the human games' clicks spread over
// one second (200 clicks/s), the AI games' at its start (so that searches
// run on every search thread meanwhile), and the time to the bot's first
// response is recorded. It also reports the process's resident memory at
// the end, the heap each open game adds, and the CPU time per click (the
// whole process's: bot, stand-in and simulated users).
func BenchmarkLoadFirstResponse200Games(b *testing.B) {
	const games, aiGames = 200, 8
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(bot.Procs(bot.Config{}))) // as gambit bot sets it
	h := start(b, withoutChecks(), withConfig(func(c *bot.Config) {
		c.Timers.TickInterval, c.AI.MoveTime, c.Games.MaxPerUser = time.Second, 2*time.Second, aiGames
	}))
	heapBefore := heapInUse()
	users := make([]string, 2*games)
	for i := range users {
		users[i] = h.srv.AddUser(fmt.Sprintf("player%d", i)).ID
	}
	ids := make([]storage.GameID, games)
	var wg sync.WaitGroup
	for i := range games {
		wg.Go(func() {
			ids[i] = challengeAndAcceptQuiet(h, users[2*i], users[2*i+1])
		})
	}
	wg.Wait()
	perGame := float64(heapInUse()-heapBefore) / games
	aiUser := h.srv.AddUser("ai-player").ID
	aiIDs := make([]storage.GameID, aiGames)
	for i := range aiIDs {
		g, _ := playAI(b, h, aiUser, opt("game", "adjacency"), opt("ai", "minimax"), opt("rounds", 28))
		aiIDs[i] = g.ID
	}

	var lat latencies
	cpuBefore := cpuTime()
	b.ResetTimer()
	for round := 0; b.Loop(); round++ {
		for i, id := range aiIDs {
			wg.Go(func() {
				rng := rand.New(rand.NewPCG(uint64(i), 7))
				g := h.game(id)
				if g.Status != storage.StatusActive || g.AwaitingAI() {
					return // the AI is still thinking about the last move
				}
				board := h.board(id)
				cid, value, ok := moveControl(board, legalCell(rng, g.Position))
				if !ok {
					return // the board is between edits
				}
				timedPick(b, h, aiUser, board.ID, cid, value, lat.record)
			})
		}
		clickEveryGame(b, h, &wg, round, users, ids, &lat)
		wg.Wait()
	}
	b.StopTimer()
	cpu := cpuTime() - cpuBefore
	clicks := lat.report(b)
	b.ReportMetric(float64(residentBytes())/(1<<20), "rss-MiB")
	b.ReportMetric(perGame/(1<<10), "KiB/game")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(clicks), "cpu-ms/click")
}

// clickEveryGame starts, in wg, a click by the player to move of each
// two-player Adjacency game of ids (users[2i] and users[2i+1] play game i)
// on a random empty cell, the clicks spread over one second, and records
// the time to the bot's first response in lat.
func clickEveryGame(b *testing.B, h *harness, wg *sync.WaitGroup, round int, users []string, ids []storage.GameID, lat *latencies) {
	for i, id := range ids {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), uint64(round)))
			time.Sleep(time.Duration(rng.Int64N(int64(time.Second))))
			g := h.game(id)
			if g.Status != storage.StatusActive {
				return
			}
			board := h.board(id)
			cid, value, ok := moveControl(board, legalCell(rng, g.Position))
			if !ok {
				b.Errorf("game %s: no control for a legal cell", id)
				return
			}
			timedPick(b, h, users[2*i+g.Turn], board.ID, cid, value, lat.record)
		})
	}
}

// latencies are the response times of concurrent clicks.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

// record adds one response time.
func (l *latencies) record(d time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
}

// report reports the 50th and 99th percentiles, the slowest and the number
// of clicks, which it returns.
func (l *latencies) report(b *testing.B) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.d) == 0 {
		b.Fatal("no click was answered")
	}
	slices.Sort(l.d)
	b.ReportMetric(float64(percentile(l.d, 50).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(percentile(l.d, 99).Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(l.d[len(l.d)-1].Microseconds())/1000, "max-ms")
	b.ReportMetric(float64(len(l.d)), "clicks")
	return len(l.d)
}

// timedPick picks a value in a select as a user and records the time to
// the bot's first response.
func timedPick(b *testing.B, h *harness, user, messageID, customID, value string, record func(time.Duration)) {
	t0 := time.Now()
	ix, err := h.srv.SelectValues(user, messageID, customID, value)
	if err != nil {
		b.Error(err)
		return
	}
	if _, err := ix.Response(h.ctx()); err != nil {
		b.Error(err)
		return
	}
	record(time.Since(t0))
}

// heapInUse returns the live heap after a collection.
func heapInUse() int64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapInuse)
}

// residentBytes returns the process's resident memory (VmRSS), or 0 if
// the system does not say.
func residentBytes() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// cpuTime returns the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// challengeAndAcceptQuiet starts a 28-round Adjacency game between two
// users through the UI, failing the benchmark on any refusal.
func challengeAndAcceptQuiet(h *harness, alice, bob string) storage.GameID {
	ix, err := h.srv.SendCommand(discordtest.SlashCommand{UserID: alice, Name: "play", Options: []discordtest.Option{
		opt("game", "adjacency"), opt("opponent", bob), opt("rounds", 28),
	}})
	if err != nil {
		h.t.Fatal(err)
	}
	m, err := ix.Reply(h.ctx())
	if err != nil {
		h.t.Fatal(err)
	}
	// Accept once the challenge's board is saved, as a person would be
	// able to click it: with replicas (gambit serve), the click may reach
	// another process than the one still saving the board's message ID,
	// and the two changes would race.
	var id storage.GameID
	for deadline := time.Now().Add(waitTimeout()); id == ""; time.Sleep(5 * time.Millisecond) {
		for _, g := range mustActive(h, alice) {
			if g.MessageID == m.ID {
				id = g.ID
			}
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("the challenge on message %s was not saved", m.ID)
		}
	}
	accept, ok := find(m, "v1/accept/{game}", nil)
	if !ok {
		h.t.Fatalf("no Accept button: %q", m.Content)
	}
	if r := h.click(bob, m.ID, accept); r.Ephemeral() {
		h.t.Fatalf("accept refused: %q", r.Content)
	}
	return id
}

func mustActive(h *harness, user string) []*storage.Game {
	games, err := h.store.ActiveGames(h.ctx(), storage.User(user))
	if err != nil {
		h.t.Fatal(err)
	}
	return games
}

// BenchmarkLoadAIOvershoot8Games plays 8 Adjacency games against minimax
// at once on the machine's cores: in each iteration every player moves at
// the same moment and the time from the click to the AI's move on the
// board, minus the move time, is recorded. Queueing counts against the
// move time, so with more games than cores the later searches get less
// time; the overshoot is how late the answer is beyond the move time.
func BenchmarkLoadAIOvershoot8Games(b *testing.B) {
	const games = 8
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(bot.Procs(bot.Config{}))) // as gambit bot sets it
	const moveTime = 500 * time.Millisecond
	h := start(b, withoutChecks(), withConfig(func(c *bot.Config) { c.AI.MoveTime = moveTime }))
	users := make([]string, games)
	ids := make([]storage.GameID, games)
	for i := range users {
		users[i] = h.srv.AddUser(fmt.Sprintf("player%d", i)).ID
		g, _ := playAI(b, h, users[i], opt("game", "adjacency"), opt("ai", "minimax"), opt("rounds", 28))
		ids[i] = g.ID
	}
	var mu sync.Mutex
	var over []time.Duration
	var wg sync.WaitGroup
	b.ResetTimer()
	for b.Loop() {
		start := make(chan struct{})
		for i, id := range ids {
			wg.Go(func() {
				rng := rand.New(rand.NewPCG(uint64(i), uint64(len(over))))
				g := h.game(id)
				if g.Status != storage.StatusActive {
					return
				}
				board := h.board(id)
				cid, value, ok := moveControl(board, legalCell(rng, g.Position))
				if !ok {
					b.Errorf("game %s: no control for a legal cell", id)
					return
				}
				want := len(g.Moves) + 2
				<-start
				t0 := time.Now()
				if _, err := h.srv.SelectValues(users[i], board.ID, cid, value); err != nil {
					b.Error(err)
					return
				}
				if _, err := h.waitMessage(h.ctx(), func(m discordtest.Message) bool {
					return m.ID == board.ID && strings.Contains(m.Content, "your move") && m.Version > board.Version+1
				}); err != nil {
					b.Errorf("game %s: the AI's move did not arrive: %v", id, err)
					return
				}
				d := time.Since(t0) - moveTime
				if g := h.game(id); len(g.Moves) < want {
					b.Errorf("game %s: board says your move with %d moves, want %d", id, len(g.Moves), want)
				}
				mu.Lock()
				over = append(over, d)
				mu.Unlock()
			})
		}
		close(start)
		wg.Wait()
	}
	b.StopTimer()
	slices.Sort(over)
	b.ReportMetric(float64(percentile(over, 50).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(percentile(over, 99).Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(over[len(over)-1].Microseconds())/1000, "max-ms")
	b.ReportMetric(float64(len(over)), "moves")
}
